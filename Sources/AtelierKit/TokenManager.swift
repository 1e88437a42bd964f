import AtelierAPI
import Foundation
import OpenAPIRuntime

/// Holds the tokens and refreshes them with at most one refresh in flight: every call that
/// gets a 401 at the same time waits for that one refresh.
actor TokenManager {
    private let store: any TokenStore
    private let refresher: Client
    private var cached: StoredTokens?
    private var loaded = false
    private var refreshing: Task<StoredTokens, any Error>?
    private var onSignedOut: @Sendable () -> Void = {}
    private(set) var refreshCount = 0

    init(store: any TokenStore, refresher: Client) {
        self.store = store
        self.refresher = refresher
    }

    func setSignedOutHandler(_ handler: @escaping @Sendable () -> Void) {
        onSignedOut = handler
    }

    func current() async throws -> StoredTokens? {
        if !loaded {
            cached = try await store.load()
            loaded = true
        }
        return cached
    }

    func update(_ session: Components.Schemas.AuthSession) async throws {
        let tokens = StoredTokens(
            accessToken: session.accessToken, refreshToken: session.refreshToken,
            accessTokenExpiresAt: session.accessTokenExpiresAt)
        cached = tokens
        loaded = true
        try await store.save(tokens)
    }

    func clear() async throws {
        refreshing?.cancel()
        refreshing = nil
        cached = nil
        loaded = true
        try await store.clear()
    }

    /// A fresh access token after `rejected` got a 401. If another call already refreshed, its
    /// result is used; if a refresh is running, this waits for it.
    func accessToken(replacing rejected: String) async throws -> String {
        if let current = try await current(), current.accessToken != rejected {
            return current.accessToken
        }
        if let refreshing {
            return try await refreshing.value.accessToken
        }
        guard let tokens = try await current() else { throw AtelierError.signedOut }
        let task = Task { try await self.performRefresh(tokens.refreshToken) }
        refreshing = task
        defer { refreshing = nil }
        return try await task.value.accessToken
    }

    private func performRefresh(_ refreshToken: String) async throws -> StoredTokens {
        refreshCount += 1
        let output = try await refresher.refreshSession(body: .json(.init(refreshToken: refreshToken)))
        switch output {
        case .ok(let ok):
            let session = try ok.body.json
            try await update(session)
            return cached!
        case .unauthorized:
            // The refresh token is dead (expired, or reused and revoked): signed out everywhere.
            try await clear()
            onSignedOut()
            throw AtelierError.signedOut
        case .tooManyRequests:
            throw AtelierError.rateLimited
        default:
            throw AtelierError.unexpectedResponse("refresh answered \(output)")
        }
    }
}

public enum AtelierError: Error, Equatable {
    /// No valid session: sign in again.
    case signedOut
    case rateLimited
    /// The server refused the request (a 4xx problem): `fields` names the fields it found wrong.
    case rejected(status: Int, detail: String, fields: [String])
    case unexpectedResponse(String)

    init(_ problem: Components.Schemas.Problem?, status: Int) {
        self = .rejected(
            status: status, detail: problem?.detail ?? problem?.title ?? "HTTP \(status)", fields: problem?.errors?.map(\.field) ?? [])
    }
}
