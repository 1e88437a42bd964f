import Crypto
import Foundation

/// The token of a notification email's one-click unsubscribe link: whose email, of which kind,
/// signed, so the link works without signing in (RFC 8058) and cannot be forged for someone else.
enum UnsubscribeToken {
    static func make(userID: UUID, kind: InboxEntry.Kind, secret: String) -> String {
        let subject = "\(userID.idString).\(kind.rawValue)"
        return Base64URL.encode(Data(subject.utf8)) + "." + signature(subject, secret: secret)
    }

    /// The person and kind the token names, if its signature holds.
    static func read(_ token: String, secret: String) -> (userID: UUID, kind: InboxEntry.Kind)? {
        let parts = token.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, token.utf8.count < 300, let raw = Base64URL.bytes(parts[0], maxLength: 200),
              let subject = String(bytes: raw, encoding: .utf8),
              Data(signature(subject, secret: secret).utf8) == Data(parts[1].utf8)
        else { return nil }
        let fields = subject.split(separator: ".", maxSplits: 1).map(String.init)
        guard fields.count == 2, let userID = UUID(uuidString: fields[0]), let kind = InboxEntry.Kind(rawValue: fields[1]) else { return nil }
        return (userID, kind)
    }

    private static func signature(_ subject: String, secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(("unsubscribe:" + subject).utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return Base64URL.encode(Data(mac))
    }
}
