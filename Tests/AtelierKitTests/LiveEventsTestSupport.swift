import AtelierKit
import Foundation
import OpenAPIRuntime
import Testing
import UUIDCasingCheck
import Vapor

/// Transports and helpers of the LiveEvents tests: a WebSocketKit transport for the real
/// server, an in-memory fake whose drops and replies a test scripts, and small waiting aids.
// MARK: - Test transports

/// LiveTransport on WebSocketKit (what Vapor uses), since Linux's URLSession cannot do WebSockets.
final class WebSocketKitTransport: LiveTransport, @unchecked Sendable {
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

final class WebSocketKitConnection: LiveTransportConnection, @unchecked Sendable {
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

    /// What the real server sent; like its HTTP answers, checked for ids in upper case (issue 23).
    func receive() async throws -> String? {
        let text = await inbox.next()
        for id in UUIDCasing.upperCaseIDs(in: text ?? "") {
            Issue.record("The live channel sent the upper-case id \(id): \(text?.prefix(300) ?? "")")
        }
        return text
    }

    func close() {
        _ = socket.value?.close(code: .goingAway)
    }
}

/// Scripted connections: each connect takes the next plan (accept when none are left).
final class FakeTransport: LiveTransport, @unchecked Sendable {
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
    var isAccept: Bool { if case .accept = self { true } else { false } }
}

/// A server in memory: says ready, and (unless silent) answers subscribe and ping.
final class FakeConnection: LiveTransportConnection, @unchecked Sendable {
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
final class Inbox: @unchecked Sendable {
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
final class EventLog: @unchecked Sendable {
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

func eventually(_ what: @autoclosure () -> String, timeout: Duration = .seconds(60), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw Unexpected("timed out waiting until \(what())") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

struct Unexpected: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Backoff delays asked for, without waiting.
final class Delays: @unchecked Sendable {
    private let recorded = Locked<[Duration]>([])
    var all: [Duration] { recorded.value }
    func record(_ delay: Duration) { recorded.mutate { $0.append(delay) } }
}

/// The `rejected` argument of each token request; returns the call's number.
final class Calls: @unchecked Sendable {
    private let recorded = Locked<[String?]>([])
    var all: [String?] { recorded.value }
    func record(_ rejected: String?) -> Int { recorded.mutate { $0.append(rejected); return $0.count } }
}

extension LiveReconnectPolicy {
    /// No jitter, no ping, and sleeps that only record.
    static func instant(_ delays: Delays) -> Self {
        .init(jitter: 0, pingInterval: nil) { delays.record($0) }
    }
}

extension LiveEvent {
    var photoID: String? {
        if case .photoAdded(_, let photo) = self { photo.id } else { nil }
    }
}

final class Locked<Value>: @unchecked Sendable {
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

enum Fixtures {
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
enum TinyPNG {
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
