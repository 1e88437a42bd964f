import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

@Suite("Catalog: the category tree")
struct CategoryTreeTests {
    @Test("moving a category moves its subtree; a top category's products include all its descendants'")
    func subtree() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let a = f.ownerA.accessToken
            var ids: [String: String] = [:]
            for (name, category) in [("shirt", f.shirts), ("top", f.tops), ("suit", f.men)] {
                let photo = try await t.uploadPhoto(token: a)
                let response = try await t.createProduct(
                    in: f.storeAID, token: a, json: TestApp.productJSON(title: name, category: category, photos: [photo], status: "active"))
                #expect(response.status == .created, "\(response.body.string)")
                ids[name] = try response.content.decode(ProductBody.self).id
            }
            func products(under category: Category) async throws -> Set<String> {
                let page = try await t.send(.GET, "/api/v1/products?categoryId=\(category.id!.idString)").content.decode(ProductCardPageBody.self)
                return Set(page.items.map(\.title))
            }
            #expect(try await products(under: f.women) == ["shirt", "top"])
            #expect(try await products(under: f.tops) == ["shirt", "top"])
            #expect(try await products(under: f.men) == ["suit"])

            // Tops (with Shirts under it) moves below Men.
            let moved = try await t.send(
                .POST, "/api/v1/categories/\(f.tops.id!.idString)/move", json: #"{"parentId":"\#(f.men.id!.idString)"}"#, token: f.admin.accessToken)
            #expect(moved.status == .ok, "\(moved.body.string)")
            #expect(try await products(under: f.women) == [])
            #expect(try await products(under: f.men) == ["shirt", "top", "suit"])
            let shirts = try #require(try await Category.find(f.shirts.id, on: t.app.db))
            #expect(shirts.depth == 2)
            #expect(shirts.path.hasPrefix(f.men.path))
            let product = try await t.send(.GET, "/api/v1/products/\(ids["shirt"]!)").content.decode(ProductBody.self)
            #expect(product.category.trail == [f.men.name, "Tops", "Shirts"])

            // Not under itself; only admins.
            let loop = try await t.send(
                .POST, "/api/v1/categories/\(f.men.id!.idString)/move", json: #"{"parentId":"\#(f.shirts.id!.idString)"}"#, token: f.admin.accessToken)
            #expect(loop.status == .conflict)
            let notAdmin = try await t.send(.POST, "/api/v1/categories/\(f.tops.id!.idString)/move", json: "{}", token: a)
            #expect(notAdmin.status == .forbidden)
        }
    }

