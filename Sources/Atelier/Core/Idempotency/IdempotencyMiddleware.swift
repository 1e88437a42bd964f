import Crypto
import Fluent
import OpenAPIRuntime
import Vapor

/// `Idempotency-Key` on POST: the same key from the same caller within 24 hours returns the
/// stored first response and does the work once. Refusals (4xx problems such as "sold out" or
/// "the price changed") are stored too, so a retry never runs a request that was already answered
/// against a state that changed since; a new attempt takes a new key. Not stored, so a retry runs
/// again: 5xx, 401 (sign in and retry) and 429. A different request under a used key is a `422`;
/// a retry while the first is still running is a `409` with `Retry-After`, and a first request
/// that died without an answer (its process killed) frees its key after `abandonedAfter`.
struct IdempotencyMiddleware: AsyncMiddleware {
    static let lifetime: TimeInterval = 24 * 3600
    static let abandonedAfter: TimeInterval = 10 * 60
    static let inProgressType = "https://atelier.dev/problems/idempotency-in-progress"
    static let maxStoredBody = 1 << 20
    static let skippedHeaders: Set<String> = ["date", "connection", "content-length", "x-request-id"]

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.method == .POST, let key = request.headers.first(name: "Idempotency-Key") else {
            return try await next.respond(to: request)
        }
        guard !key.isEmpty, key.count <= 255 else {
            throw Problem.invalid("Idempotency-Key", "must be 1 to 255 characters")
        }
        let caller = await callerID(request)
        let requestHash = hash(request)
        let now = request.core.clock.now()

        if let existing = try await IdempotencyRecord.query(on: request.db)
            .filter(\.$caller == caller).filter(\.$key == key).first()
        {
            let age = now.timeIntervalSince(existing.createdAt)
            if age >= Self.lifetime || (existing.statusCode == nil && age >= Self.abandonedAfter) {
                try await Self.write(request) { try await existing.delete(on: $0) }
            } else {
                return try replay(existing, requestHash: requestHash)
            }
        }

        let record = IdempotencyRecord(caller: caller, key: key, requestHash: requestHash, now: now)
        do {
            try await Self.write(request) { try await record.create(on: $0) }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw Self.inProgress
        }

        var response: Response
        do {
            response = try await next.respond(to: request)
        } catch {
            guard let refusal = Self.refusal(in: error) else {
                try? await Self.write(request) { try await record.delete(on: $0) }
                throw error
            }
            response = refusal.response(instance: request.url.path)
        }
        guard response.status.code < 500, Self.storesRefusal(response.status) || response.status.code < 400,
            let body = try await response.body.collect(on: request.eventLoop).get().map({ Data(buffer: $0) })
                ?? Optional(Data()),
            body.count <= Self.maxStoredBody
        else {
            try? await Self.write(request) { try await record.delete(on: $0) }
            return response
        }
        response.body = .init(data: body)
        record.statusCode = Int(response.status.code)
        record.responseBody = body
        let headers = response.headers.filter { !Self.skippedHeaders.contains($0.name.lowercased()) }.map { [$0.name, $0.value] }
        record.responseHeaders = String(decoding: try JSONEncoder().encode(headers), as: UTF8.self)
        try await Self.write(request) { try await record.save(on: $0) }
        return response
    }

    private func replay(_ record: IdempotencyRecord, requestHash: String) throws -> Response {
        guard record.requestHash == requestHash else {
            throw Problem.invalid("Idempotency-Key", "was already used for a different request")
        }
        guard let status = record.statusCode else { throw Self.inProgress }
        var headers = HTTPHeaders()
        if let json = record.responseHeaders,
            let pairs = try? JSONDecoder().decode([[String]].self, from: Data(json.utf8))
        {
            for pair in pairs where pair.count == 2 { headers.add(name: pair[0], value: pair[1]) }
        }
        headers.replaceOrAdd(name: "Idempotent-Replayed", value: "true")
        return Response(status: .init(statusCode: status), headers: headers, body: .init(data: record.responseBody ?? Data()))
    }

    /// The record's writes take their turn with the other writes of this process (on SQLite a
    /// writer waiting outside the queue spins on a database thread, and enough of them starve the
    /// transaction holding the lock: seen as a hang with many concurrent checkouts).
    private static func write(_ request: Request, _ body: @escaping @Sendable (any Database) async throws -> Void) async throws {
        try await request.core.writeTransaction(on: request.db, body)
    }

    static let inProgress = Problem(
        .conflict, type: inProgressType, title: "Still being handled",
        detail: "A request with this Idempotency-Key is still being handled. Retry with the same key in a moment.",
        headers: [("Retry-After", "1")])

    /// The problem a handler answered with (the generated API wraps it in a `ServerError`), when it is kept.
    static func refusal(in error: any Error) -> Problem? {
        guard let problem = (error as? Problem) ?? ((error as? ServerError)?.underlyingError as? Problem), storesRefusal(problem.status) else {
            return nil
        }
        return problem
    }

    /// Which 4xx answers are kept for the key: all but those a retry with the same key should get past.
    static func storesRefusal(_ status: HTTPResponseStatus) -> Bool {
        (400..<500).contains(status.code) && status != .unauthorized && status != .tooManyRequests
    }

    private func callerID(_ request: Request) async -> String {
        // A web page's queued action (issue 53) comes with the session cookie, not a token.
        if let user = request.webSessionUser, let id = user.id { return "user:\(id.uuidString)" }
        if let bearer = request.headers.bearerAuthorization,
            let verified = await request.core.accessTokens.verify(bearer.token)
        {
            return "user:\(verified.userID.uuidString)"
        }
        return "ip:\(request.clientAddress)"
    }

    private func hash(_ request: Request) -> String {
        var hasher = SHA256()
        hasher.update(data: Data("\(request.method.rawValue) \(request.url.path)\n".utf8))
        if let body = request.body.data {
            hasher.update(data: Data(buffer: body))
        } else {
            hasher.update(data: Data((request.headers.first(name: .contentLength) ?? "").utf8))
        }
        return Hex.lowercase(hasher.finalize())
    }
}

extension Request {
    /// The client's address, for rate limits and anonymous idempotency: the peer's, or, when the
    /// peer is one of our load balancers (`TRUSTED_PROXIES`), the last address in
    /// `X-Forwarded-For` that is not one of them. From anyone else the header is ignored: anyone
    /// could send it.
    var clientAddress: String {
        let peer = remoteAddress?.ipAddress ?? "unknown"
        let proxies = core.config.trustedProxies
        // A proxy may append to the header or add a line of its own: all lines, in order, are one list.
        let forwarded = headers[.xForwardedFor].joined(separator: ",")
        guard !proxies.isEmpty, proxies.contains(peer), !forwarded.isEmpty else { return peer }
        let hops = forwarded.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !proxies.contains($0) } ?? hops.first ?? peer
    }
}
