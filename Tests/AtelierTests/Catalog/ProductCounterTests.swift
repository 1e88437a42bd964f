import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Catalog: store counters")
struct ProductCounterTests {
    @Test("the active-product count stays exact with 50 concurrent creates, deactivations and deletes")
    func concurrentCounters() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let a = f.ownerA.accessToken
            let uploader = f.ownerA.user.id
            // 20 active products to deactivate or delete while 20 new ones arrive.
            var created: [String] = []
            for index in 0..<20 {
                let photo = try await t.placeholderPhoto(uploader: uploader)
                let response = try await t.createProduct(
                    in: f.storeAID, token: a, json: TestApp.productJSON(title: "old \(index)", category: f.shirts, photos: [photo], status: "active"))
                #expect(response.status == .created, "\(response.body.string)")
                created.append(try response.content.decode(ProductBody.self).id)
            }
            var photos: [String] = []
            for _ in 0..<20 { photos.append(try await t.placeholderPhoto(uploader: uploader)) }
            let existing = created
            let newPhotos = photos

            let base = "/api/v1/stores/\(f.storeAID)/products"
            let statuses = try await withThrowingTaskGroup(of: (String, UInt).self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let json = TestApp.productJSON(title: "new \(index)", category: f.shirts, photos: [newPhotos[index]], status: "active")
                        return ("create", try await t.createProduct(in: f.storeAID, token: a, json: json).status.code)
                    }
                }
                for id in existing[0..<10] {
                    group.addTask { ("deactivate", try await t.send(.POST, "\(base)/\(id)/deactivate", token: a).status.code) }
                }
                for id in existing[10..<15] {
                    group.addTask { ("delete", try await t.send(.DELETE, "\(base)/\(id)", token: a).status.code) }
                }
                // The same five deleted twice and deactivated at the same time: only one change counts.
                for id in existing[15..<20] {
                    group.addTask { ("delete", try await t.send(.DELETE, "\(base)/\(id)", token: a).status.code) }
                }
                for id in existing[15..<20] {
                    group.addTask { ("race", try await t.send(.POST, "\(base)/\(id)/deactivate", token: a).status.code) }
                }
                // And five deactivated twice at once.
                for id in existing[0..<5] {
                    group.addTask { ("twice", try await t.send(.POST, "\(base)/\(id)/deactivate", token: a).status.code) }
                }
                var results: [(String, UInt)] = []
                for try await result in group { results.append(result) }
                return results
            }
            #expect(statuses.count == 50)
            #expect(statuses.allSatisfy { $0.1 < 500 }, "\(statuses.filter { $0.1 >= 500 })")
            let store = try #require(try await Store.find(f.storeA.id, on: t.app.db))
            let truth = try await Product.query(on: t.app.db).filter(\.$store.$id == f.storeA.id!).filter(\.$status == "active").count()
            #expect(truth == 20 - 10 - 10 + 20)
            #expect(store.activeProductCount == truth)
        }
    }

    @Test("two products created at once with the same photo: one gets it, the other a 409, never a 500")
    func samePhotoTwice() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let a = f.ownerA.accessToken
            let photo = try await t.placeholderPhoto(uploader: f.ownerA.user.id)
            let json = TestApp.productJSON(category: f.shirts, photos: [photo], status: "active")
            let codes = try await withThrowingTaskGroup(of: UInt.self) { group in
                for _ in 0..<4 { group.addTask { try await t.createProduct(in: f.storeAID, token: a, json: json).status.code } }
                var codes: [UInt] = []
                for try await code in group { codes.append(code) }
                return codes.sorted()
            }
            #expect(codes.filter { $0 == 201 }.count == 1, "\(codes)")
            #expect(codes.allSatisfy { $0 == 201 || $0 == 409 || $0 == 422 }, "\(codes)")
            #expect(try await ProductPhoto.query(on: t.app.db).count() == 1)
            #expect(try await Store.find(f.storeA.id, on: t.app.db)?.activeProductCount == 1)
        }
    }
}
