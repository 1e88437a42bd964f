import AtelierKit
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import Atelier

/// Stands between the SDK and the live server and spoils chosen answers: drops the connection
/// after the server has answered (so the work is done but the app never hears), or answers
/// itself with a busy status. Records every attempt and its `Idempotency-Key`.
final class FaultyTransport: ClientTransport, @unchecked Sendable {
    enum Fault: Sendable { case cutAfterServerAnswered, status(Int, retryAfter: String?) }

    struct Attempt: Sendable { var operationID: String; var key: String?; var at: ContinuousClock.Instant }

    private let inner = URLSessionAPITransport()
    private let lock = NSLock()
    private var faults: [String: [Fault]] = [:]
    private var log: [Attempt] = []

    /// The next calls of `operationID` meet these faults, in order; later calls go through.
    func inject(_ faults: [Fault], into operationID: String) { lock.withLock { self.faults[operationID, default: []] += faults } }

    func attempts(of operationID: String) -> [Attempt] { lock.withLock { log.filter { $0.operationID == operationID } } }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let fault = lock.withLock { () -> Fault? in
            log.append(.init(operationID: operationID, key: request.headerFields[HTTPField.Name("Idempotency-Key")!], at: .now))
            return faults[operationID]?.isEmpty == false ? faults[operationID]!.removeFirst() : nil
        }
        switch fault {
        case .cutAfterServerAnswered:
            let (_, answer) = try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
            if let answer { _ = try await [UInt8](collecting: answer, upTo: 1 << 20) }
            throw URLError(.networkConnectionLost)
        case .status(let code, let retryAfter):
            var response = HTTPResponse(status: .init(code: code))
            if let retryAfter { response.headerFields[.retryAfter] = retryAfter }
            response.headerFields[.contentType] = "application/problem+json"
            return (response, HTTPBody(#"{"type":"about:blank","title":"Busy","status":\#(code)}"#))
        case nil:
            return try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
        }
    }
}

@Suite("AtelierKit: a network that fails — retries with one key per call")
struct NetworkFaultTests {
    @Test("a board whose answer is lost after the server saved it is retried with the same key: one board")
    func lostAnswer() async throws {
        try await LiveServer.with { server in
            let transport = FaultyTransport()
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore(), transport: transport,
                                         retry: RetryPolicy(baseDelay: .milliseconds(10)))
            try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Kit Network")
            transport.inject([.cutAfterServerAnswered], into: "createBoard")
            let board = try await session.client.createBoard(body: .json(.init(name: "Lost and found"))).created.body.json
            let attempts = transport.attempts(of: "createBoard")
            #expect(attempts.count == 2 && attempts[0].key != nil && attempts[0].key == attempts[1].key, "two attempts, one key")
            let mine = try await session.client.listMyBoards().ok.body.json.items
            #expect(mine.map(\.id) == [board.id], "made once")
        }
    }

    @Test("a 503 and a 429 with Retry-After: 1 are tried again after at least a second; a 422 is not tried again")
    func busyAndRefused() async throws {
        try await LiveServer.with { server in
            let transport = FaultyTransport()
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore(), transport: transport,
                                         retry: RetryPolicy(baseDelay: .milliseconds(10)))
            let me = try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Kit Busy")
            for code in [503, 429] {
                transport.inject([.status(code, retryAfter: "1")], into: "getMe")
                let started = ContinuousClock.now
                #expect(try await session.client.getMe().ok.body.json.id == me.id)
                #expect(ContinuousClock.now - started >= .seconds(1), "\(code): waited for Retry-After")
            }
            #expect(transport.attempts(of: "getMe").count == 4)

            transport.inject([.status(422, retryAfter: "1")], into: "updateMe")
            let refused = try await session.client.updateMe(body: .json(.init(displayName: "Renamed")))
            guard case .unprocessableContent = refused else { Issue.record("expected the 422 itself, got \(refused)"); return }
            #expect(transport.attempts(of: "updateMe").count == 1, "a refusal is final")

            // A long Retry-After is not waited for; the answer goes back to the app.
            transport.inject([.status(503, retryAfter: "3600")], into: "getMe")
            guard case .undocumented(statusCode: 503, _) = try await session.client.getMe() else { Issue.record("expected the 503"); return }
        }
    }
}
