import Fluent
import Vapor

/// The cart of a browser: the account's when signed in, else one kept for the session (merged
/// into the account's at sign-in, see `signInWebSession`).
enum WebCart {
    static let sessionKey = "cart"

    /// A sign-in step (the composition root registers it): what was put in the cart while signed out
    /// moves into the account's cart.
    @Sendable static func moveSignedOutCart(_ req: Request, into user: User) async throws {
        guard let key = req.session.data[sessionKey] else { return }
        try await CartService(db: req.db, core: req.core).merge(session: key, into: user)
        req.session.data[sessionKey] = nil
    }

    static func owner(_ req: Request, create: Bool) throws -> CartOwner? {
        if let user = req.webSessionUser { return .user(try user.requireID()) }
        if let key = req.session.data[sessionKey] { return .session(key) }
        guard create else { return nil }
        let key = TokenHash.randomToken()
        req.session.data[sessionKey] = key
        return .session(key)
    }

    /// Items in the cart, for the header badge.
    static func itemCount(_ req: Request) async throws -> Int {
        guard let owner = try owner(req, create: false) else { return 0 }
        return try await CartService(db: req.db, core: req.core).contents(of: owner).itemCount
    }
}
