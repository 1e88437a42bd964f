import AtelierAPI
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
            let alice = AtelierSession(baseURL: server.baseURL)
            try await alice.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Alice")
            let bob = AtelierSession(baseURL: server.baseURL)
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

    private func postPhoto(by session: AtelierSession, to momentID: String) async throws -> String {
        let media = try await session.client.uploadMedia(body: .png(HTTPBody(TinyPNG.make(width: 80, height: 80)))).created.body.json
        return try await session.client.postMomentPhoto(path: .init(momentId: momentID), body: .json(.init(mediaId: media.id)))
            .created.body.json.id
    }
}

// MARK: - Test transports

/// LiveTransport on WebSocketKit (what Vapor uses), since Linux's URLSession cannot do WebSockets.
private final class WebSocketKitTransport: LiveTransport, @unchecked Sendable {
    let eventLoopGroup: any EventLoopGroup
    private let opened = Locked<[WebSocketKitConnection]>([])
    var connections: [WebSocketKitConnection] { opened.value }

    init(eventLoopGroup: any EventLoopGroup) {
        self.eventLoopGroup = eventLoopGroup
    }

    func connect(url: URL, headers: [String: String]) async throws -> any LiveTransportConnection {
        let connection = WebSocketKitConnection()
        // The connect future may complete before `onUpgrade` ran: wait for both.
        let attached = eventLoopGroup.any().makePromise(of: Void.self)
        do {
            try await WebSocket.connect(to: url.absoluteString, headers: HTTPHeaders(headers.map { ($0, $1) }), on: eventLoopGroup) { socket in
                connection.attach(socket)  // on the event loop, before any message is read
                attached.succeed(())
            }.get()
        } catch WebSocketClient.Error.invalidResponseStatus(let head) {
            attached.fail(LiveTransportError.rejected(status: Int(head.status.code)))
            throw LiveTransportError.rejected(status: Int(head.status.code))
        } catch {
            attached.fail(error)
            throw error
        }
        try await attached.futureResult.get()
        opened.mutate { $0.append(connection) }
        return connection
    }
}

private final class WebSocketKitConnection: LiveTransportConnection, @unchecked Sendable {
    private let socket = Locked<WebSocket?>(nil)
    private let inbox = Inbox()

    var isClosed: Bool { socket.value?.isClosed ?? true }

    func attach(_ socket: WebSocket) {
        self.socket.value = socket
        // The synchronous callback: the async one defers and reorders messages.
        let received: @Sendable (WebSocket, String) -> Void = { [inbox] _, text in inbox.push(text) }
        socket.onText(received)
        socket.onClose.whenComplete { [inbox] _ in inbox.finish() }
    }

    func send(_ text: String) async throws {
        guard let socket = socket.value else { throw LiveTransportError.unsupported("not connected") }
        try await socket.send(text)
    }

    func receive() async throws -> String? { await inbox.next() }

    func close() {
        _ = socket.value?.close(code: .goingAway)
    }
}

/// Scripted connections: each connect takes the next plan (accept when none are left).
private final class FakeTransport: LiveTransport, @unchecked Sendable {
    enum Plan { case accept, silent, fail, reject(Int) }
    struct Request { var url: URL; var headers: [String: String] }

    private let state: Locked<(plans: [Plan], requests: [Request], connections: [FakeConnection])>

    init(plans: [Plan] = []) {
        state = Locked((plans, [], []))
    }

    var requests: [Request] { state.value.requests }

    func connect(url: URL, headers: [String: String]) async throws -> any LiveTransportConnection {
        let plan = state.mutate { state -> Plan in
            state.requests.append(Request(url: url, headers: headers))
            return state.plans.isEmpty ? .accept : state.plans.removeFirst()
        }
        switch plan {
        case .fail: throw URLError(.cannotConnectToHost)
        case .reject(let status): throw LiveTransportError.rejected(status: status)
        case .accept, .silent:
            let connection = FakeConnection(answers: plan.isAccept)
            state.mutate { $0.connections.append(connection) }
            return connection
        }
    }

    func connection(_ index: Int) async throws -> FakeConnection {
        try await eventually("connection \(index) is opened") { self.state.value.connections.count > index }
        return state.value.connections[index]
    }
}

extension FakeTransport.Plan {
    fileprivate var isAccept: Bool { if case .accept = self { true } else { false } }
}

/// A server in memory: says ready, and (unless silent) answers subscribe and ping.
private final class FakeConnection: LiveTransportConnection, @unchecked Sendable {
    private let answers: Bool
    private let inbox = Inbox()
    private let log = Locked<(sent: [String], closedByClient: Bool)>(([], false))

