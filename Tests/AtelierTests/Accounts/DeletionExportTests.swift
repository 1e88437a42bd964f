import Fluent
import Foundation
import Testing
import VaporTesting
import ZIPFoundation

@testable import Atelier

@Suite("Export and deletion")
struct DeletionExportTests {
    @Test("export is a zip holding the profile as JSON")
    func export() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp(name: "Export Me")
            let response = try await t.send(.GET, "/api/v1/me/export", token: s.accessToken)
            #expect(response.status == .ok)
            let archive = try Archive(data: Data(buffer: response.body), accessMode: .read)
            let entry = try #require(archive["atelier-export/profile.json"])
            var json = Data()
            _ = try archive.extract(entry) { json.append($0) }
            #expect(String(decoding: json, as: UTF8.self).contains("Export Me"))
        }
    }

    @Test("deleting needs the password, then removes the account and its sessions")
    func delete() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let wrong = try await t.send(.DELETE, "/api/v1/me", json: #"{"password":"not the password"}"#, token: s.accessToken)
            #expect(wrong.status == .unprocessableEntity)
            let ok = try await t.send(.DELETE, "/api/v1/me", json: #"{"password":"\#(TestApp.password)"}"#, token: s.accessToken)
            #expect(ok.status == .noContent)
            #expect(try await User.find(UUID(uuidString: s.user.id), on: t.app.db) == nil)
            #expect(try await t.send(.GET, "/api/v1/me", token: s.accessToken).status == .unauthorized)
            #expect(try await SessionFamily.query(on: t.app.db).filter(\.$user.$id == UUID(uuidString: s.user.id)!).count() == 0)
        }
    }
}
