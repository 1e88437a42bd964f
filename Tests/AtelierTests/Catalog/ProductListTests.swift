import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

@Suite("Catalog: product lists by category and price")
struct ProductListTests {
    @Test("a category's list holds its whole subtree in a price range, newest first, every product once across pages")
    func subtreeAndPrice() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            var made: [(id: String, price: Int, inWomen: Bool)] = []
            // Spread over the three categories of the Women subtree and one outside it, prices 100–900.
            for index in 0..<18 {
                let category = [f.women, f.tops, f.shirts, f.men][index % 4]
                let price = 10_000 + (index * 5_000) % 90_000
                let product = try await t.product(.init(title: "Piece \(index)", category: category, price: price), in: f.storeA, owner: f.ownerA)
                made.append((product.id!.idString, price, category.id != f.men.id))
            }
            _ = try await t.product(.init(title: "Hidden", category: f.shirts, price: 30_000, active: false), in: f.storeA, owner: f.ownerA)

            var seen: [ProductCardBody] = []
            var cursor: String?
            repeat {
                let response = try await t.send(.GET, "/api/v1/products?categoryId=\(f.women.id!)&priceMin=20000&priceMax=60000&limit=2"
                    + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(response.status == .ok, "\(response.body.string)")
                let page = try response.content.decode(ProductCardPageBody.self)
                #expect(page.items.count <= 2)
                seen += page.items
                cursor = page.nextCursor
            } while cursor != nil
            let expected = made.filter { $0.inWomen && (20_000...60_000).contains($0.price) }.map(\.id).reversed()
            #expect(seen.map(\.id) == Array(expected))
            #expect(seen.allSatisfy { (20_000...60_000).contains($0.price.amount) })
            #expect(seen.first.map { !$0.store.name.isEmpty } == true)

            // Without a category: every active product in range, newest first.
            let all = try await t.send(.GET, "/api/v1/products?priceMin=20000&priceMax=60000&limit=100")
            let allIDs = try all.content.decode(ProductCardPageBody.self).items.map(\.id)
            #expect(allIDs == Array(made.filter { (20_000...60_000).contains($0.price) }.map(\.id).reversed()))
        }
    }

    @Test("a bad price range is a 422 and an unknown category a 404")
    func badInput() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            for query in ["priceMin=-1", "priceMax=-5", "priceMin=500&priceMax=100"] {
                let response = try await t.send(.GET, "/api/v1/products?categoryId=\(f.women.id!)&\(query)")
                #expect(response.status == .unprocessableEntity, "\(query): \(response.body.string)")
            }
            #expect(try await t.send(.GET, "/api/v1/products?categoryId=\(UUID())").status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/products?priceMin=abc").status == .badRequest)
        }
    }

    @Test("signed-out list answers are kept for a moment: a catalogue write shows at once, a like within the lifetime")
    func keptAnswers() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let first = try await t.product(.init(title: "Wool scarf", category: f.tops), in: f.storeA, owner: f.ownerA)
            func likeCounts(token: String? = nil) async throws -> [Int] {
                let response = try await t.send(.GET, "/api/v1/products?limit=10", token: token)
                #expect(response.status == .ok)
                struct Page: Decodable { struct Item: Decodable { var likeCount: Int }; var items: [Item] }
                return try response.content.decode(Page.self).items.map(\.likeCount)
            }
            #expect(try await likeCounts() == [0])
            // A kept answer is not one for a client that accepts only HTML.
            let html = try await t.send(.GET, "/api/v1/products?limit=10", headers: [("Accept", "text/html")])
            #expect(html.status == .notAcceptable, "\(html.status) \(html.body.string)")
            // A like counter moved (not a catalogue write): signed out, the kept answer until it expires.
            let sql = t.app.db.sql
            try await sql.raw("UPDATE products SET like_count = 5 WHERE id = \(bind: first.id!)").run()
            #expect(try await likeCounts() == [0])
            #expect(try await likeCounts(token: f.ownerB.accessToken) == [5])
            t.clock.advance(by: TimeInterval(t.app.atelier.config.publicListCacheSeconds))
            #expect(try await likeCounts() == [5])
            // A new product is a catalogue write: shown at once.
            _ = try await t.product(.init(title: "Wool hat", category: f.tops), in: f.storeA, owner: f.ownerA)
            #expect(try await likeCounts() == [0, 5])
        }
    }
}