    @Test("merging moves products and children; a category with products cannot be deleted")
    func mergeAndDelete() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let photo = try await t.uploadPhoto(token: f.ownerA.accessToken)
            _ = try await t.createProduct(
                in: f.storeAID, token: f.ownerA.accessToken, json: TestApp.productJSON(category: f.tops, photos: [photo], status: "active"))
            let admin = f.admin.accessToken
            #expect(try await t.send(.DELETE, "/api/v1/categories/\(f.tops.id!.idString)", token: admin).status == .conflict)
            let merged = try await t.send(
                .POST, "/api/v1/categories/\(f.tops.id!.idString)/merge", json: #"{"intoId":"\#(f.men.id!.idString)"}"#, token: admin)
            #expect(merged.status == .ok, "\(merged.body.string)")
            #expect(try await Category.find(f.tops.id, on: t.app.db) == nil)
            #expect(try await Category.find(f.shirts.id, on: t.app.db)?.parentID == f.men.id)
            #expect(try await Product.query(on: t.app.db).filter(\.$categoryID == f.men.id!).count() == 1)
            #expect(try await t.send(.DELETE, "/api/v1/categories/\(f.women.id!.idString)", token: admin).status == .noContent)
        }
    }

    @Test("a category's page is one statement: each category of the subtree read newest first from its index")
    func queryPlan() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let catalog = ProductCatalog(db: t.app.db)
            let subtree = try #require(try await catalog.subtreeIDs(of: f.women.requireID()))
            #expect(Set(subtree) == Set([f.women.id!, f.tops.id!, f.shirts.id!]))
            #expect(try await catalog.subtreeIDs(of: UUID()) == nil)
            let filter = ProductCatalog.ListFilter(categoryID: f.women.id, priceMin: 20000, priceMax: 80000)
            let condition = catalog.activeProductsCondition(filter, categoryIDs: subtree, page: try PageRequest(limit: 20, cursor: nil))
            let query: SQLQueryString = "SELECT p.id FROM products p WHERE \(condition) ORDER BY p.id DESC LIMIT 21"
            let sql = t.app.db.sql
            let prefix: SQLQueryString = sql.dialect.name == "postgresql" ? "EXPLAIN (COSTS OFF) " : "EXPLAIN QUERY PLAN "
            let explain = prefix + query
            let rows = try await sql.raw(explain).all()
            let plan = try rows.map { row -> String in
                let column = sql.dialect.name == "postgresql" ? "QUERY PLAN" : "detail"
                return try row.decode(column: column, as: String.self)
            }.joined(separator: "\n")
            print("Subtree query plan (\(sql.dialect.name)):\n\(plan)")
            if sql.dialect.name == "sqlite" {
                // Every branch walks one category's products in id order; none scans the products.
                #expect(plan.components(separatedBy: "products_category_status_idx").count - 1 >= subtree.count)
                #expect(!plan.contains("SCAN p\n") && !plan.hasSuffix("SCAN p"))
            } else {
                // A fresh, tiny table may be read sequentially by the planner; the statement is one
                // query either way. With sequential scans off the path index must be usable.
                let forced = try await t.app.db.withConnection { connection in
                    let session = connection.sql
                    try await session.raw("SET enable_seqscan = off").run()
                    defer { _ = session.raw("SET enable_seqscan = on").run() }
                    return try await session.raw(explain).all().map { try $0.decode(column: "QUERY PLAN", as: String.self) }
                }.joined(separator: "\n")
                print("With enable_seqscan off:\n\(forced)")
                #expect(forced.contains("products_category_status_idx"))
            }

            // Without a category: the newest products, walked in id order and stopped after a page, never
            // all of them sorted (an index covering the filter, such as the feed index, must not tempt the
            // planner into that).
            if sql.dialect.name == "sqlite" {
                let newest = catalog.activeProductsCondition(.init(), categoryIDs: nil, page: try PageRequest(limit: 20, cursor: nil))
                let plan = try await sql.raw("EXPLAIN QUERY PLAN SELECT p.id FROM products p WHERE \(newest) ORDER BY p.id DESC LIMIT 21").all()
                    .map { try $0.decode(column: "detail", as: String.self) }.joined(separator: "\n")
                print("Newest products plan:\n\(plan)")
                #expect(!plan.contains("TEMP B-TREE FOR ORDER BY"))
            }
        }
    }

    /// A product's category trail is read up the parents, each step to a lower depth: a parent chain
    /// broken into a loop (by hand, in the database) still ends, and the trail is the one the depths give.
    @Test("a product's trail follows the parents and ends on a parent chain broken into a loop")
    func trailOnALoop() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let shirt = try await t.product(.init(title: "shirt", category: f.shirts), in: f.storeA, owner: f.ownerA)
            let path = "/api/v1/products/\(shirt.id!.idString)"
            #expect(try await t.send(.GET, path).content.decode(ProductBody.self).category.trail == [f.women.name, "Tops", "Shirts"])

            let sql = t.app.db.sql
            try await sql.update(Category.schema).set("parent_id", to: f.shirts.id!).where("id", .equal, f.women.id!).run()
            let looped: TestingHTTPResponse
            do {
                looped = try await t.send(.GET, path)
            } catch {
                try await sql.update(Category.schema).set("parent_id", to: SQLLiteral.null).where("id", .equal, f.women.id!).run()
                throw error
            }
            // Mended at once for the tests that share the database (on PostgreSQL).
            try await sql.update(Category.schema).set("parent_id", to: SQLLiteral.null).where("id", .equal, f.women.id!).run()
            #expect(looped.status == .ok)
            #expect(try looped.content.decode(ProductBody.self).category.trail == [f.women.name, "Tops", "Shirts"])
        }
    }
}
