import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// Signed-in reads say what the caller did (issue 51): an app loading a product draws the filled
/// heart, the boards it is on and the cart badge; one loading a store or brand draws "Following".
@Suite("Discovery: viewer state on products, cards, stores, brands, boards and articles")
struct ViewerStateTests {
    @Test("a product, its card in every list, its store and brand say what the caller did; signed out they say nothing")
    func productsStoresBrands() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let settings = try await t.send(.PUT, "/api/v1/stores/\(f.storeAID)/commerce", json: TestApp.settings(), token: f.ownerA.accessToken)
            #expect(settings.status == .ok, "\(settings.body.string)")
            let liked = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, brand: f.brand, title: "Liked shirt")
            let other = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, title: "Other shirt")
            let ana = try await t.signUp(name: "Ana"), ben = try await t.signUp(name: "Ben")
            #expect(try await t.send(.PUT, "/api/v1/products/\(liked.id)/like", token: ana.accessToken).status == .ok)
            let board = try await t.send(.POST, "/api/v1/me/boards", json: #"{"name":"Summer"}"#, token: ana.accessToken)
            let boardID = try t.object(board)["id"] as? String ?? ""
            #expect(try await t.send(.PUT, "/api/v1/boards/\(boardID)/items/\(liked.id)", token: ana.accessToken).status == .noContent)
            let variants = try t.object(try await t.send(.GET, "/api/v1/products/\(liked.id)"))["variants"] as? [[String: Any]] ?? []
            for variant in variants {
                #expect(try await t.addToCart(variant["id"] as? String ?? "", quantity: 1, token: ana.accessToken).status.code < 300)
            }
            #expect(try await t.send(.PUT, "/api/v1/me/follows/stores/\(f.storeAID)", token: ana.accessToken).status == .ok)
            #expect(try await t.send(.PUT, "/api/v1/me/follows/brands/\(f.brand.id!.idString)", token: ana.accessToken).status == .ok)

            // The product page.
            let product = try t.object(try await t.send(.GET, "/api/v1/products/\(liked.id)", token: ana.accessToken))
            let viewer = try #require(product["viewer"] as? [String: Any])
            #expect(viewer["liked"] as? Bool == true)
            #expect(viewer["boardIds"] as? [String] == [boardID])
            #expect(viewer["cartQuantity"] as? Int == variants.count)
            // Someone else sees their own (empty) state; signed out there is none.
            let benView = try t.object(try await t.send(.GET, "/api/v1/products/\(liked.id)", token: ben.accessToken))["viewer"] as? [String: Any]
            #expect(benView?["liked"] as? Bool == false && (benView?["boardIds"] as? [String])?.isEmpty == true && benView?["cartQuantity"] as? Int == 0)
            #expect(try t.object(try await t.send(.GET, "/api/v1/products/\(liked.id)"))["viewer"] == nil)

            // Cards, in the browse list, search, the store's tab and a board.
            let lists = [
                "/api/v1/products?categoryId=\(f.shirts.id!.idString)", "/api/v1/search/products?q=shirt",
                "/api/v1/boards/\(boardID)/items", "/api/v1/stores/\(f.storeAID)/products", "/api/v1/me/lookbook",
            ]
            for path in lists {
                let items = try t.object(try await t.send(.GET, path, token: ana.accessToken))["items"] as? [[String: Any]] ?? []
                let card = try #require(items.first { $0["id"] as? String == liked.id }, "\(path)")
                let state = card["viewer"] as? [String: Any]
                #expect(state?["liked"] as? Bool == true, "\(path)")
                #expect(state?["cartQuantity"] as? Int == variants.count, "\(path)")
                if let plain = items.first(where: { $0["id"] as? String == other.id }) {
                    #expect((plain["viewer"] as? [String: Any])?["liked"] as? Bool == false, "\(path)")
                }
                let signedOut = try t.object(try await t.send(.GET, path.contains("/me/") ? "/api/v1/products" : path))["items"] as? [[String: Any]] ?? []
                #expect(signedOut.allSatisfy { $0["viewer"] == nil }, "\(path)")
            }

            // Stores and brands: following.
            let store = try t.object(try await t.send(.GET, "/api/v1/stores/\(f.storeAID)", token: ana.accessToken))
            #expect((store["viewer"] as? [String: Any])?["following"] as? Bool == true)
            let storeB = try t.object(try await t.send(.GET, "/api/v1/stores/\(f.storeB.id!.idString)", token: ana.accessToken))
            #expect((storeB["viewer"] as? [String: Any])?["following"] as? Bool == false)
            #expect(try t.object(try await t.send(.GET, "/api/v1/stores/\(f.storeAID)"))["viewer"] == nil)
            let brands = try t.object(try await t.send(.GET, "/api/v1/brands?q=Brand", token: ana.accessToken))["items"] as? [[String: Any]] ?? []
            let brand = try #require(brands.first { $0["id"] as? String == f.brand.id!.idString })
            #expect((brand["viewer"] as? [String: Any])?["following"] as? Bool == true)
            #expect((product["brand"] as? [String: Any])?["id"] as? String == f.brand.id!.idString)
            let follows = try t.object(try await t.send(.GET, "/api/v1/me/follows", token: ana.accessToken))
            #expect((follows["stores"] as? [[String: Any]])?.allSatisfy { ($0["viewer"] as? [String: Any])?["following"] as? Bool == true } == true)

            // Boards: whose it is.
            #expect((try t.object(try await t.send(.GET, "/api/v1/boards/\(boardID)", token: ana.accessToken))["viewer"] as? [String: Any])?["owner"] as? Bool == true)
            #expect(try await t.send(.PATCH, "/api/v1/boards/\(boardID)", json: #"{"isPublic":true}"#, token: ana.accessToken).status == .ok)
            #expect((try t.object(try await t.send(.GET, "/api/v1/boards/\(boardID)", token: ben.accessToken))["viewer"] as? [String: Any])?["owner"] as? Bool == false)

            // Unliking, unsaving and emptying the cart clear the marks.
            #expect(try await t.send(.DELETE, "/api/v1/products/\(liked.id)/like", token: ana.accessToken).status == .ok)
            #expect(try await t.send(.DELETE, "/api/v1/boards/\(boardID)/items/\(liked.id)", token: ana.accessToken).status == .noContent)
            let after = try t.object(try await t.send(.GET, "/api/v1/products/\(liked.id)", token: ana.accessToken))["viewer"] as? [String: Any]
            #expect(after?["liked"] as? Bool == false && (after?["boardIds"] as? [String])?.isEmpty == true)
        }
    }

    @Test("an article says whether the caller bookmarked it")
    func articles() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Reader Ana")
            let author = try await t.editor.createAuthor(name: "Ioana Marin", bios: ["en": "Editor."])
            let (_, articles) = try await t.publishedIssue(1, titles: [("Wool", nil)], by: author)
            let wool = articles[0].id!.idString
            var article = try t.object(try await t.send(.GET, "/api/v1/magazine/articles/\(wool)", token: ana.accessToken))
            #expect((article["viewer"] as? [String: Any])?["bookmarked"] as? Bool == false)
            #expect(try await t.send(.PUT, "/api/v1/magazine/articles/\(wool)/bookmark", token: ana.accessToken).status == .noContent)
            article = try t.object(try await t.send(.GET, "/api/v1/magazine/articles/\(wool)", token: ana.accessToken))
            #expect((article["viewer"] as? [String: Any])?["bookmarked"] as? Bool == true)
            #expect(try t.object(try await t.send(.GET, "/api/v1/magazine/articles/\(wool)"))["viewer"] == nil)
        }
    }

    @Test("50 people liking a product and following its store at once: every flag and both counters are exact")
    func concurrentLikesAndFollows() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let product = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts)
            let people = try await t.signUpMany(50)
            let codes = try await withThrowingTaskGroup(of: [UInt].self) { group in
                for person in people {
                    group.addTask {
                        async let like = t.send(.PUT, "/api/v1/products/\(product.id)/like", token: person.accessToken)
                        async let follow = t.send(.PUT, "/api/v1/me/follows/stores/\(f.storeAID)", token: person.accessToken)
                        return [try await like.status.code, try await follow.status.code]
                    }
                }
                var codes: [UInt] = []
                for try await pair in group { codes += pair }
                return codes
            }
            #expect(codes.allSatisfy { $0 == 200 }, "\(Set(codes))")
            let outsider = try await t.signUp(name: "Outsider")
            for person in people + [outsider] {
                let isOutsider = person.user.id == outsider.user.id
                let read = try t.object(try await t.send(.GET, "/api/v1/products/\(product.id)", token: person.accessToken))
                #expect((read["viewer"] as? [String: Any])?["liked"] as? Bool == !isOutsider)
                #expect(read["likeCount"] as? Int == 50)
                let store = try t.object(try await t.send(.GET, "/api/v1/stores/\(f.storeAID)", token: person.accessToken))
                #expect((store["viewer"] as? [String: Any])?["following"] as? Bool == !isOutsider)
                #expect(store["followerCount"] as? Int == 50)
            }
        }
    }
}

extension TestApp {
    /// A JSON object answer as a dictionary (for properties the tests' mirrors do not have).
    func object(_ response: TestingHTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], "\(response.body.string)")
    }
}
