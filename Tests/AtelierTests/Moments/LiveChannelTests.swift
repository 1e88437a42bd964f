import Foundation
import NIOConcurrencyHelpers
import Testing
import UUIDCasingCheck
import Vapor
import VaporTesting

@testable import Atelier

/// A WebSocket client of `/api/v1/live` for tests: every text message lands in a queue.
final class LiveTestClient: Sendable {
    let socket: WebSocket
    private let inbox: NIOLockedValueBox<[String]>

    private init(socket: WebSocket, inbox: NIOLockedValueBox<[String]>) {
        self.socket = socket
        self.inbox = inbox
    }

    static func connect(port: Int, token: String, on group: any EventLoopGroup) async throws -> LiveTestClient {
        let inbox = NIOLockedValueBox<[String]>([])
        var headers = HTTPHeaders()
        headers.bearerAuthorization = .init(token: token)
        // The upgrade callback may run after the connect future completes: wait for the socket itself.
        let socket: WebSocket = try await withCheckedThrowingContinuation { continuation in
            WebSocket.connect(to: "ws://127.0.0.1:\(port)/api/v1/live", headers: headers, on: group) { ws in
                ws.onText { _, text in inbox.withLockedValue { $0.append(text) } }
                continuation.resume(returning: ws)
            }.whenFailure { continuation.resume(throwing: $0) }
        }
        return LiveTestClient(socket: socket, inbox: inbox)
    }

    func send(_ text: String) async throws { try await socket.send(text) }

    /// The next message of `type` (others before it are dropped), or nil after `timeout` seconds.
    func next(_ type: String, event: String? = nil, timeout: TimeInterval = 1) async -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            while let text = inbox.withLockedValue({ $0.isEmpty ? nil : $0.removeFirst() }) {
                for id in UUIDCasing.upperCaseIDs(in: text) { Issue.record("The live channel sent the upper-case id \(id): \(text.prefix(300))") }
                guard let message = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { continue }
                if message["type"] as? String == type, event == nil || message["event"] as? String == event { return message }
            }
            try? await Task.sleep(nanoseconds: 10_000_000)
        } while Date() < deadline
        return nil
    }

    func close() async { try? await socket.close() }
}

@Suite("Moments: live updates over the WebSocket")
struct LiveChannelTests {
    @Test("two subscribed clients receive a photo posted by a third person within a second; an outsider's subscription is refused")
    func photoReachesSubscribers() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Host Ana"), ben = try await t.signUp(name: "Guest Ben")
            let cara = try await t.signUp(name: "Guest Cara"), sam = try await t.signUp(name: "Stranger Sam")
            try await t.befriend(ana, ben)
            try await t.befriend(ana, cara)
            let moment = try await t.createMoment(ana, startIn: -60, endIn: 3600)
            _ = try await t.invite([ben, cara], to: moment, by: ana)
            #expect(try await t.checkIn(moment, cara, at: TestPlace.north(10)).status == .ok)

