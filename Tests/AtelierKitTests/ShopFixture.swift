import AtelierKit
import Foundation
import OpenAPIRuntime

@testable import Atelier

let kitPassword = "correct horse battery"

/// A store that takes orders (pickup or reserve, pay in the shop) with one active 499 SEK product
/// in sizes S and M: the store and category made with the server's services, the rest by its owner
/// through the SDK.
struct Shop {
    let owner: AtelierSession
    let storeID: String
    let productID: UUID
    let sizeS: String
    let sizeM: String

    static func open(on server: LiveServer, stockS: Int = 10, stockM: Int = 1) async throws -> Shop {
        let (db, services) = (server.app.db, server.app.atelier)
        let email = uniqueEmail()
        let owner = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
        let me = try await owner.signUp(email: email, password: kitPassword, displayName: "Shop Owner")
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let store = try await StoreService(db: db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mailOutbox: services.mailOutbox, mediaLibrary: services.media).create(.init(
            name: "Kit Shop \(suffix)", street: "Vallgatan 1", city: "Gothenburg", lat: 57.705, lng: 11.966, ownerEmail: email))
        let storeID = store.id!.uuidString.lowercased()
        let category = try await CategoryService(db: db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).create(name: "Shirts \(suffix)", gender: "women", parentID: nil)
        _ = try await owner.client.updateCommerceSettings(path: .init(storeId: storeID), body: .json(.init(
            orderingEnabled: true, reserveEnabled: true, reserveHours: 48, reserveMaxItems: 5, pickupEnabled: true,
            pickupPreparationMinutes: 60, deliveryEnabled: false, deliveryRadiusKm: 10, deliveryFee: .init(amount: 0, currency: "SEK"),
            payAtStore: true, payByCard: false, payByInvoice: false, minimumOrder: .init(amount: 0, currency: "SEK"),
            signInToBrowse: false))).ok

        // A media row without files: the product needs a photo, these tests never look at it.
        let photo = Media()
        photo.id = UUID()
        photo.$uploader.id = UUID(uuidString: me.id)
        photo.visibility = Media.Visibility.private.rawValue
        photo.contentHash = String(repeating: "0", count: 64)
        (photo.format, photo.width, photo.height, photo.byteSize) = ("jpeg", 100, 100, 1)
        (photo.dominantColor, photo.placeholder, photo.variantsJSON) = ("#000000", "", "[]")
        photo.createdAt = server.clock.now()
        try await photo.create(on: db)

        let product = try await owner.client.createProduct(path: .init(storeId: storeID), body: .json(.init(
            title: "Linen shirt", categoryId: category.id!.uuidString.lowercased(), gender: .women,
            price: .init(amount: 49_900, currency: "SEK"), colors: ["white"], styles: ["casual"],
            variants: [.init(size: "S", stock: stockS), .init(size: "M", stock: stockM)],
            photoIds: [photo.id!.uuidString.lowercased()], status: .active))).created.body.json
        let variant = { (size: String) in product.variants.first { $0.size == size }!.id.lowercased() }
        return Shop(owner: owner, storeID: storeID, productID: UUID(uuidString: product.id)!, sizeS: variant("S"), sizeM: variant("M"))
    }

    /// Every order of the store, as its staff see them.
    func orderIDs() async throws -> [String] {
        try await owner.client.listStoreOrders(path: .init(storeId: storeID)).ok.body.json.items.map(\.id)
    }
}

func shopper(_ server: LiveServer, transport: any ClientTransport = URLSessionAPITransport()) async throws -> AtelierSession {
    let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore(), transport: transport)
    try await session.signUp(email: uniqueEmail(), password: kitPassword, displayName: "Shopper")
    return session
}
