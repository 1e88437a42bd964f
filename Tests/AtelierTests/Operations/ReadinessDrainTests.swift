import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Scale-out: a stopping instance leaves the load balancer first")
struct ReadinessDrainTests {
    @Test("on SIGTERM /health/ready answers 503 for READY_GRACE_SECONDS before the listener closes; /health stays 200")
    func readyTurnsFirst() async throws {
        try await TestApp.with(adjust: { $0.readyGraceSeconds = 1 }) { t in
            #expect(try await t.send(.GET, "/health/ready").status == .ok)
            t.app.http.server.configuration.hostname = "127.0.0.1"
            t.app.http.server.configuration.port = 0
            try t.app.server.start()
            let started = Date()
            let drain = Task { await RequestDrain.closingLiveSockets(of: t.app).shutdownAsync(t.app) }
            try await Task.sleep(for: .milliseconds(300))
            let ready = try await t.send(.GET, "/health/ready")
            #expect(ready.status == .serviceUnavailable)
            #expect(ready.headers.first(name: "Retry-After") == "1")
            #expect(try await t.send(.GET, "/health").status == .ok)
            await drain.value
            #expect(Date().timeIntervalSince(started) >= 1, "the listener stayed open through the grace")
        }
    }
}
