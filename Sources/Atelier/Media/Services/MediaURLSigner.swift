import Crypto
import Foundation

/// Short-lived URLs for private media: an HMAC over the key and the expiry. A changed key, expiry
/// or signature, or a time past the expiry, and the URL stops working.
struct MediaURLSigner: Sendable {
    static let lifetime: TimeInterval = 3600

    let secret: SymmetricKey
    let baseURL: String

    init(secret: String, baseURL: String) {
        self.secret = SymmetricKey(data: Data(secret.utf8))
        self.baseURL = baseURL
    }

    func signature(key: String, expires: Int) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(key)\n\(expires)".utf8), using: secret)
        return Hex.lowercase(Data(mac))
    }

    func privateURL(key: String, now: Date) -> String {
        let expires = Int(now.addingTimeInterval(Self.lifetime).timeIntervalSince1970)
        return "\(baseURL)/media/private/\(key)?expires=\(expires)&signature=\(signature(key: key, expires: expires))"
    }

    func publicURL(key: String) -> String {
        "\(baseURL)/media/public/\(key)"
    }

    func isValid(key: String, expires: Int, signature presented: String, now: Date) -> Bool {
        guard Double(expires) > now.timeIntervalSince1970 else { return false }
        let expected = signature(key: key, expires: expires)
        guard expected.utf8.count == presented.utf8.count else { return false }
        return zip(expected.utf8, presented.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
