import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Catalog: category pictures and descriptions")
struct CategoryPictureTests {
    @Test("an admin gives a category a description and a picture; lists carry them; bad input is a 422 naming the field and changes nothing")
    func describe() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let gin = f.shirts.id!.idString
            let picture = try await t.uploadPhoto(token: f.admin.accessToken)
            let updated = try await t.send(
                .PATCH, "/api/v1/categories/\(gin)", json: #"{"description":"Dry gins from small stills.","imageId":"\#(picture)"}"#,
                token: f.admin.accessToken)
            #expect(updated.status == .ok, "\(updated.body.string)")
            let body = try t.object(updated)
            #expect(body["description"] as? String == "Dry gins from small stills.")
            #expect((body["image"] as? [String: Any])?["id"] as? String == picture)
            let tree = try await t.send(.GET, "/api/v1/categories").body.string
            #expect(tree.contains("Dry gins from small stills.") && tree.contains(picture))

            for (json, field) in [
                (#"{"description":"\#(String(repeating: "a", count: 2001))"}"#, "description"),
                (#"{"imageId":"\#(UUID())"}"#, "imageId"),
            ] {
                let bad = try await t.send(.PATCH, "/api/v1/categories/\(gin)", json: json, token: f.admin.accessToken)
                #expect(bad.status == .unprocessableEntity || bad.status == .badRequest, "\(bad.body.string)")
                if bad.status == .unprocessableEntity { #expect(try bad.problem().fields == [field]) }
            }
            let shopper = try await t.signUp()
            #expect(try await t.send(.PATCH, "/api/v1/categories/\(gin)", json: #"{"description":"x"}"#, token: shopper.accessToken).status == .forbidden)
            let stored = try #require(try await Category.find(f.shirts.id, on: t.app.db))
            #expect(stored.description == "Dry gins from small stills." && stored.imageMediaID?.idString == picture)
            // Removing the picture keeps the description.
            let removed = try await t.send(.PATCH, "/api/v1/categories/\(gin)", json: #"{"removeImage":true}"#, token: f.admin.accessToken)
            #expect(try t.object(removed)["image"] == nil && t.object(removed)["description"] as? String == "Dry gins from small stills.")
        }
    }
}