    init(answers: Bool) {
        self.answers = answers
        inbox.push(#"{"channels":["inbox"],"type":"ready"}"#)
    }

    var sent: [String] { log.value.sent }
    var closedByClient: Bool { log.value.closedByClient }

    func send(_ text: String) async throws {
        log.mutate { $0.sent.append(text) }
        guard answers, let command = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else { return }
        switch command["type"] {
        case "subscribe": push(#"{"channel":"\#(command["channel"] ?? "")","type":"subscribed"}"#)
        case "ping": push(#"{"type":"pong"}"#)
        default: break
        }
    }

    func receive() async throws -> String? { await inbox.next() }

    func push(_ text: String) { inbox.push(text) }

    /// The server goes away.
    func drop() { inbox.finish() }

    func close() {
        log.mutate { $0.closedByClient = true }
        inbox.finish()
    }
}

/// Text messages waiting for `receive()`; nil once finished.
private final class Inbox: @unchecked Sendable {
    private let state = Locked<(queue: [String], finished: Bool, waiter: CheckedContinuation<String?, Never>?)>(([], false, nil))

    func push(_ text: String) {
        let waiter = state.mutate { state -> CheckedContinuation<String?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.queue.append(text)
            return nil
        }
        waiter?.resume(returning: text)
    }

    func finish() {
        let waiter = state.mutate { state -> CheckedContinuation<String?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    func next() async -> String? {
        await withCheckedContinuation { continuation in
            let ready = state.mutate { state -> String?? in
                if !state.queue.isEmpty { return .some(state.queue.removeFirst()) }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

// MARK: - Helpers

/// Iterates a sequence in its own task and keeps what arrives, for tests to wait on in order.
private final class EventLog: @unchecked Sendable {
    private let state = Locked<(events: [LiveEvent], read: Int, ended: Bool, error: (any Error)?)>(([], 0, false, nil))
    private var task: Task<Void, Never>?

    init(_ events: LiveEvents) {
        task = Task { [state] in
            do {
                for try await event in events { state.mutate { $0.events.append(event) } }
                state.mutate { $0.ended = true }
            } catch {
                state.mutate { $0.ended = true; $0.error = error }
            }
        }
    }

    var events: [LiveEvent] { state.value.events }
    var ended: Bool { state.value.ended }
    var error: (any Error)? { state.value.error }

    func cancel() { task?.cancel() }

    /// The next event not read yet that matches; those before it are skipped.
    func next(where matches: @escaping (LiveEvent) -> Bool = { _ in true }) async throws -> LiveEvent {
        var found: LiveEvent?
        try await eventually("an event arrives; so far \(state.value.events)") {
            self.state.mutate { state in
                guard let index = state.events[state.read...].firstIndex(where: matches) else { return false }
                found = state.events[index]
                state.read = index + 1
                return true
            }
        }
        return found!
    }
}

private func eventually(_ what: @autoclosure () -> String, timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw Unexpected("timed out waiting until \(what())") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

private struct Unexpected: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Backoff delays asked for, without waiting.
private final class Delays: @unchecked Sendable {
    private let recorded = Locked<[Duration]>([])
    var all: [Duration] { recorded.value }
    func record(_ delay: Duration) { recorded.mutate { $0.append(delay) } }
}

/// The `rejected` argument of each token request; returns the call's number.
private final class Calls: @unchecked Sendable {
    private let recorded = Locked<[String?]>([])
    var all: [String?] { recorded.value }
    func record(_ rejected: String?) -> Int { recorded.mutate { $0.append(rejected); return $0.count } }
}

extension LiveReconnectPolicy {
    /// No jitter, no ping, and sleeps that only record.
    fileprivate static func instant(_ delays: Delays) -> Self {
        .init(jitter: 0, pingInterval: nil) { delays.record($0) }
    }
}

extension LiveEvent {
    fileprivate var photoID: String? {
        if case .photoAdded(_, let photo) = self { photo.id } else { nil }
    }
}

private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { mutate { $0 } }
        set { mutate { $0 = newValue } }
    }

    func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}

private enum Fixtures {
    static let author = #"{"displayName":"Ada","id":"0193a1f0-0000-7000-8000-0000000000aa","relationship":"none","username":"ada"}"#
    static let photoJSON = """
        {"author":\(author),"canDelete":false,"caption":"","commentCount":0,"createdAt":"2025-06-15T15:06:40Z",\
        "faves":{"count":0,"mine":false},"id":"0193a1f0-0000-7000-8000-000000000001","isCover":false,\
        "momentId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","photo":{"dominantColor":"#808080","height":400,\
        "id":"0193a1f0-0000-7000-8000-0000000000bb","placeholder":"data:image/jpeg;base64,","variants":\
        [{"format":"jpeg","height":400,"url":"https://atelier.example/m/1.jpg","width":320}],"width":320}}
        """
    static let commentJSON = """
        {"author":\(author),"body":"Lovely light","canDelete":false,"createdAt":"2025-06-15T15:06:40.250Z",\
        "id":"0193a1f0-0000-7000-8000-000000000002","momentId":"6f9619ff-8b86-d011-b42d-00c04fc964ff"}
        """
}

/// A PNG made without an image library: RGB rows, stored (uncompressed) deflate blocks.
private enum TinyPNG {
    static func make(width: Int, height: Int) -> Data {
        var pixels: [UInt8] = []
        for y in 0..<height {
            pixels.append(0)  // filter: none
            for x in 0..<width { pixels += [UInt8(x * 255 / width), UInt8(y * 255 / height), 160] }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        while offset < pixels.count {
            let count = min(65_535, pixels.count - offset)
            zlib.append(offset + count == pixels.count ? 1 : 0)
            zlib += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += pixels[offset..<offset + count]
            offset += count
        }
        zlib += bigEndian(adler32(pixels))
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return Data(signature + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    private static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + payload
        return bigEndian(UInt32(payload.count)) + body + bigEndian(crc32(body))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