            t.app.http.server.configuration.hostname = "127.0.0.1"
            t.app.http.server.configuration.port = 0
            try t.app.server.start()
            let port = try #require(t.app.http.server.shared.localAddress?.port)
            let group = t.app.eventLoopGroup
            let anaLive = try await LiveTestClient.connect(port: port, token: ana.accessToken, on: group)
            let benLive = try await LiveTestClient.connect(port: port, token: ben.accessToken, on: group)
            let samLive = try await LiveTestClient.connect(port: port, token: sam.accessToken, on: group)
            for client in [anaLive, benLive, samLive] {
                #expect(await client.next("ready") != nil)
                try await client.send(#"{"type":"subscribe","channel":"moment:\#(moment.id)"}"#)
            }
            #expect(await anaLive.next("subscribed")?["channel"] as? String == "moment:\(moment.id)")
            #expect(await benLive.next("subscribed") != nil)
            let refusal = await samLive.next("refused")
            #expect(refusal?["status"] as? Int == 404)

            let posted = Date()
            let photo = try await t.momentPhoto(moment, cara)
            for client in [anaLive, benLive] {
                let event = await client.next("event", event: "photo.created", timeout: 1)
                let data = event?["data"] as? [String: Any]
                #expect(data?["id"] as? String == photo.id)
                #expect((data?["photo"] as? [String: Any])?["variants"] != nil)
                #expect(Date().timeIntervalSince(posted) < 1.5)
            }
            #expect(await samLive.next("event", timeout: 0.3) == nil)

            // Faves and comments reach the album too.
            _ = try await t.send(.PUT, "/api/v1/moments/\(moment.id)/photos/\(photo.id)/fave", token: ben.accessToken)
            let fave = await anaLive.next("event", event: "fave.changed")
            #expect((fave?["data"] as? [String: Any])?["count"] as? Int == 1)

            // Once Ben blocks Cara, her next photo does not reach him (it still reaches Ana).
            #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(cara.user.id)", token: ben.accessToken).status.code < 300)
            let hidden = try await t.momentPhoto(moment, cara)
            #expect((await anaLive.next("event", event: "photo.created")?["data"] as? [String: Any])?["id"] as? String == hidden.id)
            #expect(await benLive.next("event", event: "photo.created", timeout: 0.5) == nil)


            // Without a token there is no socket: the upgrade is refused with 401.
            await #expect(throws: (any Error).self) {
                try await WebSocket.connect(to: "ws://127.0.0.1:\(port)/api/v1/live", on: group) { _ in }.get()
            }
            for client in [anaLive, benLive, samLive] { await client.close() }
            await t.app.server.shutdown()
        }
    }

    @Test("an invitation and a friend request reach the recipient's inbox channel")
    func inboxChannel() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Host Ana"), ben = try await t.signUp(name: "Guest Ben")
            try await t.befriend(ana, ben)
            let moment = try await t.createMoment(ana)
            t.app.http.server.configuration.hostname = "127.0.0.1"
            t.app.http.server.configuration.port = 0
            try t.app.server.start()
            let port = try #require(t.app.http.server.shared.localAddress?.port)
            let benLive = try await LiveTestClient.connect(port: port, token: ben.accessToken, on: t.app.eventLoopGroup)
            #expect(await benLive.next("ready") != nil)
            _ = try await t.invite([ben], to: moment, by: ana)
            let event = await benLive.next("event", event: "notification.created")
            #expect(event?["channel"] as? String == "inbox")
            #expect((event?["data"] as? [String: Any])?["kind"] as? String == "momentInvitation")
            // Social notices use the same channel: a friend request from someone new.
            let cara = try await t.signUp(name: "New Cara")
            _ = try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(ben.user.id)"}"#, token: cara.accessToken)
            let request = await benLive.next("event", event: "notification.created")
            #expect((request?["data"] as? [String: Any])?["kind"] as? String == "friendRequest")
            await benLive.close()
            await t.app.server.shutdown()
        }
    }
}

@Suite("Live sockets at shutdown")
struct LiveShutdownTests {
    @Test("shutdown closes open live sockets with 1012 (service restart) at once instead of waiting out the drain")
    func closedAtShutdown() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Ana")
            t.app.http.server.configuration.hostname = "127.0.0.1"
            t.app.http.server.configuration.port = 0
            try t.app.server.start()
            let port = try #require(t.app.http.server.shared.localAddress?.port)
            let live = try await LiveTestClient.connect(port: port, token: ana.accessToken, on: t.app.eventLoopGroup)
            #expect(await live.next("ready") != nil)
            #expect(t.app.atelier.liveSockets.count == 1)

            let started = Date()
            await RequestDrain.closingLiveSockets(of: t.app).shutdownAsync(t.app)  // what SIGTERM runs first
            #expect(Date().timeIntervalSince(started) < 5, "the drain waited for the live socket (SHUTDOWN_DRAIN_SECONDS is 10 here)")
            try await live.socket.onClose.get()
            #expect(live.socket.closeCode == LiveSocketRegistry.serviceRestart)
        }
    }
}
