import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// A store that takes orders, with one active product in sizes S and M.
struct ShopFixture {
    var catalog: CatalogFixture
    var productID: String
    var sizeS: String
    var sizeM: String

    var owner: Session { catalog.ownerA }
    var storeID: String { catalog.storeAID }
}

struct CartResponse: Decodable {
    struct Money: Decodable { var amount: Int; var currency: String }
    struct Issue: Decodable { var kind: String; var message: String; var previousPrice: Money? }
    struct Line: Decodable {
        var variantId: String
        var quantity: Int
        var unitPrice: Money
        var available: Int
        var issues: [Issue]
    }
    struct Group: Decodable { var lines: [Line]; var subtotal: Money }
    var stores: [Group]
    var totals: [Money]
    var itemCount: Int
}

struct OrderResponse: Decodable {
    struct Money: Decodable { var amount: Int; var currency: String }
    struct Event: Decodable { var from: String?; var to: String; var reason: String? }
    struct Line: Decodable { var variantId: String?; var quantity: Int; var unitPrice: Money }
    var id: String
    var number: Int
    var status: String
    var fulfilment: String
    var lines: [Line]
    var subtotal: Money
    var discount: Money
    var total: Money
    var discountCode: String?
    var holdUntil: Date?
    var history: [Event]
}

struct CheckoutResponse: Decodable {
    var orders: [OrderResponse]
}

struct VariantStockResponse: Decodable {
    var onHand: Int
    var held: Int
    var allocated: Int
    var available: Int
}

extension TestApp {
    static let settingsJSON = """
        {"orderingEnabled":true,"reserveEnabled":true,"reserveHours":48,"reserveMaxItems":5,"pickupEnabled":true,
        "pickupPreparationMinutes":60,"deliveryEnabled":true,"deliveryRadiusKm":10,"deliveryFee":{"amount":4900,"currency":"SEK"},
        "payAtStore":true,"payByCard":false,"payByInvoice":false,"minimumOrder":{"amount":0,"currency":"SEK"},"signInToBrowse":false
        """

    /// The settings with some fields changed (`["payByInvoice": "true"]`), and optionally more appended.
    static func settings(_ changes: [String: String] = [:], extra: String = "") -> String {
        var json = settingsJSON
        for (key, value) in changes {
            guard let range = json.range(of: #""\#(key)":"#) else { json += #","\#(key)":\#(value)"#; continue }
            let end = json[range.upperBound...].firstIndex { $0 == "," || $0 == "\n" } ?? json.endIndex
            json.replaceSubrange(range.upperBound..<end, with: value)
        }
        return json + extra + "}"
    }

    /// Store A takes orders; its product costs 499.00 SEK.
    func shopFixture(stockS: Int = 10, stockM: Int = 3, settings extra: String = "") async throws -> ShopFixture {
        let catalog = try await catalogFixture()
        let owner = catalog.ownerA.accessToken
        let settings = try await send(.PUT, "/api/v1/stores/\(catalog.storeAID)/commerce", json: Self.settingsJSON + extra + "}", token: owner)
        #expect(settings.status == .ok, "\(settings.body.string)")
        let photo = try await placeholderPhoto(uploader: catalog.ownerA.user.id)
        let json = Self.productJSON(category: catalog.shirts, photos: [photo], status: "active", extra: "")
            .replacingOccurrences(of: #"[{"size":"S","stock":2},{"size":"M","stock":1}]"#, with: #"[{"size":"S","stock":\#(stockS)},{"size":"M","stock":\#(stockM)}]"#)
        let created = try await createProduct(in: catalog.storeAID, token: owner, json: json)
        #expect(created.status == .created, "\(created.body.string)")
        struct Created: Decodable { struct V: Decodable { var id: String; var size: String }; var id: String; var variants: [V] }
        let product = try created.content.decode(Created.self)
        return ShopFixture(
            catalog: catalog, productID: product.id, sizeS: product.variants.first { $0.size == "S" }!.id,
            sizeM: product.variants.first { $0.size == "M" }!.id)
    }

    @discardableResult
    func addToCart(_ variantID: String, quantity: Int = 1, token: String) async throws -> TestingHTTPResponse {
        try await send(.POST, "/api/v1/cart/lines", json: #"{"variantId":"\#(variantID)","quantity":\#(quantity)}"#, token: token)
    }

    func checkout(
        token: String, key: String = UUID().uuidString, fulfilment: String = "pickup", extra: String = ""
    ) async throws -> TestingHTTPResponse {
        try await send(
            .POST, "/api/v1/checkout", json: #"{"fulfilment":"\#(fulfilment)","paymentMethod":"payAtStore"\#(extra)}"#, token: token,
            headers: [("Idempotency-Key", key)])
    }

    func variantStock(_ variantID: String) async throws -> ProductVariant {
        try #require(try await ProductVariant.find(UUID(uuidString: variantID)!, on: app.db))
    }

    func orderCount(of storeID: String) async throws -> Int {
        try await Order.query(on: app.db).filter(\.$storeID == UUID(uuidString: storeID)!).count()
    }

    /// A new access token for `session`'s account (after the clock moved past the old one's expiry).
    func freshToken(_ session: Session) async throws -> String {
        let response = try await send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(session.user.email!)","password":"\#(Self.password)"}"#)
        return try response.content.decode(Session.self).accessToken
    }

    /// `count` signed-up shoppers' access tokens.
    func shoppers(_ count: Int) async throws -> [String] {
        var tokens: [String] = []
        let accounts = AccountService(db: app.db, core: app.core, accountParts: app.atelier.accountParts, mailOutbox: app.atelier.mailOutbox)
        for index in 0..<count {
            // Each from its own address: the sign-up rate limit is per address.
            let (_, session) = try await accounts.signUp(
                .init(email: uniqueEmail("shopper"), password: Self.password, displayName: "Shopper \(index)", username: nil, timeZone: nil,
                      locale: nil),
                clientAddress: "10.1.\(index / 200).\(index % 200)")
            tokens.append(session.accessToken)
        }
        return tokens
    }
}
