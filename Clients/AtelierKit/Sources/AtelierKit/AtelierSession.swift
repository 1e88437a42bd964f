import AtelierAPI
import Foundation
import OpenAPIRuntime

/// The app's connection to Atelier: signs in and out, keeps tokens in a `TokenStore` (by default
/// one that lasts across launches), tells its `authState`, and offers `client`, the generated
/// typed client, with authentication and token refresh built in.
public final class AtelierSession: Sendable {
    /// Every API operation, authenticated when signed in.
    public let client: Client
    /// Where the server lives (the API is at `baseURL/api/v1`).
    public let baseURL: URL
    let tokens: TokenManager
    let retryPolicy: RetryPolicy
    private let anonymous: Client

    /// `tokenStore`: nil keeps the tokens in the Keychain (Apple platforms) or a file readable by
    /// the user only (`FileTokenStore.defaultURL(for:)`), so a restarted app is still signed in.
    /// Pass `InMemoryTokenStore()` for a session that must not outlive the process. `retry`: when
    /// calls are tried again (`RetryPolicy`). `now` is the clock the session judges token expiry by.
    public init(
        baseURL: URL, tokenStore: (any TokenStore)? = nil,
        transport: any ClientTransport = URLSessionAPITransport(), retry: RetryPolicy = .standard,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.baseURL = baseURL
        let apiURL = baseURL.appendingPathComponent("api/v1")
        // The key first, so that every retry of one call carries it; the token inside, so that a
        // retry after a long wait goes with a fresh one.
        let anonymous = Client(serverURL: apiURL, transport: transport, middlewares: [IdempotencyKeyMiddleware(), RetryMiddleware(policy: retry)])
        let tokens = TokenManager(store: tokenStore ?? TokenStores.defaultStore(for: baseURL), refresher: anonymous, now: now)
        self.anonymous = anonymous
        self.tokens = tokens
        self.retryPolicy = retry
        self.client = Client(
            serverURL: apiURL, transport: transport,
            middlewares: [IdempotencyKeyMiddleware(), RetryMiddleware(policy: retry), AuthenticationMiddleware(tokens: tokens)])
    }

    /// Called when the server ends the session (for example after refresh-token reuse elsewhere).
    public func onSignedOut(_ handler: @escaping @Sendable () -> Void) async {
        await tokens.setSignedOutHandler(handler)
    }

    public var isSignedIn: Bool {
        get async { (try? await tokens.current()) != nil }
    }

    /// The session's state now, then each change: signed in (with the account), refreshing,
    /// signed out, or expired (ended by the server). One stream per screen that listens.
    public var authState: AsyncStream<AuthState> {
        get async {
            _ = try? await tokens.current()
            return tokens.states.stream()
        }
    }

    /// Signs in (or up, the first time) with an ID token from Apple, Google or Facebook. `nonce`
    /// is the raw nonce given to the provider; `displayName` the name Apple gives the app once.
    @discardableResult
    public func signIn(
        provider: Components.Schemas.SocialSignInRequest.ProviderPayload, idToken: String, nonce: String? = nil, displayName: String? = nil
    ) async throws -> Components.Schemas.Me {
        let output = try await anonymous.socialSignIn(
            body: .json(.init(provider: provider, idToken: idToken, nonce: nonce, displayName: displayName)))
        let session: Components.Schemas.AuthSession
        switch output {
        case .ok(let ok): session = try ok.body.json
        case .created(let created): session = try created.body.json
        case .unauthorized(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 401)
        case .tooManyRequests(let r): throw AtelierError.rateLimited(retryAfter: r.headers.retryAfter.map { .seconds($0) })
        case .badRequest(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 400)
        case .forbidden(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 403)
        case .conflict(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 409)
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        default: throw AtelierError.unexpectedResponse("socialSignIn: \(output)")
        }
        try await tokens.update(session)
        return session.user
    }

    /// Changes the password. The server ends every other session of the account; this one goes on
    /// with the new tokens it answers with.
    @discardableResult
    public func changePassword(current: String, new: String) async throws -> Components.Schemas.Me {
        let output = try await client.changePassword(body: .json(.init(currentPassword: current, newPassword: new)))
        switch output {
        case .ok(let ok):
            let session = try ok.body.json
            try await tokens.update(session)
            return session.user
        case .unauthorized: throw AtelierError.signedOut
        case .tooManyRequests(let r): throw AtelierError.rateLimited(retryAfter: r.headers.retryAfter.map { .seconds($0) })
        case .badRequest(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 400)
        case .forbidden(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 403)
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        default: throw AtelierError.unexpectedResponse("changePassword: \(output)")
        }
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

    /// Revokes the session on the server (best effort) and forgets the tokens here. `everywhere`:
    /// every session of the account ends, on every phone and browser (not best effort: it throws
    /// when the server could not be told, and the tokens here stay).
    public func signOut(everywhere: Bool = false, deviceToken: String? = nil) async throws {
        if everywhere {
            try await account.logOutEverywhere()
        } else if let refreshToken = try await tokens.current()?.refreshToken {
            _ = try? await anonymous.logOut(body: .json(.init(refreshToken: refreshToken, deviceToken: deviceToken)))
        }
        try await tokens.clear()
    }

    /// How many token refreshes this session has made (for diagnostics and tests).
    public var refreshCount: Int {
        get async { await tokens.refreshCount }
    }
}
