import Foundation
import JWTKit
import NIOConcurrencyHelpers
import NIOSSL
import Testing
import Vapor

@testable import Atelier

/// A local stand-in for Apple's push service: HTTP/2 over TLS (a certificate made for the test),
/// checking what the real one checks (the provider JWT against the team's public key, the topic,
/// the push type, the collapse id and the payload size) and answering as scripted.
final class FakeAPNsServer: Sendable {
    struct Answer: Sendable {
        var status: HTTPResponseStatus
        var headers: [(String, String)] = []
        var body: String = ""
    }

    struct Received: Sendable {
        var deviceToken: String
        var jwt: String
        var topic: String?
        var pushType: String?
        var collapseID: String?
        var payload: [String: JSONValue]
        var httpMajorVersion: Int
        /// What the server refused (a real APNs would answer 400 or 403).
        var problems: [String]
    }

    enum JSONValue: Sendable, Equatable, Decodable {
        case string(String), number(Double), object([String: JSONValue]), other
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) { self = .string(s) }
            else if let n = try? c.decode(Double.self) { self = .number(n) }
            else if let o = try? c.decode([String: JSONValue].self) { self = .object(o) }
            else { self = .other }
        }
        subscript(_ key: String) -> JSONValue? { if case .object(let o) = self { o[key] } else { nil } }
    }

    let teamID = "TEAM123456"
    let keyID = "KEY1234567"
    let topic = "dev.atelier.app"
    let signingKey = ES256PrivateKey()
    let certificatePEM: String
    private let app: Application
    private let state = NIOLockedValueBox<(received: [Received], script: [Answer])>(([], []))
    let port: Int

    var received: [Received] { state.withLockedValue { $0.received } }
    func answer(_ answers: Answer...) { state.withLockedValue { $0.script += answers } }

    private init(app: Application, port: Int, certificatePEM: String) {
        self.app = app
        self.port = port
        self.certificatePEM = certificatePEM
    }

    static func start() async throws -> FakeAPNsServer {
        let (app, certificatePEM) = try await LocalTLSServer.make(http2Only: true)
        let box = NIOLockedValueBox<FakeAPNsServer?>(nil)
        app.post("3", "device", ":token") { req async throws -> Response in
            guard let server = box.withLockedValue({ $0 }) else { throw Abort(.serviceUnavailable) }
            return try await server.handle(req)
        }
        let port = try await LocalTLSServer.start(app)
        let server = FakeAPNsServer(app: app, port: port, certificatePEM: certificatePEM)
        box.withLockedValue { $0 = server }
        return server
    }

    func stop() async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    /// The app's configuration for sending here.
    func configure(_ config: inout AppConfig) {
        config.apns = .init(
            teamID: teamID, keyID: keyID, privateKeyPEM: signingKey.pemRepresentation, topic: topic,
            baseURL: "https://localhost:\(port)", trustedRootsPEM: certificatePEM)
    }

    private func handle(_ req: Request) async throws -> Response {
        var problems: [String] = []
        let auth = req.headers.first(name: "authorization") ?? ""
        let jwt = auth.hasPrefix("bearer ") ? String(auth.dropFirst(7)) : ""
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: signingKey.publicKey, kid: JWKIdentifier(string: keyID))
        do {
            let claims = try await keys.verify(jwt, as: APNSProviderToken.Claims.self)
            if claims.iss.value != teamID { problems.append("issuer") }
        } catch {
            problems.append("InvalidProviderToken")
        }
        let collapse = req.headers.first(name: "apns-collapse-id")
        if let collapse, collapse.utf8.count > 64 { problems.append("collapse id over 64 bytes") }
        if req.headers.first(name: "apns-topic") != topic { problems.append("topic") }
        if req.headers.first(name: "apns-push-type") != "alert" { problems.append("push type") }
        let body = req.body.data.map { Data(buffer: $0) } ?? Data()
        if body.count > 4096 { problems.append("PayloadTooLarge") }
        let payload = (try? JSONDecoder().decode([String: JSONValue].self, from: body)) ?? [:]
        let token = req.parameters.get("token") ?? ""
        let answer = state.withLockedValue { state -> Answer in
            state.received.append(Received(
                deviceToken: token, jwt: jwt, topic: req.headers.first(name: "apns-topic"), pushType: req.headers.first(name: "apns-push-type"),
                collapseID: collapse, payload: payload, httpMajorVersion: req.version.major, problems: problems))
            if !problems.isEmpty { return Answer(status: .badRequest, body: #"{"reason":"\#(problems[0])"}"#) }
            return state.script.isEmpty ? Answer(status: .ok, headers: [("apns-id", UUID().uuidString)]) : state.script.removeFirst()
        }
        var headers = HTTPHeaders(answer.headers)
        if !answer.body.isEmpty { headers.add(name: .contentType, value: "application/json") }
        return Response(status: answer.status, headers: headers, body: .init(string: answer.body))
    }
}

/// A Vapor server on 127.0.0.1 with a certificate made for the test (`localhost`), standing in for
/// a provider the tests cannot reach.
enum LocalTLSServer {
    /// One certificate for the whole test run: made once (openssl is a blocking child process, kept
    /// off the test tasks after the first).
    private static let certificate: Result<(folder: String, pem: String), any Error> = Result {
        let folder = NSTemporaryDirectory() + "local-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", folder + "/key.pem", "-out", folder + "/cert.pem",
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        return (folder, try String(contentsOfFile: folder + "/cert.pem", encoding: .utf8))
    }

    static func make(http2Only: Bool) async throws -> (Application, certificatePEM: String) {
        let (folder, certificatePEM) = try certificate.get()
        let app = try await Application.make(.testing)
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        app.http.server.configuration.supportVersions = http2Only ? [.two] : [.one, .two]
        app.http.server.configuration.tlsConfiguration = .makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(folder + "/cert.pem").map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: folder + "/key.pem", format: .pem)))
        return (app, certificatePEM)
    }

    /// Starts the server once its routes are in; returns its port.
    static func start(_ app: Application) async throws -> Int {
        do {
            try await app.asyncBoot()
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        return app.http.server.shared.localAddress?.port ?? 0
    }
}
