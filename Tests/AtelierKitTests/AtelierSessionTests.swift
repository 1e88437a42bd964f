import AtelierKit
import Foundation
import Testing

@Suite("AtelierSession against a live server")
struct AtelierSessionTests {
    @Test("a network failure is offline, and its loggable description leaves the request (a password) out")
    func loggableNetworkFailure() async throws {
        let secret = "a very secret password"
        let session = AtelierSession(baseURL: URL(string: "http://127.0.0.1:9")!, tokenStore: InMemoryTokenStore(), retry: .none)
        let error = try #require(await #expect(throws: (any Error).self) {
            try await session.signUp(email: uniqueEmail(), password: secret, displayName: "Nobody")
        })
        #expect(AtelierError.isOffline(error))
        #expect(String(describing: error).contains(secret), "why the helper exists: the runtime's own description has the body")
        let logged = AtelierError.loggable(error)
        #expect(logged.hasPrefix("signUp: ") && !logged.contains(secret))
        let refused = AtelierError.rejected(AtelierProblem(status: 422, type: "about:blank", title: "Invalid", detail: "Check the fields.", messages: [("email", "taken")]))
        #expect(AtelierError.loggable(refused) == "422 Check the fields. [email]" && !AtelierError.isOffline(refused))
    }

    @Test("an expired access token is refreshed exactly once for 10 concurrent calls")
    func singleRefresh() async throws {
        try await LiveServer.with { server in
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            let me = try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Kit User")
            #expect(me.displayName == "Kit User")

            server.clock.advance(by: 16 * 60)  // past the 15-minute access token lifetime
            let names = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await session.client.getMe().ok.body.json.displayName }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(names == Array(repeating: "Kit User", count: 10))
            #expect(await session.refreshCount == 1)
        }
    }

    @Test("when the refresh token was revoked, the session signs out")
    func signedOutEverywhere() async throws {
        try await LiveServer.with { server in
            let store = InMemoryTokenStore()
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: store)
            try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Kit User")
            let stolen = try #require(await store.load())
            // Someone else rotates the refresh token first...
            let thief = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore(stolen))
            server.clock.advance(by: 16 * 60)
            _ = try await thief.client.getMe().ok
            // ...so our refresh presents a rotated token: the family is revoked and we are signed out.
            let output = try await session.client.getMe()
            guard case .unauthorized = output else {
                Issue.record("expected 401, got \(output)")
                return
            }
            #expect(await session.isSignedIn == false)
            guard case .unauthorized = try await thief.client.getMe() else {
                Issue.record("the thief's session should be revoked too")
                return
            }
        }
    }

    @Test("sign in, file token store survives a new session object, sign out clears it")
    func fileStore() async throws {
        try await LiveServer.with { server in
            let email = uniqueEmail()
            try await AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore()).signUp(email: email, password: "correct horse battery", displayName: "F")
            let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("kit-\(UUID().uuidString)/tokens.json")
            let first = AtelierSession(baseURL: server.baseURL, tokenStore: FileTokenStore(url: url))
            try await first.signIn(email: email, password: "correct horse battery")
            let second = AtelierSession(baseURL: server.baseURL, tokenStore: FileTokenStore(url: url))
            #expect(try await second.client.getMe().ok.body.json.email == email)
            try await second.signOut()
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test("cursor pages iterate every item once")
    func paging() async throws {
        try await LiveServer.with { server in
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "P")
            for index in 0..<7 {
                server.clock.advance(by: 1)
                _ = try await session.client.registerDevice(path: .init(token: "fcm-registration-device-\(index)"), body: .json(.init(platform: .fcm))).ok
            }
            var tokens: [String] = []
            let pages = CursorPages<Components.Schemas.Device> { cursor in
                let page = try await session.client.listMyDevices(query: .init(limit: 3, cursor: cursor)).ok.body.json
                return (page.items, page.nextCursor)
            }
            for try await device in pages { tokens.append(device.token) }
            #expect(tokens == (0..<7).reversed().map { "fcm-registration-device-\($0)" })
        }
    }
}
