import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import Atelier

@Suite("Product cards in lists, gzip of large answers (issue 19)", .serialized)
struct ProductCardTests {
    /// Gives the product's photo JPEG and WebP variants at three widths (the test photos have none).
    private func addVariants(to product: Product, _ t: TestApp) async throws {
        let variants = [270, 540, 1080].flatMap { width in
            ["jpeg", "webp"].map { MediaVariant(width: width, height: width * 4 / 3, format: $0, key: "ab/card/\(width).\($0 == "jpeg" ? "jpg" : "webp")") }
        }
        let json = String(decoding: try JSONEncoder().encode(variants), as: UTF8.self)
        try await t.app.db.sql.raw("""
            UPDATE media SET variants = \(bind: json) WHERE id IN (SELECT media_id FROM product_photos WHERE product_id = \(bind: product.id!))
            """).run()
    }

    @Test("a list item is a card: the first photo as a JPEG near 540 px and a WebP srcset, price, store; nothing of the product page")
    func cardShape() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let product = try await t.product(.init(title: "Wool coat", category: f.shirts, price: 120_000), in: f.storeA, owner: f.ownerA)
            try await addVariants(to: product, t)

            let response = try await t.send(.GET, "/api/v1/products?categoryId=\(f.women.id!.idString)")
            #expect(response.status == .ok)
            let raw = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            let item = try #require((raw["items"] as? [[String: Any]])?.first)
            // The product page's parts stay out of lists.
            for key in ["variants", "photos", "description", "brand", "category", "colors"] { #expect(item[key] == nil, "\(key)") }
            let page = try response.content.decode(ProductCardPageBody.self)
            let card = try #require(page.items.first)
            #expect(card.id == product.id!.idString)
            #expect(card.title == "Wool coat" && card.price.amount == 120_000 && card.store.name == f.storeA.name)
            #expect(card.store.distanceMeters == nil)  // the list is about no place
            let photo = try #require(card.photo)
            #expect(photo.src.hasSuffix("540.jpg") || photo.src.contains("540.jpg"))
            let widths = photo.srcset.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ").last.map(String.init) }
            #expect(widths == ["270w", "540w", "1080w"])
            #expect(photo.srcset.split(separator: ",").allSatisfy { $0.contains(".webp") })
            #expect(card.webUrl.hasSuffix("/products/\(product.id!.uuidString.lowercased())"))
        }
    }

    @Test("a search about a place gives each card the distance to its store")
    func distance() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            _ = try await t.product(.init(title: "Linen shirt", category: f.shirts), in: f.storeA, owner: f.ownerA)
            let (lat, lng) = (57.7089, 11.9746)
            let results = try await t.send(.GET, "/api/v1/search/products?q=linen&lat=\(lat)&lng=\(lng)&radiusKm=5").content.decode(SearchResultsBody.self)
            let card = try #require(results.items.first)
            let expected = Int((Geo.distanceKm(lat1: lat, lng1: lng, lat2: f.storeA.lat, lng2: f.storeA.lng) * 1000).rounded())
            #expect(card.store.distanceMeters == expected)
            #expect(expected > 300 && expected < 2000)
            let plain = try await t.send(.GET, "/api/v1/search/products?q=linen").content.decode(SearchResultsBody.self)
            #expect(plain.items.first?.store.distanceMeters == nil)
        }
    }

    @Test("large JSON answers are gzip-compressed for clients that accept it, and only for them")
    func gzip() async throws {
        try await TestApp.with(adjust: { $0.gzipMinimumBytes = 300 }) { t in
            let f = try await t.catalogFixture()
            for index in 0..<3 {
                _ = try await t.product(.init(title: "Coat \(index)", category: f.shirts), in: f.storeA, owner: f.ownerA)
            }
            t.app.http.server.configuration.hostname = "127.0.0.1"
            t.app.http.server.configuration.port = 0
            try t.app.server.start()
            let port = try #require(t.app.http.server.shared.localAddress?.port)
            let url = URI(string: "http://127.0.0.1:\(port)/api/v1/products?limit=20")
            let plain = try await t.app.client.get(url)
            let zipped = try await t.app.client.get(url, headers: ["Accept-Encoding": "gzip"])
            let small = try await t.app.client.get(URI(string: "http://127.0.0.1:\(port)/health"), headers: ["Accept-Encoding": "gzip"])
            await t.app.server.shutdown()

            #expect(plain.status == .ok && zipped.status == .ok)
            #expect(plain.headers.first(name: .contentEncoding) == nil)
            #expect(zipped.headers.first(name: .contentEncoding) == "gzip")
            #expect(zipped.headers.first(name: .vary)?.contains("Accept-Encoding") == true)
            let plainBytes = plain.body?.readableBytes ?? 0
            #expect(plainBytes >= 300)
            #expect((zipped.body?.readableBytes ?? .max) < plainBytes)
            #expect(zipped.headers.first(name: .eTag) == plain.headers.first(name: .eTag))
            #expect(small.headers.first(name: .contentEncoding) == nil)  // under the threshold
        }
    }

    @Test("a card shows the product's first photo in the store's order, in lists, search and the web, with the brand on the web")
    func firstPhoto() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let user = try #require(try await User.find(UUID(uuidString: f.ownerA.user.id), on: t.app.db))
            let front = try await t.placeholderPhoto(uploader: f.ownerA.user.id), back = try await t.placeholderPhoto(uploader: f.ownerA.user.id)
            var draft = ProductDraft(
                title: "Velvet blazer", description: "", brandID: f.brand.id, categoryID: f.shirts.id, gender: "women",
                priceMinor: 99_000, originalPriceMinor: nil, currency: "SEK", colors: ["black"], colorName: "", fabric: "", styles: [],
                variants: [.init(size: "M", color: nil, stock: 2, sku: nil)], photoIDs: [front, back].map { UUID(uuidString: $0)! },
                status: .active)
            let service = ProductService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media)
            let product = try await service.create(in: f.storeA, draft: draft, by: user)

            func shownPhotos() async throws -> [String?] {
                let list = try await t.send(.GET, "/api/v1/products?categoryId=\(f.women.id!.idString)").content.decode(ProductCardPageBody.self)
                let found = try await t.search("q=velvet").items
                let web = try await t.send(.GET, "/search?q=velvet").body.string
                #expect(web.contains("Velvet blazer") && web.contains(f.brand.name))
                let onWeb = [front, back].filter { web.contains($0) }
                return [list.items.first?.photo?.id, found.first?.photo?.id, onWeb.count == 1 ? onWeb[0] : nil]
            }
            // The web card draws the photo from its variants' keys, which do not name the media, so the test
            // tells the two apart by giving each its own keys.
            for (id, name) in [(front, "front"), (back, "back")] {
                let keys = [270, 540].flatMap { width in
                    ["jpeg", "webp"].map { MediaVariant(width: width, height: width, format: $0, key: "ab/\(name)-\(id)/\(width).\($0)") }
                }
                try await t.app.db.sql.raw("""
                    UPDATE media SET variants = \(bind: String(decoding: try JSONEncoder().encode(keys), as: UTF8.self)), visibility = 'public'
                    WHERE id = \(bind: UUID(uuidString: id)!)
                    """).run()
            }
            #expect(try await shownPhotos() == [front, front, front])
            draft.photoIDs.reverse()
            _ = try await service.replace(product, draft: draft, by: user)
            #expect(try await shownPhotos() == [back, back, back])
        }
    }
}
