import AtelierServerAPI
import Foundation
import Vapor

/// Product search, suggestions while typing, store search.
extension APIHandler {
    func searchProducts(_ input: Operations.SearchProducts.Input) async throws -> Operations.SearchProducts.Output {
        let req = try request()
        let q = input.query
        var errors = FieldErrors()
        var query = ProductSearchQuery(
            text: q.q,
            categoryIDs: SearchParameters.ids(q.categoryId, "categoryId", into: &errors),
            storeIDs: SearchParameters.ids(q.storeId, "storeId", into: &errors),
            brandIDs: SearchParameters.ids(q.brandId, "brandId", into: &errors),
            colors: q.color ?? [], sizes: q.size ?? [], genders: q.gender ?? [],
            priceMin: q.priceMin.map(Int.init), priceMax: q.priceMax.map(Int.init), onSale: q.onSale ?? false,
            sort: q.sort.flatMap { ProductSearchQuery.Sort(rawValue: $0.rawValue) }, styles: q.style)
        query.near = SearchParameters.near(lat: q.lat, lng: q.lng, radiusKm: q.radiusKm, into: &errors)
        try errors.throwIfAny()
        let caller = try await req.optionalCaller()
        let preferences = try await services.shoppingPreferences.applying(for: caller?.user.id, requested: q.preferences, db: req.db)
        let applied = preferences?.fill(&query) ?? []
        let visibility = try await req.storeVisibility(for: caller?.user)
        let results = try await req.reading { db in
            try await ProductSearch(req, db: db, visibility: visibility).run(query, cursor: q.cursor, limit: q.limit)
        }
        func counts(_ facets: [ProductSearch.Facet]) -> [Components.Schemas.FacetCount] {
            facets.map { .init(value: $0.value, label: $0.label, count: $0.count) }
        }
        return .ok(.init(body: .json(.init(
            items: try await productCards(cards: results.items, req, from: query.near.map { .init(lat: $0.lat, lng: $0.lng) }), nextCursor: results.nextCursor, total: results.total,
            sort: .init(rawValue: results.sort.rawValue)!,
            facets: .init(
                categories: counts(results.facets.categories), brands: counts(results.facets.brands),
                stores: counts(results.facets.stores), colors: counts(results.facets.colors)),
            appliedPreferences: applied.isEmpty ? nil : applied.compactMap { .init(rawValue: $0.rawValue) }))))
    }

    func suggestSearch(_ input: Operations.SuggestSearch.Input) async throws -> Operations.SuggestSearch.Output {
        let req = try request()
        var errors = FieldErrors()
        let categoryID = SearchParameters.ids(input.query.categoryId.map { [$0] }, "categoryId", into: &errors).first
        try errors.throwIfAny()
        let visibility = try await req.storeVisibility(for: req.optionalCaller()?.user)
        let result = try await SearchSuggestions(db: req.db, visibility: visibility).suggest(text: input.query.q, categoryID: categoryID)
        func bodies(_ list: [SearchSuggestions.Suggestion]) -> [Components.Schemas.Suggestion] {
            list.map { .init(id: $0.id.idString, label: $0.label, detail: $0.detail) }
        }
        return .ok(.init(body: .json(.init(
            brands: bodies(result.brands), stores: bodies(result.stores), categories: bodies(result.categories),
            popularCategories: result.popularCategories.map { .init(value: $0.value, label: $0.label, count: $0.count) }))))
    }

    func searchStores(_ input: Operations.SearchStores.Input) async throws -> Operations.SearchStores.Output {
        let req = try request()
        let q = input.query
        let visibility = try await req.storeVisibility(for: req.optionalCaller()?.user)
        let hits = try await StoreSearch(db: req.db, core: services.core, visibility: visibility)
            .search(.init(text: q.q, city: q.city, lat: q.lat, lng: q.lng, radiusKm: q.radiusKm, limit: q.limit))
        let images = try await CatalogImages.load(stores: hits.map(\.store), media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media))
        let stores = try await storeBodies(hits.map(\.store), images, req)
        return .ok(.init(body: .json(.init(items: zip(hits, stores).map {
            .init(store: $1, distanceMeters: $0.distanceMeters, openNow: $0.openNow)
        }))))
    }
}

enum SearchParameters {
    static let defaultRadiusKm = 10.0

    /// Ids from a query string; each one that is not a UUID is reported.
    static func ids(_ raw: [String]?, _ field: String, into errors: inout FieldErrors) -> [UUID] {
        (raw ?? []).compactMap { value in
            guard let id = UUID(uuidString: value) else {
                errors.add(field, "\(value.prefix(40)) is not an id")
                return nil
            }
            return id
        }
    }

    /// A place from lat, lng and radius (10 km when absent); the radius alone, or one coordinate, is an error.
    static func near(lat: Double?, lng: Double?, radiusKm: Double?, into errors: inout FieldErrors) -> ProductSearchQuery.Near? {
        Geo.check(lat: lat, lng: lng, into: &errors)
        if radiusKm != nil, lat == nil || lng == nil { errors.add("radiusKm", "needs lat and lng") }
        guard let lat, let lng else { return nil }
        return .init(lat: lat, lng: lng, radiusKm: radiusKm ?? defaultRadiusKm)
    }
}
