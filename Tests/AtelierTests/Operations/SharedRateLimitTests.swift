import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Scale-out: rate limits are counted across instances")
struct SharedRateLimitTests {
    @Test("on PostgreSQL the 11th failed sign-in within a minute, spread over three instances, gets 429")
    func acrossInstances() async throws {
        try await TestApp.with { a in
            // On SQLite there is one process, whose limiter is the in-memory one (SignUpTests covers it).
            guard let schema = a.app.atelier.config.databaseSchema else { return }
            let b = try await TestApp.make { $0.databaseSchema = schema }
            let c = try await TestApp.make { $0.databaseSchema = schema }
            do {
                let instances = [a, b, c]
                for instance in instances { instance.clock.set(a.clock.now()) }
                for attempt in 0..<10 {
                    let response = try await instances[attempt % 3].send(
                        .POST, "/api/v1/auth/login", json: #"{"email":"spread\#(attempt)@example.com","password":"wrong password!"}"#)
                    #expect(response.status == .unauthorized)
                }
                for instance in instances {
                    let limited = try await instance.send(.POST, "/api/v1/auth/login", json: #"{"email":"z@example.com","password":"wrong password!"}"#)
                    #expect(limited.status == .tooManyRequests)
                }
                for instance in instances { instance.clock.advance(by: 61) }
                let later = try await b.send(.POST, "/api/v1/auth/login", json: #"{"email":"z@example.com","password":"wrong password!"}"#)
                #expect(later.status == .unauthorized)
            } catch {
                try? await b.app.asyncShutdown()
                try? await c.app.asyncShutdown()
                throw error
            }
            try await b.app.asyncShutdown()
            try await c.app.asyncShutdown()
        }
    }
}
