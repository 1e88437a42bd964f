import Crypto
import Foundation

/// AWS Signature Version 4 for S3 requests (header form, unsigned payload).
struct SigV4 {
    let accessKeyID: String
    let secretAccessKey: String
    let region: String
    let service = "s3"

    /// Headers to add: `x-amz-date`, `x-amz-content-sha256` and `authorization`.
    func sign(method: String, url: URL, headers: [String: String], date: Date) -> [String: String] {
        let amzDate = Self.format(date, "yyyyMMdd'T'HHmmss'Z'")
        let day = String(amzDate.prefix(8))
        var all = headers.reduce(into: [String: String]()) { $0[$1.key.lowercased()] = $1.value.trimmingCharacters(in: .whitespaces) }
        all["host"] = url.port.map { "\(url.host ?? ""):\($0)" } ?? (url.host ?? "")
        all["x-amz-date"] = amzDate
        all["x-amz-content-sha256"] = "UNSIGNED-PAYLOAD"
        let names = all.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(all[$0]!)\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let canonicalRequest = [
            method, Self.encodePath(url.path), Self.canonicalQuery(url), canonicalHeaders, signedHeaders, "UNSIGNED-PAYLOAD",
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, Hex.lowercase(SHA256.hash(data: Data(canonicalRequest.utf8)))]
            .joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = Hex.lowercase(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
        var result = ["x-amz-date": amzDate, "x-amz-content-sha256": "UNSIGNED-PAYLOAD"]
        result["authorization"] =
            "AWS4-HMAC-SHA256 Credential=\(accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        return result
    }

    /// RFC 3986 unreserved characters stay; everything else is percent-encoded; "/" separates.
    static func encodePath(_ path: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
        return path.isEmpty ? "/" : (path.addingPercentEncoding(withAllowedCharacters: unreserved) ?? path)
    }

    static func canonicalQuery(_ url: URL) -> String {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return "" }
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return items.map {
            ($0.name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? $0.name,
             ($0.value ?? "").addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
        }.sorted { $0 < $1 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    static func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
