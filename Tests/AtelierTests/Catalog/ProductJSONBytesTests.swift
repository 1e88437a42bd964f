import AtelierServerAPI
import Crypto
import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import Testing
import VaporTesting

@testable import Atelier

/// The product page and the browse list are written by `JSONBytes` (issue 19): the same bytes as
/// the generated server's encoder, every property of the contract included.
@Suite("Product pages and lists written as JSON bytes")
struct ProductJSONBytesTests {
    private static let text = "Wool \"coat\" / jacka åäö 😀\nline\t\\ \u{1}"

    private static func image(_ n: Int) -> Components.Schemas.Image {
        .init(
            id: UUID().idString, width: 1080 + n, height: 1440, dominantColor: "#a0b0c0", placeholder: "data:image/jpeg;base64,/9j/4AAQ+a/b==",
            variants: [.init(width: 270, height: 360, url: "https://cdn.example/a/\(n)/270.jpg", format: .jpeg),
                       .init(width: 540, height: 720, url: "https://cdn.example/a/\(n)/540.webp?x=1&y=2", format: .webp)])
    }

    private static let rating = Components.Schemas.Rating(average: 11.0 / 3.0, count: 3)

    /// A product with every optional property set.
    static let fullProduct = Components.Schemas.Product(
        id: UUID().idString,
        store: .init(id: UUID().idString, name: text, slug: "store-a", city: "Göteborg", logo: image(1)),
        brand: .init(id: UUID().idString, name: "Brand/B", slug: "brand-b", logo: image(2), status: .approved, followerCount: 12,
                      viewer: .init(following: true)),
        category: .init(id: UUID().idString, name: "Shirts", gender: .women, trail: ["Women", "Tops", "Shirts"]),
        title: text, description: "A \"long\" description\r\nwith lines", gender: .unisex,
        price: .init(amount: 129_900, currency: "SEK"), originalPrice: .init(amount: 199_900, currency: "SEK"),
        colors: ["navy", "white"], colorName: "Navy/white", fabric: "100 % wool", styles: ["classic", "casual"],
        variants: [.init(id: UUID().idString, size: "M", color: "navy", stock: 3, available: 2, sku: "SKU-1/M"),
                   .init(id: UUID().idString, size: "L", color: "white", stock: 0, available: 0, sku: "SKU-1/L")],
        photos: [image(3), image(4)], status: .active, minAge: 18, externalUrl: "https://shop.example/p/1?ref=a",
        tradePrice: .init(amount: 90_000, currency: "SEK"), caseSize: 6, rating: rating, likeCount: 42,
        webUrl: "https://atelier.example/products/1", createdAt: Date(timeIntervalSince1970: 1_795_000_000),
        updatedAt: Date(timeIntervalSince1970: 1_795_000_123),
        viewer: .init(liked: true, boardIds: [UUID().idString, UUID().idString], cartQuantity: 3))

    /// A card with every optional property set.
    static let fullCard = Components.Schemas.ProductCard(
        id: UUID().idString, store: .init(id: UUID().idString, name: text, slug: "store-a", city: "Göteborg", distanceMeters: 270),
        title: text, gender: .men, price: .init(amount: 49_900, currency: "EUR"), originalPrice: .init(amount: 59_900, currency: "EUR"),
        photo: .init(id: UUID().idString, width: 1080, height: 1440, dominantColor: "#102030", src: "https://cdn.example/540.jpg",
                     srcset: "https://cdn.example/270.webp 270w, https://cdn.example/540.webp 540w"),
        rating: rating, likeCount: 0, webUrl: "https://atelier.example/products/2", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
        tradePrice: .init(amount: 39_900, currency: "EUR"), caseSize: 12, viewer: .init(liked: false, boardIds: [], cartQuantity: 0))

    static let minimalCard = Components.Schemas.ProductCard(
        id: UUID().idString, store: .init(id: UUID().idString, name: "S", slug: "s", city: "C"), title: "", gender: .women,
        price: .init(amount: 0, currency: "SEK"), likeCount: 7, webUrl: "u", createdAt: Date(timeIntervalSince1970: 0))

