import AtelierAPI
import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

/// The app's connection to Atelier: signs in and out, keeps tokens in a `TokenStore`, and offers
/// `client`, the generated typed client, with authentication and token refresh built in.
public final class AtelierSession: Sendable {
    /// Every API operation, authenticated when signed in.
    public let client: Client
    /// Where the server lives (the API is at `baseURL/api/v1`).
    public let baseURL: URL
    let tokens: TokenManager
    private let anonymous: Client

    public init(
        baseURL: URL, tokenStore: any TokenStore = InMemoryTokenStore(),
        transport: any ClientTransport = URLSessionTransport()
    ) {
        self.baseURL = baseURL
        let apiURL = baseURL.appendingPathComponent("api/v1")
        let anonymous = Client(serverURL: apiURL, transport: transport, middlewares: [IdempotencyKeyMiddleware()])
        let tokens = TokenManager(store: tokenStore, refresher: anonymous)
        self.anonymous = anonymous
        self.tokens = tokens
        self.client = Client(
            serverURL: apiURL, transport: transport,
            middlewares: [IdempotencyKeyMiddleware(), AuthenticationMiddleware(tokens: tokens)])
    }

    /// Called when the server ends the session (for example after refresh-token reuse elsewhere).
    public func onSignedOut(_ handler: @escaping @Sendable () -> Void) async {
        await tokens.setSignedOutHandler(handler)
    }

    public var isSignedIn: Bool {
        get async { (try? await tokens.current()) != nil }
    }

    /// `inviteToken`: from an invite link the person opened (`InviteLinks`); they are then
    /// connected with whoever sent it.
    @discardableResult
    public func signUp(email: String, password: String, displayName: String, inviteToken: String? = nil) async throws -> Components.Schemas.Me {
        let output = try await anonymous.signUp(
            body: .json(.init(email: email, password: password, displayName: displayName, inviteToken: inviteToken)))
        let session = try output.created.body.json
        try await tokens.update(session)
        return session.user
    }

    @discardableResult
    public func signIn(email: String, password: String) async throws -> Components.Schemas.Me {
        let session = try await anonymous.logIn(body: .json(.init(email: email, password: password))).ok.body.json
        try await tokens.update(session)
        return session.user
    }

    /// Revokes the session on the server (best effort) and forgets the tokens here.
    public func signOut(deviceToken: String? = nil) async throws {
        if let refreshToken = try await tokens.current()?.refreshToken {
            _ = try? await anonymous.logOut(body: .json(.init(refreshToken: refreshToken, deviceToken: deviceToken)))
        }
        try await tokens.clear()
    }

    /// How many token refreshes this session has made (for diagnostics and tests).
    public var refreshCount: Int {
        get async { await tokens.refreshCount }
    }
}
