import Atelier
import Foundation
import Vapor

/// A real Atelier server on a loopback port inside the test process.
final class LiveServer: Sendable {
    let app: Application
    let clock: ManualClock
    let baseURL: URL
    private let dataDirectory: String

    static func start() async throws -> LiveServer {
        let clock = ManualClock(Date())
        let dataDirectory = NSTemporaryDirectory() + "atelierkit-test-\(UUID().uuidString)"
        let app = try await Application.make(.testing)
        var config = AppConfig.testing(dataDirectory: dataDirectory)
        config.port = 0
        try await configure(app, config: config, clock: clock)
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        try await app.server.start()
        guard let port = app.http.server.shared.localAddress?.port else {
            throw Abort(.internalServerError, reason: "The test server has no port.")
        }
        return LiveServer(app: app, clock: clock, baseURL: URL(string: "http://127.0.0.1:\(port)")!, dataDirectory: dataDirectory)
    }

    private init(app: Application, clock: ManualClock, baseURL: URL, dataDirectory: String) {
        self.app = app
        self.clock = clock
        self.baseURL = baseURL
        self.dataDirectory = dataDirectory
    }

    func stop() async throws {
        await app.server.shutdown()
        try? await DatabaseSetup.dropSchema(app)
        try await app.asyncShutdown()
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    static func with(_ body: (LiveServer) async throws -> Void) async throws {
        let server = try await start()
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
