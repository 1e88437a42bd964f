import Atelier
import Foundation
import Testing
import UUIDCasingCheck
import Vapor

/// A real Atelier server on a loopback port inside the test process.
final class LiveServer: Sendable {
    let app: Application
    let clock: ManualClock
    let baseURL: URL
    private let dataDirectory: String
    /// Answers that wrote an id in upper case (issue 23), recorded against the test when it stops:
    /// the server answers on its event loops, outside the test's task.
    private let upperCaseIDs: Locked<[String]>

    static func start(adjust: @Sendable (inout AppConfig) -> Void = { _ in }) async throws -> LiveServer {
        let clock = ManualClock(Date())
        let dataDirectory = NSTemporaryDirectory() + "atelierkit-test-\(UUID().uuidString)"
        let app = try await Application.make(.testing)
        var config = AppConfig.testing(dataDirectory: dataDirectory)
        config.port = 0
        adjust(&config)
        try await configure(app, config: config, clock: clock)
        let upperCaseIDs = Locked<[String]>([])
        app.middleware.use(UUIDCasingMiddleware { finding in upperCaseIDs.mutate { $0.append(finding) } }, at: .beginning)
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        try app.server.start()
        guard let port = app.http.server.shared.localAddress?.port else {
            throw Abort(.internalServerError, reason: "The test server has no port.")
        }
        return LiveServer(
            app: app, clock: clock, baseURL: URL(string: "http://127.0.0.1:\(port)")!, dataDirectory: dataDirectory, upperCaseIDs: upperCaseIDs)
    }

    private init(app: Application, clock: ManualClock, baseURL: URL, dataDirectory: String, upperCaseIDs: Locked<[String]>) {
        self.app = app
        self.clock = clock
        self.baseURL = baseURL
        self.dataDirectory = dataDirectory
        self.upperCaseIDs = upperCaseIDs
    }

    func stop() async throws {
        let findings = upperCaseIDs.mutate { found -> [String] in
            defer { found = [] }
            return found
        }
        for finding in findings { Issue.record(Comment(rawValue: finding)) }
        await app.server.shutdown()
        try? await DatabaseSetup.dropSchema(app)
        try await app.asyncShutdown()
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    /// Runs `body` in the caller's isolation (a test on the main actor drives screen models in it).
    static func with(
        adjust: @Sendable (inout AppConfig) -> Void = { _ in }, isolation: isolated (any Actor)? = #isolation, _ body: (LiveServer) async throws -> Void
    ) async throws {
        let server = try await start(adjust: adjust)
        do {
            try await body(server)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }
}

func uniqueEmail() -> String { "kit-\(UUID().uuidString.prefix(8).lowercased())@example.com" }
