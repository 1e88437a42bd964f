import AtelierAPI
import Foundation
import OpenAPIRuntime

/// Holds the tokens and refreshes them with at most one refresh in flight: shortly before the
/// access token expires, or after a 401. Every call that needs a fresh token at the same time
/// waits for that one refresh. Each change of state is told to `states`.
actor TokenManager {
    /// A token this close to its expiry is refreshed before it is sent, so a call does not
    /// travel with a token that dies on the way (and costs a 401 and a second trip).
    static let refreshLeeway: TimeInterval = 60

    private let store: any TokenStore
    private let refresher: Client
    private let now: @Sendable () -> Date
    let states = AuthStateBroadcast(.signedOut)
    private var cached: StoredTokens?
    private var loaded = false
    private var refreshing: Task<StoredTokens, any Error>?
    private var onSignedOut: @Sendable () -> Void = {}
    private(set) var refreshCount = 0

    init(store: any TokenStore, refresher: Client, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.refresher = refresher
        self.now = now
    }

    func setSignedOutHandler(_ handler: @escaping @Sendable () -> Void) {
        onSignedOut = handler
    }

    func current() async throws -> StoredTokens? {
        if !loaded {
            cached = try await store.load()
            loaded = true
            states.publish(cached.map { .signedIn(me: $0.user) } ?? .signedOut)
        }
        return cached
    }

    func update(_ session: Components.Schemas.AuthSession) async throws {
        let tokens = StoredTokens(
            accessToken: session.accessToken, refreshToken: session.refreshToken,
            accessTokenExpiresAt: session.accessTokenExpiresAt, user: session.user)
        cached = tokens
        loaded = true
        try await store.save(tokens)
        states.publish(.signedIn(me: session.user))
    }

    /// Forgets the tokens: `ended` when the server ended the session, not the person.
    func clear(ended: Bool = false) async throws {
        refreshing?.cancel()
        refreshing = nil
        cached = nil
        loaded = true
        try await store.clear()
        states.publish(ended ? .expired : .signedOut)
    }

    /// The token to send with a call: refreshed first when it is about to expire. Offline or
    /// rate limited, the old token goes anyway (a 401 then refreshes again); nil when signed out.
    func accessTokenForRequest() async throws -> String? {
        guard let tokens = try await current() else { return nil }
        guard tokens.accessTokenExpiresAt.timeIntervalSince(now()) <= Self.refreshLeeway else { return tokens.accessToken }
        do {
            return try await refreshed(from: tokens).accessToken
        } catch AtelierError.signedOut {
            return nil
        } catch {
            return tokens.accessToken
        }
    }

    /// A fresh access token after `rejected` got a 401. If another call already refreshed, its
    /// result is used; if a refresh is running, this waits for it.
    func accessToken(replacing rejected: String) async throws -> String {
        guard let tokens = try await current() else { throw AtelierError.signedOut }
        if tokens.accessToken != rejected { return tokens.accessToken }
        return try await refreshed(from: tokens).accessToken
    }

    private func refreshed(from tokens: StoredTokens) async throws -> StoredTokens {
        if let refreshing { return try await refreshing.value }
        // Another call may have refreshed while this one waited for the actor.
        if let current = cached, current.accessToken != tokens.accessToken,
            current.accessTokenExpiresAt.timeIntervalSince(now()) > Self.refreshLeeway {
            return current
        }
        let task = Task { try await self.performRefresh(tokens.refreshToken) }
        refreshing = task
        defer { refreshing = nil }
        return try await task.value
    }

    private func performRefresh(_ refreshToken: String) async throws -> StoredTokens {
        refreshCount += 1
        states.publish(.refreshing)
        let output: Operations.RefreshSession.Output
        do {
            output = try await refresher.refreshSession(body: .json(.init(refreshToken: refreshToken)))
        } catch {
            states.publish(.signedIn(me: cached?.user))
            throw error
        }
        switch output {
        case .ok(let ok):
            let session = try ok.body.json
            try await update(session)
            return cached!
        case .unauthorized:
            // The refresh token is dead (expired, or reused and revoked): signed out everywhere.
            try await clear(ended: true)
            onSignedOut()
            throw AtelierError.signedOut
        case .tooManyRequests:
            states.publish(.signedIn(me: cached?.user))
            throw AtelierError.rateLimited(retryAfter: nil)
        default:
            states.publish(.signedIn(me: cached?.user))
            throw AtelierError.unexpectedResponse("refresh answered \(output)")
        }
    }
}
