import Foundation
import Testing

@testable import Atelier

@Suite("SMTP message rendering")
struct SMTPMessageTests {
    @Test("headers, base64 body, dot-stuffing and encoded subjects")
    func render() throws {
        let mail = Mail(to: "ana@example.com", subject: "Återställ lösenord", text: "Line one\n.dot line")
        let message = SMTPMessage.render(mail, from: "Atelier <no-reply@atelier.test>", now: Date(), messageIDDomain: "atelier.test")
        #expect(message.contains("To: ana@example.com\r\n"))
        #expect(message.contains("Subject: =?utf-8?B?"))
        let body = try #require(message.components(separatedBy: "\r\n\r\n").last)
        let decoded = Data(base64Encoded: body.replacingOccurrences(of: "\r\n", with: ""))
        #expect(decoded.map { String(decoding: $0, as: UTF8.self) } == mail.text)
        #expect(SMTPMessage.dotStuffed("a\r\n.b") == "a\r\n..b")
        #expect(SMTPMessage.address("Atelier <no-reply@atelier.test>") == "no-reply@atelier.test")
    }
}
