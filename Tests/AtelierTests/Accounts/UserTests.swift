import Fluent
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

/// `User` lists its properties by hand (issue 19; the list is checked in `ModelPropertiesTests`):
/// a user read from a row behaves as one Fluent found by reflection.
@Suite("The user model")
struct UserTests {
    @Test("a user read from a row and saved writes back only what changed")
    func decodeAndSave() async throws {
        try await TestApp.with { t in
            let user = User(id: UUID(), email: uniqueEmail(), passwordHash: nil, displayName: "Ana", username: "ana-\(UUID().uuidString.prefix(6).lowercased())", now: t.clock.now())
            try await user.save(on: t.app.db)
            let sql = t.app.db.sql
            let row = try #require(try await sql.raw("SELECT * FROM \(ident: User.schema) WHERE id = \(bind: user.requireID())").first())
            let read = try row.decode(fluentModel: User.self)
            #expect(read.displayName == "Ana" && read.email == user.email && read.radiusKm == 10 && read.homeLat == nil)
            #expect(!read.hasChanges)
            // Another writer changes the city meanwhile; saving the name must not undo it.
            try await sql.raw("UPDATE \(ident: User.schema) SET home_city = 'Porto' WHERE id = \(bind: user.requireID())").run()
            read.displayName = "Ana M."
            #expect(read.hasChanges)
            try await read.save(on: t.app.db)
            let stored = try #require(try await User.find(user.requireID(), on: t.app.db))
            #expect(stored.displayName == "Ana M." && stored.homeCity == "Porto")
        }
    }
}
