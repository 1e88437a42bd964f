import AtelierKit
import FakeProviders
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import Atelier

/// Counts the answers by status, to tell a refresh made before a call from one made after its 401.
final class StatusCountingTransport: ClientTransport, @unchecked Sendable {
    private let inner = URLSessionAPITransport()
    private let lock = NSLock()
    private var statuses: [Int] = []

    var unauthorizedCount: Int { lock.withLock { statuses.filter { $0 == 401 }.count } }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
        lock.withLock { statuses.append(response.status.code) }
        return (response, responseBody)
    }
}

@Suite("AtelierKit: sessions that last — the default store, authState, refresh before expiry, social sign-in, password change")
struct SessionLifecycleTests {
    /// The states a stream has yielded so far, read while it keeps listening.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [AuthState] = []
        var states: [AuthState] { lock.withLock { seen } }
        func add(_ state: AuthState) { lock.withLock { seen.append(state) } }

        static func listening(to session: AtelierSession) async -> (Recorder, Task<Void, Never>) {
            let recorder = Recorder()
            let stream = await session.authState
            let task = Task { for await state in stream { recorder.add(state) } }
            return (recorder, task)
        }

        func waitFor(_ count: Int) async {
            for _ in 0..<200 where states.count < count { try? await Task.sleep(for: .milliseconds(10)) }
        }
    }

    @Test("signed in → refreshing → signed in just before the token expires: 20 concurrent calls make one refresh, and none is sent with a dying token")
    func refreshBeforeExpiry() async throws {
        try await LiveServer.with { server in
            let transport = StatusCountingTransport()
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore(), transport: transport, now: { server.clock.now() })
            let me = try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Kit Expiry")
            let (recorder, listening) = await Recorder.listening(to: session)
            await recorder.waitFor(1)
            #expect(recorder.states == [.signedIn(me: me)])

            server.clock.advance(by: 14 * 60 + 30)  // 30 s before the 15-minute access token ends
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { try await session.client.getMe().ok.body.json.id } }
                for try await id in group { #expect(id == me.id) }
            }
            #expect(await session.refreshCount == 1)
            #expect(transport.unauthorizedCount == 0, "refreshed before sending, not after a 401")
            await recorder.waitFor(3)
            #expect(recorder.states.count == 3 && recorder.states[1] == .refreshing)
            if case .signedIn(let after)? = recorder.states.last { #expect(after?.id == me.id) } else { Issue.record("\(recorder.states)") }

            try await session.signOut()
            await recorder.waitFor(4)
            #expect(recorder.states.last == .signedOut)
            listening.cancel()
        }
    }

    @Test("the server ending the session (a revoked refresh token) reads as expired, not as signed out by the person")
    func expired() async throws {
        try await LiveServer.with { server in
            let store = InMemoryTokenStore()
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: store, now: { server.clock.now() })
            try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Kit Ended")
            let thief = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore(try #require(await store.load())), now: { server.clock.now() })
            server.clock.advance(by: 16 * 60)
            _ = try await thief.client.getMe().ok
            guard case .unauthorized = try await session.client.getMe() else { Issue.record("expected 401"); return }
            var states = await session.authState.makeAsyncIterator()
            #expect(await states.next() == .expired)
        }
    }

    @Test("by default the tokens outlive the session object: a file readable by the user only; sign-out removes it")
    func defaultStore() async throws {
        try await LiveServer.with { server in
            let file = FileTokenStore.defaultURL(for: server.baseURL)
            defer { try? FileManager.default.removeItem(at: file) }
            let first = AtelierSession(baseURL: server.baseURL)
            let me = try await first.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Kit Default")
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            // The app restarts: a new session object finds the person signed in, and says who before any call.
            let restarted = AtelierSession(baseURL: server.baseURL)
            var states = await restarted.authState.makeAsyncIterator()
            #expect(await states.next() == .signedIn(me: me))
            #expect(try await restarted.client.getMe().ok.body.json.id == me.id)
            try await restarted.signOut()
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(await AtelierSession(baseURL: server.baseURL).isSignedIn == false)
        }
    }

    @Test("a social sign-in leaves the session signed in; a password change keeps it signed in while the old tokens stop working")
    func socialAndPasswordChange() async throws {
        let provider = await FakeProvider.make()
        try await LiveServer.with(adjust: {
            $0.google.clientIDs = [FakeProvider.clientID]
            $0.google.jwks = provider.jwks
        }) { server in
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            let token = try await provider.token(subject: UUID().uuidString, email: uniqueEmail(), verified: true, now: server.clock.now())
            let me = try await session.signIn(provider: .google, idToken: token)
            #expect(await session.isSignedIn)
            #expect(try await session.client.getMe().ok.body.json.id == me.id)
            await #expect { try await session.signIn(provider: .google, idToken: "x.y.z") } throws: { error in
                guard case AtelierError.rejected(let problem) = error else { return false }; let status = problem.status
                return status == 401
            }
            #expect(await session.isSignedIn, "a refused sign-in leaves the session as it was")

            let email = uniqueEmail()
            let store = InMemoryTokenStore()
            let person = AtelierSession(baseURL: server.baseURL, tokenStore: store)
            try await person.signUp(email: email, password: "correct horse battery", displayName: "Kit Password")
            let before = try #require(await store.load())
            await #expect { try await person.changePassword(current: "wrong horse", new: "battery staple horse") } throws: { error in
                guard case AtelierError.rejected(let problem) = error, problem.status == 422 else { return false }; let fields = problem.fields
                return fields == ["currentPassword"]
            }
            try await person.changePassword(current: "correct horse battery", new: "battery staple horse")
            #expect(try await person.client.getMe().ok.body.json.email == email, "still signed in, with the new tokens")
            let old = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore(before))
            guard case .unauthorized = try await old.client.getMe() else { Issue.record("the tokens from before the change must be dead"); return }
        }
    }

    @Test("sign out everywhere: the other phone's tokens stop working at once, and this session is signed out")
    func signOutEverywhere() async throws {
        try await LiveServer.with { server in
            let email = uniqueEmail()
            let phone = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await phone.signUp(email: email, password: "correct horse battery", displayName: "Kit Everywhere")
            let tablet = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await tablet.signIn(email: email, password: "correct horse battery")
            #expect(try await tablet.account.getMe().email == email)

            server.clock.advance(by: 1)
            try await phone.signOut(everywhere: true)
            #expect(await phone.isSignedIn == false)
            await #expect(throws: AtelierError.signedOut) { try await tablet.account.getMe() }
            var states = await tablet.authState.makeAsyncIterator()
            #expect(await states.next() == .expired, "the tablet learns the server ended its session")
        }
    }
}
