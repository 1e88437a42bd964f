import AtelierKit
import Foundation
import OpenAPIRuntime
import Testing
import Vapor

@Suite("LiveEvents with a fake transport")
struct LiveEventsFakeTransportTests {
    static let momentID = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
    static let channel = "moment:6f9619ff-8b86-d011-b42d-00c04fc964ff"
    static let url = URL(string: "https://atelier.example/api/v1/live")!

    @Test("server messages decode into the right events")
    func decoding() async throws {
        let transport = FakeTransport()
        let log = EventLog(LiveEvents(
            url: Self.url, moments: [Self.momentID, Self.momentID.lowercased()], transport: transport,
            policy: .instant(Delays()), accessToken: { _ in "token-1" }))
        defer { log.cancel() }

        #expect(try await log.next() == .connectionStateChanged(.connected))
        #expect(try await log.next() == .subscribed(channel: Self.channel))
        let connection = try await transport.connection(0)
        #expect(connection.sent == [#"{"channel":"\#(Self.channel)","type":"subscribe"}"#])  // once, lowercase
        #expect(transport.requests.first?.url.absoluteString == "wss://atelier.example/api/v1/live")
        #expect(transport.requests.first?.headers == ["Authorization": "Bearer token-1"])

        connection.push(event("photo.created", data: Fixtures.photoJSON))
        guard case .photoAdded(let momentID, let photo) = try await log.next() else { throw Unexpected("photoAdded") }
        #expect(momentID == Self.momentID.lowercased())
        #expect(photo.id == "0193a1f0-0000-7000-8000-000000000001")
        #expect(photo.author.displayName == "Ada")
        #expect(photo.createdAt == Date(timeIntervalSince1970: 1_750_000_000))
        #expect(photo.photo.variants.first?.format == .jpeg)

        connection.push(event("photo.deleted", data: #"{"photoId":"p-1"}"#))
        #expect(try await log.next() == .photoDeleted(momentID: Self.momentID.lowercased(), photoID: "p-1"))
        connection.push(event("comment.created", data: Fixtures.commentJSON))
        guard case .commentAdded(_, let comment) = try await log.next() else { throw Unexpected("commentAdded") }
        #expect(comment.body == "Lovely light" && comment.photoId == nil)
        connection.push(event("fave.changed", data: #"{"count":3,"targetId":"t-1"}"#))
        #expect(try await log.next() == .favesChanged(momentID: Self.momentID.lowercased(), targetID: "t-1", count: 3))
        connection.push(event("notification.created", channel: "inbox", data: #"{"momentId":"m-1"}"#))
        #expect(try await log.next() == .notification(momentID: "m-1"))
        connection.push(#"{"channel":"moment:nope","detail":"No such channel.","status":404,"type":"refused"}"#)
        #expect(try await log.next() == .subscriptionRefused(channel: "moment:nope", status: 404, detail: "No such channel."))
        // Chatter and junk are skipped; new event names come through as unknown.
        connection.push(#"{"type":"pong"}"#)
        connection.push("not json")
        connection.push(event("photo.rotated", data: #"{"b":[1,2],"a":true}"#))
        #expect(try await log.next() == .unknown(event: "photo.rotated", channel: Self.channel, data: Data(#"{"a":true,"b":[1,2]}"#.utf8)))
        connection.push(event("photo.created", data: #"{"id":"half a photo"}"#))
        guard case .unknown(event: "photo.created", _, _) = try await log.next() else { throw Unexpected("unknown") }
    }

    @Test("a dropped connection is reopened and resubscribed, with growing delays reset by success")
    func reconnects() async throws {
        let delays = Delays()
        let transport = FakeTransport(plans: [.accept, .fail, .fail, .fail, .accept, .accept])
        let tokens = Calls()
        let log = EventLog(LiveEvents(url: Self.url, moments: [Self.momentID], transport: transport, policy: .instant(delays)) { rejected in
            "token-\(tokens.record(rejected))"
        })
        defer { log.cancel() }

        _ = try await log.next { $0 == .subscribed(channel: Self.channel) }
        try await transport.connection(0).drop()
        // The drop and three failed connects wait 0.5 s, 1 s, 2 s, 4 s; the fifth connect works.
        for (attempt, seconds) in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 4.0)] {
            #expect(try await log.next() == .connectionStateChanged(.reconnecting(attempt: attempt, delay: .seconds(seconds))))
        }
        #expect(try await log.next() == .connectionStateChanged(.connected))
        #expect(try await log.next() == .subscribed(channel: Self.channel))
        let second = try await transport.connection(1)
        #expect(second.sent == [#"{"channel":"\#(Self.channel)","type":"subscribe"}"#])
        second.push(event("photo.deleted", data: #"{"photoId":"p-2"}"#))
        #expect(try await log.next() == .photoDeleted(momentID: Self.momentID.lowercased(), photoID: "p-2"))
        #expect(delays.all == [.seconds(0.5), .seconds(1), .seconds(2), .seconds(4)])
        #expect(transport.requests.map(\.headers["Authorization"]) == (1...5).map { "Bearer token-\($0)" })
        #expect(tokens.all == [nil, nil, nil, nil, nil])  // a token is asked for on every connect

        // After a working connection the backoff starts over.
        second.drop()
        #expect(try await log.next() == .connectionStateChanged(.reconnecting(attempt: 1, delay: .seconds(0.5))))
        #expect(try await log.next() == .connectionStateChanged(.connected))
    }

    @Test("cancelling the consuming task closes the socket and ends the sequence")
    func cancellation() async throws {
        let transport = FakeTransport()
        let log = EventLog(LiveEvents(url: Self.url, moments: [Self.momentID], transport: transport, policy: .instant(Delays())) { _ in "t" })
        _ = try await log.next { $0 == .subscribed(channel: Self.channel) }
        let connection = try await transport.connection(0)
        log.cancel()
        try await eventually("the socket is closed") { connection.closedByClient }
        try await eventually("the sequence ended") { log.ended }
        #expect(log.error == nil)
        #expect(transport.requests.count == 1)
    }

    @Test("a 401 gets one refreshed token; a second 401 ends the sequence with the error")
    func unauthorized() async throws {
        let transport = FakeTransport(plans: [.reject(401), .reject(401), .accept])
        let tokens = Calls()
        let log = EventLog(LiveEvents(url: Self.url, moments: [], transport: transport, policy: .instant(Delays())) { rejected in
            "token-\(tokens.record(rejected))"
        })
        try await eventually("the sequence ended") { log.ended }
        #expect(log.error as? LiveTransportError == .rejected(status: 401))
        #expect(tokens.all == [nil, "token-1"])
        #expect(transport.requests.count == 2)
        #expect(log.events.isEmpty)
    }

    @Test("a silent connection is closed by the keep-alive ping and reopened")
    func keepAlive() async throws {
        let transport = FakeTransport(plans: [.silent, .accept])
        var policy = LiveReconnectPolicy.instant(Delays())
        policy.pingInterval = .milliseconds(100)
        let log = EventLog(LiveEvents(url: Self.url, moments: [], transport: transport, policy: policy) { _ in "t" })
        defer { log.cancel() }
        #expect(try await log.next() == .connectionStateChanged(.connected))  // "ready", then silence
        #expect(try await log.next() == .connectionStateChanged(.reconnecting(attempt: 1, delay: .seconds(0.5))))
        #expect(try await log.next() == .connectionStateChanged(.connected))
        let silent = try await transport.connection(0)
        #expect(silent.closedByClient)
        #expect(silent.sent.contains(#"{"type":"ping"}"#))
    }

    @Test("backoff delays double up to the maximum, jitter only shortens them")
    func backoff() {
        let policy = LiveReconnectPolicy()
        #expect((1...8).map { policy.delay(forAttempt: $0, random: 0) } == [0.5, 1, 2, 4, 8, 16, 30, 30].map { .seconds($0) })
        #expect(policy.delay(forAttempt: 3, random: 0.999) > .seconds(1.6))
        #expect(policy.delay(forAttempt: 3, random: 0.999) < .seconds(2))
        #expect(policy.delay(forAttempt: 1000, random: 0) == .seconds(30))
    }

    private func event(_ name: String, channel: String = Self.channel, data: String) -> String {
        #"{"channel":"\#(channel)","data":\#(data),"event":"\#(name)","type":"event"}"#
    }
}

@Suite("LiveEvents against a live server")
struct LiveEventsServerTests {
    @Test("photos posted to a public moment arrive, also after the connection was dropped")
    func photosArrive() async throws {
        try await LiveServer.with { server in
            let alice = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await alice.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Alice")
            let bob = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await bob.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Bob")
            let now = Date()
            let moment = try await alice.client.createMoment(body: .json(.init(
                name: "Kit party", startsAt: now - 3600, endsAt: now + 3600,
                place: .init(name: "Here", lat: 44.4, lng: 26.1, radiusMeters: 100), visibility: ._public))).created.body.json
            let hidden = UUID().uuidString.lowercased()

            let transport = WebSocketKitTransport(eventLoopGroup: server.app.eventLoopGroup)
            let log = EventLog(bob.liveEvents(
                moments: [moment.id, hidden], transport: transport, policy: .init(initialDelay: .milliseconds(50))))
            defer { log.cancel() }
            // The server answers the two subscribes in either order.
            try await eventually("subscribed and refused") {
                log.events.contains(.subscribed(channel: "moment:\(moment.id.lowercased())"))
                    && log.events.contains(.subscriptionRefused(
                        channel: "moment:\(hidden)", status: 404, detail: "No such channel, or you may not see it."))
            }

            let first = try await postPhoto(by: alice, to: moment.id)
            guard case .photoAdded(let momentID, let photo) = try await log.next(where: { $0.photoID == first }) else {
                throw Unexpected("photoAdded")
            }
            #expect(momentID == moment.id.lowercased())
            #expect(photo.author.displayName == "Alice")
            #expect(!photo.canDelete)

            // Drop the socket under the stream: it reconnects, resubscribes and keeps delivering.
            try #require(transport.connections.first).close()
            guard case .connectionStateChanged(.reconnecting(attempt: 1, _)) = try await log.next() else { throw Unexpected("reconnecting") }
            _ = try await log.next { $0 == .connectionStateChanged(.connected) }
            _ = try await log.next { $0 == .subscribed(channel: "moment:\(moment.id.lowercased())") }
            let second = try await postPhoto(by: alice, to: moment.id)
            _ = try await log.next { $0.photoID == second }
            #expect(transport.connections.count == 2)

            log.cancel()
            let last = try #require(transport.connections.last)
            try await eventually("the socket is closed") { last.isClosed }
            try await eventually("the sequence ended") { log.ended }
        }
    }

    @Test("a session the server does not accept ends the sequence as signed out")
    func signedOut() async throws {
        try await LiveServer.with { server in
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore(StoredTokens(
                accessToken: "not-a-token", refreshToken: "not-a-token", accessTokenExpiresAt: Date() + 900)))
            let transport = WebSocketKitTransport(eventLoopGroup: server.app.eventLoopGroup)
            let log = EventLog(session.liveEvents(moments: [], transport: transport, policy: .init(initialDelay: .milliseconds(50))))
            try await eventually("the sequence ended") { log.ended }
            #expect(log.error as? AtelierError == .signedOut)
            #expect(await session.isSignedIn == false)
        }
    }

    @Test("photos posted while the connection was down for 10 s arrive after the reconnect, once each, in order; then live ones again")
    func missedEventsReplayed() async throws {
        try await LiveServer.with { server in
            let alice = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await alice.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Alice")
            let bob = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await bob.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Bob")
            let now = Date()
            let moment = try await alice.client.createMoment(body: .json(.init(
                name: "Replay party", startsAt: now - 3600, endsAt: now + 3600,
                place: .init(name: "Here", lat: 44.4, lng: 26.1, radiusMeters: 100), visibility: ._public))).created.body.json
            let channel = "moment:\(moment.id.lowercased())"
            let transport = WebSocketKitTransport(eventLoopGroup: server.app.eventLoopGroup)
            // Ten seconds away before each reconnect.
            let policy = LiveReconnectPolicy(initialDelay: .seconds(10), jitter: 0, pingInterval: nil, sleep: { try await Task.sleep(for: $0) })
            let log = EventLog(bob.liveEvents(moments: [moment.id], transport: transport, policy: policy))
            defer { log.cancel() }
            _ = try await log.next { $0 == .subscribed(channel: channel) }
            let first = try await postPhoto(by: alice, to: moment.id)
            _ = try await log.next { $0.photoID == first }

            try #require(transport.connections.first).close()
            _ = try await log.next { if case .connectionStateChanged(.reconnecting(attempt: 1, let delay)) = $0 { delay == .seconds(10) } else { false } }
            var missed: [String] = []
            for _ in 0..<3 { missed.append(try await postPhoto(by: alice, to: moment.id)) }

            _ = try await log.next { $0 == .connectionStateChanged(.connected) }
            for id in missed { _ = try await log.next { $0.photoID == id } }
            let live = try await postPhoto(by: alice, to: moment.id)
            _ = try await log.next { $0.photoID == live }
            let photos = log.events.compactMap(\.photoID)
            #expect(photos == [first] + missed + [live], "once each, in order: \(photos)")
            #expect(!log.events.contains(.replayIncomplete(channel: channel)))
            #expect(transport.connections.count == 2)
        }
    }

    private func postPhoto(by session: AtelierSession, to momentID: String) async throws -> String {
        let media = try await session.client.uploadMedia(body: .png(HTTPBody(TinyPNG.make(width: 80, height: 80)))).created.body.json
        return try await session.client.postMomentPhoto(path: .init(momentId: momentID), body: .json(.init(mediaId: media.id)))
            .created.body.json.id
    }
}
