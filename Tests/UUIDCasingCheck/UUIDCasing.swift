import Foundation
import Vapor

/// The suites' contract check of issue 23: ids leave the server in lower case (RFC 9562), so no
/// answer may write a UUID with an upper-case hex digit. Shared by the API suites (`TestApp`) and
/// the SDK suite (`LiveServer`); the contract fuzzer has the same check in Python.
public enum UUIDCasing {
    /// The UUID-shaped runs (8-4-4-4-12 hex digits, not part of a longer hex run) in `text` that
    /// have at least one of A–F in upper case. One made only of digits cannot be upper-case.
    public static func upperCaseIDs(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        var found: [String] = []
        var start = 0
        while start + 36 <= bytes.count {
            let end = start + 36
            guard isUUID(bytes[start..<end]), start == 0 || !isHex(bytes[start - 1]), end == bytes.count || !isHex(bytes[end]) else {
                start += 1
                continue
            }
            if bytes[start..<end].contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) }) {
                found.append(String(decoding: bytes[start..<end], as: UTF8.self))
            }
            start = end
        }
        return found
    }

    /// Bodies read as text: JSON, HTML, plain text, XML, JavaScript, YAML. Images, archives and
    /// PDFs are bytes and are skipped; a body without a type is read when it is UTF-8.
    public static func isText(contentType: String?) -> Bool {
        guard let type = contentType?.lowercased() else { return true }
        return type.hasPrefix("text/") || ["json", "xml", "javascript", "yaml", "x-www-form-urlencoded"].contains { type.contains($0) }
    }

    /// What an answer writes in upper case, in its headers (all but `Set-Cookie`, whose session
    /// value is opaque) and its text body. An id the request itself carried in that spelling is an
    /// echo (a problem's `instance`, a redirect back to the same path), not the server's spelling.
    public static func findings(headers: [(name: String, value: String)], body: String?, request: String) -> [String] {
        var found: [String] = []
        for (name, value) in headers where name.lowercased() != "set-cookie" {
            for id in upperCaseIDs(in: value) where !request.contains(id) { found.append("\(id) in the \(name) header") }
        }
        var seen = Set<String>()
        for id in upperCaseIDs(in: body ?? "") where !request.contains(id) && seen.insert(id).inserted {
            found.append("\(id) in the body")
        }
        return found
    }

    private static func isUUID(_ bytes: ArraySlice<UInt8>) -> Bool {
        for (offset, byte) in bytes.enumerated() {
            let isDash = offset == 8 || offset == 13 || offset == 18 || offset == 23
            guard isDash ? byte == UInt8(ascii: "-") : isHex(byte) else { return false }
        }
        return true
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}

/// Test-only, outermost: hands `report` one message per answer that writes an id in upper case,
/// naming the request and the id. Streamed text bodies are read whole (and kept for the client).
public struct UUIDCasingMiddleware: AsyncMiddleware {
    let report: @Sendable (String) -> Void

    public init(report: @escaping @Sendable (String) -> Void) {
        self.report = report
    }

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        var body: String?
        if response.status != .switchingProtocols, UUIDCasing.isText(contentType: response.headers.first(name: .contentType)) {
            let buffer: ByteBuffer?
            if let whole = response.body.buffer {
                buffer = whole
            } else {
                buffer = try await response.body.collect(on: request.eventLoop).get()
                if let buffer { response.body = .init(buffer: buffer) }
            }
            body = buffer.flatMap { String(data: Data($0.readableBytesView), encoding: .utf8) }
        }
        var asked = request.url.string
        for (name, value) in request.headers { asked += "\n\(name): \(value)" }
        // Echoes are looked for in text bodies only; a photo or a multipart upload is not read.
        // Decoding megabytes of invalid UTF-8 took minutes under the test runner, which records
        // backtraces for the errors thrown while repairing it.
        if let sent = request.body.data, UUIDCasing.isText(contentType: request.headers.first(name: .contentType)) {
            asked += "\n" + String(decoding: sent.readableBytesView, as: UTF8.self)
        }
        let headers = response.headers.map { (name: $0.name, value: $0.value) }
        for finding in UUIDCasing.findings(headers: headers, body: body, request: asked) {
            report("\(request.method.rawValue) \(request.url.string) answered \(response.status.code) with an upper-case id: \(finding)")
        }
        return response
    }
}
