import Foundation
import JWTKit
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import Atelier

/// A local stand-in for Google's token endpoint and FCM's HTTP v1 API, on one HTTP/2 TLS server. The
/// token endpoint checks the service account's assertion as Google does (RS256 against the
/// account's public key, the key id, issuer, audience and scope) and issues access tokens; the send
/// endpoint requires one of them, checks the message, and answers as scripted.
final class FakeFCMServer: Sendable {
    typealias JSONValue = FakeAPNsServer.JSONValue

    struct Answer: Sendable {
        var status: HTTPResponseStatus
        var headers: [(String, String)] = []
        var body: String = ""
    }

    struct Received: Sendable {
        var bearer: String
        /// The request's `message` object.
        var message: JSONValue
        /// What the server refused (Google would answer 400).
        var problems: [String]
        /// How it answered.
        var status: HTTPResponseStatus

        var deviceToken: String? { if case .string(let token)? = message["token"] { token } else { nil } }
    }

    private struct State {
        var received: [Received] = []
        var script: [Answer] = []
        var issued: Set<String> = []
        var revoked: Set<String> = []
        var unregistered: Set<String> = []
        var exchanges = 0
        var assertionProblems: [String] = []
    }

    private struct TokenRequest: Content {
        var grant_type: String?
        var assertion: String?
    }

    let projectID = "atelier-test"
    let clientEmail = "push@atelier-test.iam.gserviceaccount.com"
    let keyID = "5f1c0b9e2d7a4c3b8e6f0a1d2c3b4a5968778695"
    /// Seconds each access token is good for, as Google says.
    let tokenLifetime = 3599
    let certificatePEM: String
    let port: Int
    private let privateKeyPEM: String
    private let publicKey: RSAVerifyingKey
    private let app: Application
    private let state = NIOLockedValueBox(State())

    var received: [Received] { state.withLockedValue { $0.received } }
    var accepted: [Received] { received.filter { $0.status == .ok } }
    /// How many access tokens it issued.
    var tokenExchanges: Int { state.withLockedValue { $0.exchanges } }
    /// What was wrong with refused assertions.
    var assertionProblems: [String] { state.withLockedValue { $0.assertionProblems } }
    var tokenURI: String { "https://localhost:\(port)/token" }

    func answer(_ answers: Answer...) { state.withLockedValue { $0.script += answers } }
    /// Sends to `deviceToken` are answered as for an app that was uninstalled.
    func unregister(_ deviceToken: String) { state.withLockedValue { _ = $0.unregistered.insert(deviceToken) } }
    /// The access tokens issued so far are refused from now on (401).
    func revokeAccessTokens() { state.withLockedValue { $0.revoked.formUnion($0.issued) } }

