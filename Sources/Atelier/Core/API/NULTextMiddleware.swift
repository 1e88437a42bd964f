import Foundation
import Vapor

/// Refuses JSON bodies with a NUL character (`\u0000`) in any string, key or value, with a `422`
/// naming the field. PostgreSQL cannot store NUL in text and SQLite would keep it silently; no
/// person types one. One check for every operation, so no service has to remember it.
/// Runs after `JSONBodyLimitMiddleware`, which has collected the body.
struct NULTextMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        // Only a JSON body can name the field; a photo's or a form's bytes are not scanned.
        if let body = request.body.data, HTTPMediaType.mayBeJSON(request.headers.contentType),
            body.withUnsafeReadableBytes({ JSONNULScan.mayHoldNUL($0) }),
            let field = JSONNULScan.fieldHoldingNUL(Data(buffer: body))
        {
            throw Problem.invalid(field, "contains a NUL character")
        }
        return try await next.respond(to: request)
    }
}

enum JSONNULScan {
    private static let escape = Array(#"\u0000"#.utf8)

    /// JSON can carry NUL only as the escape `\u0000`, so bodies without those bytes (nearly all)
    /// are passed without parsing.
    static func mayHoldNUL<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        var matched = 0
        for byte in bytes {
            matched = byte == escape[matched] ? matched + 1 : (byte == escape[0] ? 1 : 0)
            if matched == escape.count { return true }
        }
        return false
    }

    /// The path of the first string holding NUL ("items[2].name"), or nil ("\\u0000" written as
    /// text is no NUL; a body that is not JSON is left to the decoder's own problem).
    static func fieldHoldingNUL(_ data: Data) -> String? {
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        return find(in: value, path: "")
    }

    private static func find(in value: Any, path: String) -> String? {
        switch value {
        case let text as String:
            return text.unicodeScalars.contains("\u{0}") ? (path.isEmpty ? "body" : path) : nil
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let child = path.isEmpty ? key : "\(path).\(key)"
                if key.unicodeScalars.contains("\u{0}") { return path.isEmpty ? "body" : path }
                if let found = find(in: object[key]!, path: child) { return found }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = find(in: element, path: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
