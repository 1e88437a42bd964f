import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// A small SMTP client: EHLO, STARTTLS, AUTH PLAIN/LOGIN, one message per connection.
struct SMTPMailer: Mailer {
    let settings: AppConfig.SMTP
    let group: any EventLoopGroup
    let logger: Logger
    var timeout: TimeAmount = .seconds(30)

    func send(_ mail: Mail) async throws {
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(timeout)
            .connect(host: settings.host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        try await channel.executeThenClose { inbound, outbound in
            var session = SMTPSession(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            try await session.expect(220)
            var capabilities = try await session.command("EHLO atelier", expect: 250)
            if settings.startTLS {
                guard capabilities.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) else {
                    throw SMTPError.startTLSUnavailable
                }
                _ = try await session.command("STARTTLS", expect: 220)
                try await channel.channel.pipeline.addHandler(makeTLSHandler(), position: .first)
                capabilities = try await session.command("EHLO atelier", expect: 250)
            }
            if let username = settings.username, let password = settings.password {
                try await authenticate(&session, capabilities: capabilities, username: username, password: password)
            }
            _ = try await session.command("MAIL FROM:<\(SMTPMessage.address(settings.from))>", expect: 250)
            _ = try await session.command("RCPT TO:<\(SMTPMessage.address(mail.to))>", expect: 250, 251)
            _ = try await session.command("DATA", expect: 354)
            let domain = SMTPMessage.address(settings.from).split(separator: "@").last.map(String.init) ?? "localhost"
            let message = SMTPMessage.render(mail, from: settings.from, now: Date(), messageIDDomain: domain)
            _ = try await session.command(SMTPMessage.dotStuffed(message) + "\r\n.", expect: 250)
            _ = try? await session.command("QUIT", expect: 221)
        }
    }

    private func makeTLSHandler() throws -> NIOSSLClientHandler {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = settings.tlsCAFile {
            tls.trustRoots = .file(caFile)
        }
        let context = try NIOSSLContext(configuration: tls)
        // SNI takes host names only; for an IP address NIOSSL checks the certificate against the peer address.
        let isIPAddress = (try? SocketAddress(ipAddress: settings.host, port: 0)) != nil
        return try NIOSSLClientHandler(context: context, serverHostname: isIPAddress ? nil : settings.host)
    }

    private func authenticate(
        _ session: inout SMTPSession, capabilities: [String], username: String, password: String
    ) async throws {
        let auth = capabilities.first { $0.uppercased().hasPrefix("AUTH") }?.uppercased() ?? ""
        if auth.contains("PLAIN") || !auth.contains("LOGIN") {
            let credentials = Data("\0\(username)\0\(password)".utf8).base64EncodedString()
            _ = try await session.command("AUTH PLAIN \(credentials)", expect: 235, redacted: true)
        } else {
            _ = try await session.command("AUTH LOGIN", expect: 334)
            _ = try await session.command(Data(username.utf8).base64EncodedString(), expect: 334, redacted: true)
            _ = try await session.command(Data(password.utf8).base64EncodedString(), expect: 235, redacted: true)
        }
    }
}

enum SMTPError: Error, CustomStringConvertible {
    case unexpectedReply(command: String, code: Int, text: String)
    case connectionClosed
    case startTLSUnavailable

    var description: String {
        switch self {
        case .unexpectedReply(let command, let code, let text): "SMTP \(command) answered \(code) \(text)"
        case .connectionClosed: "SMTP server closed the connection"
        case .startTLSUnavailable: "SMTP server does not offer STARTTLS (set SMTP_STARTTLS=false to send without it)"
        }
    }
}

/// Reads CRLF-terminated, possibly multi-line replies ("250-…" continues, "250 …" ends).
struct SMTPSession {
    var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    var buffer = ""

    init(inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.inbound = inbound
        self.outbound = outbound
    }

    mutating func command(_ line: String, expect codes: Int..., redacted: Bool = false) async throws -> [String] {
        try await outbound.write(ByteBuffer(string: line + "\r\n"))
        let verb = redacted ? "AUTH" : String(line.prefix(while: { $0 != " " && $0 != "\r" }))
        return try await expect(codes, command: verb)
    }

    mutating func expect(_ codes: Int...) async throws {
        _ = try await expect(codes, command: "greeting")
    }

    private mutating func expect(_ codes: [Int], command: String) async throws -> [String] {
        var lines: [String] = []
        while true {
            let line = try await readLine()
            guard line.count >= 3, let code = Int(line.prefix(3)) else {
                throw SMTPError.unexpectedReply(command: command, code: 0, text: line)
            }
            lines.append(String(line.dropFirst(4)))
            let isLast = line.count == 3 || line[line.index(line.startIndex, offsetBy: 3)] == " "
            if isLast {
                guard codes.contains(code) else {
                    throw SMTPError.unexpectedReply(command: command, code: code, text: lines.joined(separator: " "))
                }
                return lines
            }
        }
    }

    private mutating func readLine() async throws -> String {
        while true {
            if let range = buffer.range(of: "\r\n") {
                let line = String(buffer[..<range.lowerBound])
                buffer.removeSubrange(..<range.upperBound)
                return line
            }
            guard var chunk = try await inbound.next() else { throw SMTPError.connectionClosed }
            buffer += chunk.readString(length: chunk.readableBytes) ?? ""
        }
    }
}