    /// The service account's RSA key, made once per test run (openssl, like the TLS certificate)
    /// and never written to disk.
    private static let rsaKeyPEM: Result<String, any Error> = Result {
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
        let output = Pipe()
        openssl.standardOutput = output
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        let pem = output.fileHandleForReading.readDataToEndOfFile()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw Abort(.internalServerError, reason: "openssl genpkey failed") }
        return String(decoding: pem, as: UTF8.self)
    }

    private init(app: Application, port: Int, certificatePEM: String, privateKeyPEM: String) throws {
        self.app = app
        self.port = port
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        publicKey = try RSASigningKey(pem: privateKeyPEM).publicKey
    }

    static func start() async throws -> FakeFCMServer {
        let privateKeyPEM = try rsaKeyPEM.get()
        let (app, certificatePEM) = try await LocalTLSServer.make(http2Only: true)
        let box = NIOLockedValueBox<FakeFCMServer?>(nil)
        app.post("token") { req async throws -> Response in
            guard let server = box.withLockedValue({ $0 }) else { throw Abort(.serviceUnavailable) }
            return try await server.exchange(req)
        }
        app.post("v1", "projects", ":project", "messages:send") { req async throws -> Response in
            guard let server = box.withLockedValue({ $0 }) else { throw Abort(.serviceUnavailable) }
            return try await server.send(req)
        }
        let port = try await LocalTLSServer.start(app)
        do {
            let server = try FakeFCMServer(app: app, port: port, certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
            box.withLockedValue { $0 = server }
            return server
        } catch {
            await app.server.shutdown()
            try? await app.asyncShutdown()
            throw error
        }
    }

    func stop() async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    /// The key file the Firebase console would give for this project.
    var serviceAccountJSON: String {
        let file = [
            "type": "service_account", "project_id": projectID, "private_key_id": keyID, "private_key": privateKeyPEM,
            "client_email": clientEmail, "client_id": "104729811111111111111", "token_uri": tokenURI,
        ]
        return String(decoding: try! JSONSerialization.data(withJSONObject: file, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The app's configuration for sending here.
    func configure(_ config: inout AppConfig) {
        config.fcm = .init(serviceAccountJSON: serviceAccountJSON, baseURL: "https://localhost:\(port)")
        config.apns.trustedRootsPEM = certificatePEM
    }

    private func exchange(_ req: Request) async throws -> Response {
        var problems: [String] = []
        if req.headers.first(name: .contentType)?.hasPrefix("application/x-www-form-urlencoded") != true { problems.append("content type") }
        let form = try? req.content.decode(TokenRequest.self)
        if form?.grant_type != FCMAccessToken.grantType { problems.append("grant_type") }
        let assertion = form?.assertion ?? ""
        let header = assertion.split(separator: ".").first
            .flatMap { Base64URL.bytes(String($0), maxLength: 2000) }
            .flatMap { try? JSONDecoder().decode([String: String].self, from: $0) }
        if header?["alg"] != "RS256" { problems.append("alg") }
        if header?["kid"] != keyID { problems.append("kid") }
        let keys = JWTKeyCollection()
        await keys.add(rsa: publicKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyID))
        do {
            let claims = try await keys.verify(assertion, as: FCMAccessToken.Claims.self)
            if claims.iss.value != clientEmail { problems.append("iss") }
            if claims.aud.value != [tokenURI] { problems.append("aud") }
            if claims.scope != "https://www.googleapis.com/auth/firebase.messaging" { problems.append("scope") }
            // Google takes assertions valid for at most an hour.
            let lifetime = claims.exp.value.timeIntervalSince(claims.iat.value)
            if lifetime <= 0 || lifetime > 3600 { problems.append("exp") }
        } catch {
            problems.append("signature")
        }
        let issued = state.withLockedValue { state -> String? in
            guard problems.isEmpty else {
                state.assertionProblems += problems
                return nil
            }
            state.exchanges += 1
            let token = "ya29.fake-access-token-\(state.exchanges)-\(UUID().uuidString.lowercased())"
            state.issued.insert(token)
            return token
        }
        var headers = HTTPHeaders()
        headers.add(name: .contentType, value: "application/json")
        guard let issued else {
            return Response(status: .badRequest, headers: headers, body: .init(string: #"{"error":"invalid_grant","error_description":"\#(problems[0])"}"#))
        }
        return Response(status: .ok, headers: headers, body: .init(string: #"{"access_token":"\#(issued)","expires_in":\#(tokenLifetime),"token_type":"Bearer"}"#))
    }

    private func send(_ req: Request) async throws -> Response {
        var problems: [String] = []
        if req.parameters.get("project") != projectID { problems.append("project") }
        let authorization = req.headers.first(name: .authorization) ?? ""
        let bearer = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : ""
        let body = req.body.data.map { Data(buffer: $0) } ?? Data()
        let message = (try? JSONDecoder().decode([String: JSONValue].self, from: body))?["message"] ?? .other
        guard case .string(let deviceToken)? = message["token"], !deviceToken.isEmpty else {
            return record(bearer: bearer, message: message, problems: ["message.token"], deviceToken: "")
        }
        if !Self.isString(message["notification"]?["body"]) { problems.append("notification.body") }
        if case .object(let data)? = message["data"] {
            if !data.values.allSatisfy({ Self.isString($0) }) { problems.append("data values must be strings") }
        } else {
            problems.append("data")
        }
        return record(bearer: bearer, message: message, problems: problems, deviceToken: deviceToken)
    }

    private static func isString(_ value: JSONValue?) -> Bool {
        if case .string? = value { true } else { false }
    }

    private func record(bearer: String, message: JSONValue, problems: [String], deviceToken: String) -> Response {
        let answer = state.withLockedValue { state -> Answer in
            let answer: Answer
            if !state.issued.contains(bearer) || state.revoked.contains(bearer) {
                answer = Answer(status: .unauthorized, body: #"{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}"#)
            } else if !problems.isEmpty {
                answer = Answer(status: .badRequest, body: #"{"error":{"code":400,"message":"Invalid value: \#(problems[0])","status":"INVALID_ARGUMENT"}}"#)
            } else if state.unregistered.contains(deviceToken) {
                answer = Answer(status: .notFound, body: """
                    {"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND",\
                    "details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}
                    """)
            } else if !state.script.isEmpty {
                answer = state.script.removeFirst()
            } else {
                answer = Answer(status: .ok, body: #"{"name":"projects/\#(projectID)/messages/\#(state.received.count + 1)"}"#)
            }
            state.received.append(Received(bearer: bearer, message: message, problems: problems, status: answer.status))
            return answer
        }
        var headers = HTTPHeaders(answer.headers)
        if !answer.body.isEmpty { headers.add(name: .contentType, value: "application/json") }
        return Response(status: answer.status, headers: headers, body: .init(string: answer.body))
    }
}
