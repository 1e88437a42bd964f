import Foundation

/// Base64 with the URL-safe alphabet and no padding: opaque cursors in query strings, Web Push keys.
enum Base64URL {
    static func encode(_ text: String) -> String {
        encode(Data(text.utf8))
    }

    static func encode(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The decoded bytes, or nil when `raw` is longer than `maxLength` or not base64url.
    static func bytes(_ raw: String, maxLength: Int) -> Data? {
        guard raw.count <= maxLength else { return nil }
        var base64 = raw.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    /// The decoded text, or nil when `raw` is longer than `maxLength` or not base64url.
    static func decode(_ raw: String, maxLength: Int) -> String? {
        bytes(raw, maxLength: maxLength).map { String(decoding: $0, as: UTF8.self) }
    }
}
