import Foundation

/// Renders a `Mail` as an RFC 5322 message: a base64 UTF-8 text body, or text and HTML as
/// multipart/alternative; with `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058) when the
/// mail has an unsubscribe link.
enum SMTPMessage {
    static func render(_ mail: Mail, from: String, now: Date, messageIDDomain: String) -> String {
        var headers = [
            "From: \(from)",
            "To: \(mail.to)",
            "Subject: \(encodeHeader(mail.subject))",
            "Date: \(rfc5322Date(now))",
            "Message-ID: <\(UUID().idString)@\(messageIDDomain)>",
            "MIME-Version: 1.0",
        ]
        if let unsubscribe = mail.unsubscribeURL {
            headers += ["List-Unsubscribe: <\(unsubscribe)>", "List-Unsubscribe-Post: List-Unsubscribe=One-Click"]
        }
        guard let html = mail.html else {
            headers += ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64"]
            return headers.joined(separator: "\r\n") + "\r\n\r\n" + base64Body(mail.text) + "\r\n"
        }
        let boundary = "atelier-" + UUID().idString
        headers.append("Content-Type: multipart/alternative; boundary=\"\(boundary)\"")
        let parts = [("text/plain", mail.text), ("text/html", html)].map { type, content in
            "--\(boundary)\r\nContent-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n\(base64Body(content))\r\n"
        }
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + parts.joined() + "--\(boundary)--\r\n"
    }

    private static func base64Body(_ text: String) -> String {
        Data(text.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
    }

    /// RFC 2047 encoded-word when the header is not plain ASCII.
    static func encodeHeader(_ value: String) -> String {
        if value.allSatisfy({ $0.isASCII && !$0.isNewline }) { return value }
        return "=?utf-8?B?\(Data(value.utf8).base64EncodedString())?="
    }

    /// Dot-stuffing for the DATA phase: a line starting with "." gets another ".".
    static func dotStuffed(_ message: String) -> String {
        message.components(separatedBy: "\r\n").map { $0.hasPrefix(".") ? "." + $0 : $0 }.joined(separator: "\r\n")
    }

    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// The bare address inside "Name <address>".
    static func address(_ value: String) -> String {
        if let open = value.lastIndex(of: "<"), let close = value.lastIndex(of: ">"), open < close {
            return String(value[value.index(after: open)..<close])
        }
        return value.trimmingCharacters(in: .whitespaces)
    }
}
