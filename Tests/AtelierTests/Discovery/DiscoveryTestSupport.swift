import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct LikeStateBody: Decodable, Equatable { var liked: Bool; var likeCount: Int }
struct FollowStateBody: Decodable, Equatable { var following: Bool; var followerCount: Int }
struct FeedPageBody: Decodable {
    var items: [ProductCardBody]
    var nextCursor: String?
    var asOf: String
}

extension TestApp {
    /// An active product in `storeID` with a placeholder photo (fast; its photo is never looked at).
    func activeProduct(
        in storeID: String, owner: Session, category: Category, brand: Brand? = nil, title: String = "Linen shirt"
    ) async throws -> ProductBody {
        let photo = try await placeholderPhoto(uploader: owner.user.id)
        let response = try await createProduct(
            in: storeID, token: owner.accessToken,
            json: TestApp.productJSON(title: title, category: category, brand: brand, photos: [photo], status: "active"))
        #expect(response.status == .created, "\(response.body.string)")
        return try response.content.decode(ProductBody.self)
    }

    /// `count` users with live sessions, written straight to the database: signing up through the
    /// API would meet its per-address rate limit, and the point of these tests is what follows.
    func signUpMany(_ count: Int) async throws -> [Session] {
        var sessions: [Session] = []
        for index in 0..<count {
            let suffix = UUID().uuidString.prefix(8).lowercased()
            let user = User(
                id: .v7(at: clock.now()), email: "shopper-\(suffix)@example.com", passwordHash: "-", displayName: "Shopper \(index)",
                username: "shopper.\(suffix)", now: clock.now())
            try await user.create(on: app.db)
            let issued = try await SessionService(db: app.db, core: app.core).issue(for: user)
            sessions.append(Session(
                accessToken: issued.accessToken, refreshToken: issued.refreshToken,
                user: .init(id: user.id!.idString, email: user.email, displayName: user.displayName, username: user.username,
                            about: nil, timeZone: user.timeZone)))
        }
        return sessions
    }

    /// Reads every page of a feed, following its cursors.
    func readFeed(_ path: String, token: String, limit: Int = 7, onPage: (Int) async throws -> Void = { _ in }) async throws -> [String] {
        var seen: [String] = []
        var cursor: String?
        var pageNumber = 0
        repeat {
            let query = "limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? "")
            let response = try await send(.GET, "\(path)\(path.contains("?") ? "&" : "?")\(query)", token: token)
            #expect(response.status == .ok, "\(response.body.string)")
            let page = try response.content.decode(FeedPageBody.self)
            seen += page.items.map(\.id)
            cursor = page.nextCursor
            try await onPage(pageNumber)
            pageNumber += 1
        } while cursor != nil
        return seen
    }
}
