import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// A small catalog for tests: an admin, two stores with one owner each, a three-level category tree.
struct CatalogFixture {
    var admin: Session
    var ownerA: Session
    var ownerB: Session
    var storeA: Store
    var storeB: Store
    var women: Category
    var tops: Category
    var shirts: Category
    var men: Category
    var brand: Brand

    var storeAID: String { storeA.id!.idString }
    var storeBID: String { storeB.id!.idString }
}

struct ProductBody: Decodable {
    struct Money: Decodable { var amount: Int; var currency: String }
    struct Photo: Decodable { var id: String; var variants: [ImageBody.Variant] }
    struct StoreRef: Decodable { var id: String; var name: String }
    struct CategoryRef: Decodable { var id: String; var trail: [String] }
    var id: String
    var title: String
    var status: String
    var price: Money
    var store: StoreRef
    var category: CategoryRef
    var photos: [Photo]
    var webUrl: String
}

struct ProductPageBody: Decodable {
    var items: [ProductBody]
    var nextCursor: String?
}

/// A product as lists answer it (`ProductCard`).
struct ProductCardBody: Decodable {
    struct StoreRef: Decodable { var id: String; var name: String; var city: String; var distanceMeters: Int? }
    struct Photo: Decodable { var id: String; var width: Int; var height: Int; var src: String; var srcset: String }
    var id: String
    var title: String
    var price: ProductBody.Money
    var store: StoreRef
    var photo: Photo?
    var likeCount: Int
    var webUrl: String
}

struct ProductCardPageBody: Decodable {
    var items: [ProductCardBody]
    var nextCursor: String?
}

extension TestApp {
    func catalogFixture() async throws -> CatalogFixture {
        let admin = try await signUp(name: "Admin")
        let ownerA = try await signUp(name: "Owner A")
        let ownerB = try await signUp(name: "Owner B")
        let adminUser = try #require(try await User.find(UUID(uuidString: admin.user.id), on: app.db))
        adminUser.isAdmin = true
        try await adminUser.save(on: app.db)
        let stores = StoreService(db: app.db, core: app.core, catalogChanges: app.atelier.catalogChanges, catalogIndexing: app.atelier.catalogIndexing, mailOutbox: app.atelier.mailOutbox, mediaLibrary: app.atelier.media)
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let storeA = try await stores.create(.init(
            name: "Store A \(suffix)", street: "Vallgatan 1", city: "Gothenburg", lat: 57.705, lng: 11.966, ownerEmail: ownerA.user.email))
        let storeB = try await stores.create(.init(
            name: "Store B \(suffix)", street: "Magasinsgatan 2", city: "Gothenburg", lat: 57.704, lng: 11.962, ownerEmail: ownerB.user.email))
        let categories = CategoryService(db: app.db, core: app.core, catalogChanges: app.atelier.catalogChanges, catalogIndexing: app.atelier.catalogIndexing, mediaLibrary: app.atelier.media)
        let women = try await categories.create(name: "Women \(suffix)", gender: "women", parentID: nil)
        let tops = try await categories.create(name: "Tops", gender: "women", parentID: women.id)
        let shirts = try await categories.create(name: "Shirts", gender: "women", parentID: tops.id)
        let men = try await categories.create(name: "Men \(suffix)", gender: "men", parentID: nil)
        let adminModel = try #require(try await User.find(UUID(uuidString: admin.user.id), on: app.db))
        let brand = try await BrandService(db: app.db, core: app.core, catalogChanges: app.atelier.catalogChanges, catalogIndexing: app.atelier.catalogIndexing, mediaLibrary: app.atelier.media)
            .create(name: "Brand \(suffix)", logoID: nil, status: .approved, proposedBy: nil, by: adminModel)
        return CatalogFixture(
            admin: admin, ownerA: ownerA, ownerB: ownerB, storeA: storeA, storeB: storeB, women: women, tops: tops, shirts: shirts,
            men: men, brand: brand)
    }

    /// A real upload through the API (its id is returned).
    func uploadPhoto(token: String, width: Int = 320, height: Int = 400) async throws -> String {
        let response = try await upload(try TestImages.png(width: width, height: height), contentType: "image/png", token: token)
        #expect(response.status == .created, "\(response.body.string)")
        return try response.content.decode(ImageBody.self).id
    }

    /// A media row without files, for tests that need many photos and never look at them.
    func placeholderPhoto(uploader: String) async throws -> String {
        let media = Media()
        media.id = UUID()
        media.$uploader.id = UUID(uuidString: uploader)!
        media.visibility = Media.Visibility.private.rawValue
        media.contentHash = String(repeating: "0", count: 64)
        media.format = "jpeg"
        media.width = 100
        media.height = 100
        media.byteSize = 1
        media.dominantColor = "#000000"
        media.placeholder = ""
        media.variantsJSON = "[]"
        media.createdAt = clock.now()
        try await media.create(on: app.db)
        return media.id!.idString
    }

    static func productJSON(
        title: String = "Linen shirt", category: Category, brand: Brand? = nil, price: Int = 49_900, currency: String = "SEK",
        photos: [String], status: String = "inactive", extra: String = ""
    ) -> String {
        let photoList = photos.map { "\"\($0)\"" }.joined(separator: ",")
        let brandPart = brand.map { #","brandId":"\#($0.id!.idString)""# } ?? ""
        return """
            {"title":"\(title)","categoryId":"\(category.id!.idString)"\(brandPart),"gender":"women",
            "price":{"amount":\(price),"currency":"\(currency)"},"colors":["white"],"styles":["casual"],
            "variants":[{"size":"S","stock":2},{"size":"M","stock":1}],"photoIds":[\(photoList)],"status":"\(status)"\(extra)}
            """
    }

    func createProduct(in storeID: String, token: String, json: String) async throws -> TestingHTTPResponse {
        try await send(.POST, "/api/v1/stores/\(storeID)/products", json: json, token: token)
    }
}