    /// The paths of optional properties that are nil in `value`, however deep.
    static func missing(in value: Any, at path: String = "") -> [String] {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return [path] }
            return missing(in: wrapped, at: path)
        }
        return mirror.children.enumerated().flatMap { index, child in
            missing(in: child.value, at: path + "." + (child.label ?? String(index)))
        }
    }

    @Test("a product and a card page with every property: the fixtures leave nothing out, and the bytes are the encoder's")
    func everyProperty() async throws {
        #expect(Self.missing(in: Self.fullProduct) == [])
        #expect(Self.missing(in: Self.fullCard) == [])
        let fullPage = Components.Schemas.ProductCardPage(items: [Self.fullCard, Self.minimalCard], nextCursor: "abc/def=")
        #expect(Self.missing(in: fullPage).allSatisfy { $0.hasPrefix(".items.1.") })

        #expect(try JSONBytesTests.writerBytes(Self.fullProduct) == (try await JSONBytesTests.encoderBytes(Self.fullProduct)))
        var bare = Self.fullProduct
        (bare.brand, bare.originalPrice, bare.minAge, bare.externalUrl, bare.tradePrice, bare.caseSize, bare.rating) = (nil, nil, nil, nil, nil, nil, nil)
        (bare.store.logo, bare.variants, bare.photos, bare.colors, bare.styles, bare.viewer) = (nil, [], [], [], [], nil)
        #expect(try JSONBytesTests.writerBytes(bare) == (try await JSONBytesTests.encoderBytes(bare)))
        for page in [fullPage, .init(items: [Self.minimalCard], nextCursor: nil), .init(items: [])] {
            #expect(try JSONBytesTests.writerBytes(page) == (try await JSONBytesTests.encoderBytes(page)))
        }
    }

    @Test("the replaced operations read every parameter the contract gives them")
    func everyParameter() throws {
        // The generated input types follow the contract: a parameter added there appears here, and
        // the replacement must read it (a new optional one would otherwise be silently ignored).
        let converter = Converter(configuration: APIRoutes.configuration)
        let names = Mirror(reflecting: Operations.ListProducts.Input.Query()).children.compactMap(\.label)
        #expect(names.count >= 6)
        var request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/api/v1/products?" + names.map { "\($0)=1" }.joined(separator: "&"))
        request.headerFields[.accept] = "application/json"
        let list = try APIHandler.listProductsInput(request, converter)
        #expect(Self.missing(in: list) == [], "parameters of listProducts the replacement does not read")

        let pathNames = Mirror(reflecting: Operations.GetProduct.Input.Path(productId: "")).children.compactMap(\.label)
        let metadata = ServerRequestMetadata(pathParameters: Dictionary(uniqueKeysWithValues: pathNames.map { ($0, Substring("1")) }))
        let page = try APIHandler.getProductInput(request, metadata, converter)
        #expect(Self.missing(in: page) == [] && page.path.productId == "1" && !page.headers.accept.isEmpty)
    }

    /// The body re-encoded by the generated server's encoder after decoding it as the contract's type.
    private func expectEncoderBytes<T: Codable & Sendable>(_ response: TestingHTTPResponse, as type: T.Type) async throws {
        #expect(response.status == .ok, "\(response.body.string)")
        #expect(response.headers.contentType?.description.hasPrefix("application/json") == true)
        let bytes = Array(response.body.readableBytesView)
        let decoder = JSONDecoder()
        let dates = APIRoutes.configuration.dateTranscoder
        decoder.dateDecodingStrategy = .custom { try dates.decode($0.singleValueContainer().decode(String.self)) }
        let decoded = try decoder.decode(T.self, from: Data(bytes))
        #expect(bytes == (try await JSONBytesTests.encoderBytes(decoded)), "\(response.body.string)")
    }

    @Test("GET /products/{id} and GET /products answer the encoder's bytes; bad input is the same problem as before")
    func throughTheServer() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let coat = try await t.product(.init(title: Self.text, category: f.shirts, brand: f.brand, price: 120_000, originalPrice: 150_000), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(.init(title: "Linen shirt", category: f.shirts), in: f.storeB, owner: f.ownerB)

            // Asked for as HTML only: 406, before and after the JSON answer is kept (ProductListTests).
            let html = try await t.send(.GET, "/api/v1/products/\(coat.id!.idString)", headers: [("Accept", "text/html")])
            #expect(html.status == .notAcceptable, "\(html.status) \(html.body.string)")
            let page = try await t.send(.GET, "/api/v1/products/\(coat.id!.idString)")
            try await expectEncoderBytes(page, as: Components.Schemas.Product.self)
            #expect(page.headers.first(name: .eTag) != nil)
            let first = try await t.send(.GET, "/api/v1/products?categoryId=\(f.women.id!.idString)&limit=1")
            try await expectEncoderBytes(first, as: Components.Schemas.ProductCardPage.self)
            let cursor = try #require(try first.content.decode(Components.Schemas.ProductCardPage.self).nextCursor)
            let last = try await t.send(.GET, "/api/v1/products?categoryId=\(f.women.id!.idString)&limit=1&cursor=\(cursor)")
            try await expectEncoderBytes(last, as: Components.Schemas.ProductCardPage.self)
            #expect(try last.content.decode(Components.Schemas.ProductCardPage.self).nextCursor == nil)

            #expect(try await t.send(.GET, "/api/v1/products/not-an-id").status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/products/\(UUID().idString)").status == .notFound)
            let badLimit = try await t.send(.GET, "/api/v1/products?limit=many")
            #expect(badLimit.status == .badRequest, "\(badLimit.body.string)")
            let badPrice = try await t.send(.GET, "/api/v1/products?priceMin=500&priceMax=100")
            #expect(badPrice.status.code == 422 || badPrice.status == .badRequest, "\(badPrice.body.string)")
            #expect(try badPrice.problem().fields.contains("priceMax"))
        }
    }

    /// `ConditionalGETMiddleware` takes these answers as `JSONBytesTransport` wrote them
    /// (`WrittenAnswer`) rather than reading back their stream: the tag must still be that of the
    /// bytes the client gets, and every one of the four answers must have been taken as written.
    @Test("both answers carry the ETag of the bytes sent, answer 304 to it, and are taken as written")
    func etags() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let coat = try await t.product(.init(title: Self.text, category: f.shirts, brand: f.brand, price: 120_000), in: f.storeA, owner: f.ownerA)
            let counts = t.app.core.writtenAnswers
            let (taken, collected) = (counts.taken, counts.collected)
            for path in ["/api/v1/products/\(coat.id!.idString)", "/api/v1/products?categoryId=\(f.women.id!.idString)&limit=5"] {
                let answer = try await t.send(.GET, path)
                #expect(answer.status == .ok, "\(path): \(answer.body.string)")
                let digest = SHA256.hash(data: Data(answer.body.readableBytesView))
                let tag = "W/\"" + digest.prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
                #expect(answer.headers.first(name: .eTag) == tag, "\(path)")
                #expect(answer.headers.first(name: .contentLength) == String(answer.body.readableBytes), "\(path)")
                let again = try await t.send(.GET, path, headers: [("If-None-Match", tag)])
                #expect(again.status == .notModified, "\(path): \(again.status)")
                #expect(again.body.readableBytes == 0)
            }
            #expect(counts.taken - taken == 4)
            #expect(counts.collected == collected)
        }
    }
}
