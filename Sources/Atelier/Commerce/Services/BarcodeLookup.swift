import Fluent
import Foundation

/// Products by barcode: every variant carrying the code, products the caller may see, nearest
/// store first when a place is given (and within the radius, if one is).
struct BarcodeLookup {
    let db: any Database

    func products(code raw: String, near: (lat: Double, lng: Double)?, radiusKm: Double?, for user: User?) async throws -> [ProductView] {
        let gtin: String
        switch GTIN.normalise(raw) {
        case .success(let code): gtin = code
        case .failure(let reason): throw Problem.invalid("gtin", reason.message)
        }
        let productIDs = Set(try await ProductVariant.query(on: db).filter(\.$gtin == gtin).all().map { $0.$product.id })
        guard !productIDs.isEmpty else { return [] }
        let access = StoreAccess(db: db)
        var visible: [ProductView] = []
        for view in try await ProductViewReader(db: db).views(ids: Array(productIDs)) where view.product.isActive && view.store.isActive {
            if try await access.canBrowse(view.store, user: user) { visible.append(view) }
        }
        guard let near else { return Array(visible.sorted { $0.product.id.uuidString > $1.product.id.uuidString }.prefix(50)) }
        let distance = { (view: ProductView) in Geo.distanceKm(lat1: near.lat, lng1: near.lng, lat2: view.store.lat, lng2: view.store.lng) }
        return Array(visible.filter { radiusKm == nil || distance($0) <= radiusKm! }.sorted { distance($0) < distance($1) }.prefix(50))
    }
}
