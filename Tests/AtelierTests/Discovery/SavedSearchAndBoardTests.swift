import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct BoardBody: Decodable {
    var id: String
    var name: String
    var isPublic: Bool
    var itemCount: Int
    var webUrl: String
}

@Suite("Discovery: saved searches and boards")
struct SavedSearchAndBoardTests {
    @Test("a saved search's matches flow into the following feed and leave the discover feed")
    func savedSearchInFeeds() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let shopper = try await t.signUp(name: "Searcher")
            let linenA = try await t.product(.init(title: "Linen trousers", category: f.tops), in: f.storeA, owner: f.ownerA)
            let woolA = try await t.product(.init(title: "Wool trousers", category: f.tops), in: f.storeA, owner: f.ownerA)
            let linenB = try await t.product(.init(title: "Linen dress", category: f.tops), in: f.storeB, owner: f.ownerB)
            let token = shopper.accessToken
            #expect(try await t.readFeed("/api/v1/feed/following", token: token).isEmpty)

            let json = #"{"name":"Linen at A","filters":{"q":"linen","storeIds":["\#(f.storeAID)"]}}"#
            let created = try await t.send(.POST, "/api/v1/me/follows/searches", json: json, token: token)
            #expect(created.status == .created, "\(created.body.string)")
            #expect(created.body.string.contains("/search?q=linen&storeId="))
            let following = try await t.readFeed("/api/v1/feed/following", token: token)
            #expect(following == [linenA.id!.idString])
            let discover = Set(try await t.readFeed("/api/v1/feed/discover", token: token))
            #expect(!discover.contains(linenA.id!.idString))
            #expect(discover.isSuperset(of: [woolA.id!.idString, linenB.id!.idString]))

            let follows = try await t.send(.GET, "/api/v1/me/follows", token: token)
            #expect(follows.body.string.contains("Linen at A"))
            #expect(try await t.send(.POST, "/api/v1/me/follows/searches", json: json, token: token).status == .conflict)
            let badColour = #"{"name":"Teal","filters":{"colors":["teal"]}}"#
            #expect(try await t.send(.POST, "/api/v1/me/follows/searches", json: badColour, token: token).status == .unprocessableEntity)
            let nothing = #"{"name":"Everything","filters":{}}"#
            let everything = try await t.send(.POST, "/api/v1/me/follows/searches", json: nothing, token: token)
            #expect(everything.status == .unprocessableEntity && everything.body.string.contains("\"filters\""))
            let noName = #"{"name":" ","filters":{"q":"x"}}"#
            #expect(try await t.send(.POST, "/api/v1/me/follows/searches", json: noName, token: token).status == .unprocessableEntity)

            struct Created: Decodable { var id: String }
            let id = try created.content.decode(Created.self).id
            let other = try await t.signUp(name: "Other")
            #expect(try await t.send(.DELETE, "/api/v1/me/follows/searches/\(id)", token: other.accessToken).status == .notFound)
            #expect(try await t.send(.DELETE, "/api/v1/me/follows/searches/\(id)", token: token).status == .noContent)
            #expect(try await t.readFeed("/api/v1/feed/following", token: token).isEmpty)
            #expect(try await t.send(.DELETE, "/api/v1/me/follows/searches/\(id)", token: token).status == .notFound)
        }
    }

    @Test("boards: private to their owner until made public; items follow the products' visibility")
    func boards() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let owner = try await t.signUp(name: "Collector")
            let stranger = try await t.signUp(name: "Stranger")
            let product = try await t.product(.init(title: "Silk scarf", category: f.tops), in: f.storeA, owner: f.ownerA)
            let created = try await t.send(.POST, "/api/v1/me/boards", json: #"{"name":"Summer"}"#, token: owner.accessToken)
            #expect(created.status == .created, "\(created.body.string)")
            let board = try created.content.decode(BoardBody.self)
            #expect(!board.isPublic && board.itemCount == 0)
            #expect(board.webUrl.hasSuffix("/boards/\(board.id.lowercased())"))

            let path = "/api/v1/boards/\(board.id)"
            #expect(try await t.send(.GET, path, token: stranger.accessToken).status == .notFound)
            #expect(try await t.send(.GET, path).status == .notFound)
            #expect(try await t.send(.GET, "\(path)/items").status == .notFound)
            for _ in 0..<2 {
                #expect(try await t.send(.PUT, "\(path)/items/\(product.id!)", token: owner.accessToken).status == .noContent)
            }
            #expect(try await t.send(.PUT, "\(path)/items/\(product.id!)", token: stranger.accessToken).status == .notFound)
            #expect(try await t.send(.PUT, "\(path)/items/\(UUID())", token: owner.accessToken).status == .notFound)
            #expect(try await t.send(.GET, path, token: owner.accessToken).content.decode(BoardBody.self).itemCount == 1)

            let shared = try await t.send(.PATCH, path, json: #"{"isPublic":true}"#, token: owner.accessToken)
            #expect(shared.status == .ok)
            #expect(try await t.send(.GET, path).content.decode(BoardBody.self).isPublic)
            let items = try await t.send(.GET, "\(path)/items").content.decode(ProductCardPageBody.self)
            #expect(items.items.map(\.id) == [product.id!.idString])
            #expect(try await t.send(.PATCH, path, json: #"{"name":"Mine now"}"#, token: stranger.accessToken).status == .notFound)

            // A product taken off sale leaves the board's listing and count.
            _ = try await ProductService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media).setStatus(product, to: .inactive)
            #expect(try await t.send(.GET, path).content.decode(BoardBody.self).itemCount == 0)
            #expect(try await t.send(.GET, "\(path)/items").content.decode(ProductCardPageBody.self).items.isEmpty)

            #expect(try await t.send(.POST, "/api/v1/me/boards", json: #"{"name":"summer"}"#, token: owner.accessToken).status == .conflict)
            #expect(try await t.send(.POST, "/api/v1/me/boards", json: #"{"name":""}"#, token: owner.accessToken).status == .unprocessableEntity)
            #expect(try await t.send(.DELETE, path, token: stranger.accessToken).status == .notFound)
            #expect(try await t.send(.DELETE, path, token: owner.accessToken).status == .noContent)
            #expect(try await t.send(.GET, path, token: owner.accessToken).status == .notFound)
        }
    }
}
