import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Catalog: bad product input")
struct ProductValidationTests {
    @Test("negative price, unknown currency, 11 photos, another user's photo, unknown category: specific 422s and nothing written")
    func badInput() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let a = f.ownerA.accessToken
            let mine = try await t.uploadPhoto(token: a)
            let theirs = try await t.uploadPhoto(token: f.ownerB.accessToken)
            var eleven: [String] = []
            for _ in 0..<11 { eleven.append(try await t.placeholderPhoto(uploader: f.ownerA.user.id)) }
            let unknownCategory = Category()
            unknownCategory.id = UUID()

            let cases: [(String, String, String)] = [
                ("negative price", TestApp.productJSON(category: f.shirts, price: -100, photos: [mine]), "price.amount"),
                ("unknown currency", TestApp.productJSON(category: f.shirts, currency: "XYZ", photos: [mine]), "price.currency"),
                ("11 photos", TestApp.productJSON(category: f.shirts, photos: eleven), "photoIds"),
                ("another user's upload", TestApp.productJSON(category: f.shirts, photos: [theirs]), "photoIds[0]"),
                ("no such category", TestApp.productJSON(category: unknownCategory, photos: [mine]), "categoryId"),
                ("no photo", TestApp.productJSON(category: f.shirts, photos: []), "photoIds"),
                ("colour outside the palette", TestApp.productJSON(category: f.shirts, photos: [mine]).replacingOccurrences(of: #""white""#, with: #""sparkly""#), "colors"),
                ("negative stock", TestApp.productJSON(category: f.shirts, photos: [mine]).replacingOccurrences(of: #""stock":2"#, with: #""stock":-2"#), "variants[0].stock"),
            ]
            for (label, json, field) in cases {
                let response = try await t.createProduct(in: f.storeAID, token: a, json: json)
                #expect(response.status == .unprocessableEntity, "\(label): \(response.body.string)")
                #expect(try response.problem().fields.contains(field), "\(label): \(response.body.string)")
            }
            let wrongType = try await t.createProduct(
                in: f.storeAID, token: a, json: TestApp.productJSON(category: f.shirts, photos: [mine]).replacingOccurrences(of: "49900", with: #""cheap""#))
            #expect(wrongType.status == .unprocessableEntity, "\(wrongType.body.string)")
            #expect(try wrongType.problem().fields == ["price.amount"])
            #expect(try await Product.query(on: t.app.db).count() == 0)
            let photo = try #require(try await Media.find(UUID(uuidString: mine), on: t.app.db))
            #expect(photo.ownerType == nil)
            let foreign = try #require(try await Media.find(UUID(uuidString: theirs), on: t.app.db))
            #expect(foreign.ownerType == nil)
        }
    }

    @Test("photos are attached in order and reordered; a photo in use cannot be deleted on its own")
    func photosOrder() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let a = f.ownerA.accessToken
            let first = try await t.uploadPhoto(token: a)
            let second = try await t.uploadPhoto(token: a, width: 400, height: 300)
            let product = try await t.createProduct(in: f.storeAID, token: a, json: TestApp.productJSON(category: f.shirts, photos: [first, second]))
                .content.decode(ProductBody.self)
            #expect(product.photos.map(\.id) == [first, second])
            #expect(product.photos.first?.variants.first?.url.contains("/media/public/") == true)
            let reordered = try await t.send(
                .PUT, "/api/v1/stores/\(f.storeAID)/products/\(product.id)/photos", json: #"{"photoIds":["\#(second)","\#(first)"]}"#, token: a)
            #expect(reordered.status == .ok, "\(reordered.body.string)")
            #expect(try reordered.content.decode(ProductBody.self).photos.map(\.id) == [second, first])
            #expect(try await t.send(.DELETE, "/api/v1/media/\(first)", token: a).status == .conflict)
            // Dropping a photo deletes it.
            let dropped = try await t.send(
                .PUT, "/api/v1/stores/\(f.storeAID)/products/\(product.id)/photos", json: #"{"photoIds":["\#(second)"]}"#, token: a)
            #expect(try dropped.content.decode(ProductBody.self).photos.map(\.id) == [second])
            #expect(try await Media.find(UUID(uuidString: first), on: t.app.db) == nil)
        }
    }
}
