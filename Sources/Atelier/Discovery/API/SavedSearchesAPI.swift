import AtelierServerAPI
import Foundation
import Vapor

/// Saved searches: named filter sets the caller follows.
extension APIHandler {
    func listSavedSearches(_ input: Operations.ListSavedSearches.Input) async throws -> Operations.ListSavedSearches.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let saved = try await SavedSearchService(db: req.db, core: services.core).list(of: user)
        return .ok(.init(body: .json(.init(items: saved.map(savedSearchBody)))))
    }

    func createSavedSearch(_ input: Operations.CreateSavedSearch.Input) async throws -> Operations.CreateSavedSearch.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let query = try ProductSearchQuery(body.filters)
        let saved = try await SavedSearchService(db: req.db, core: services.core).create(named: body.name, query: query, by: user)
        return .created(.init(body: .json(savedSearchBody(saved))))
    }

    func deleteSavedSearch(_ input: Operations.DeleteSavedSearch.Input) async throws -> Operations.DeleteSavedSearch.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        try await SavedSearchService(db: req.db, core: services.core)
            .delete(try PathID.parse(input.path.searchId, "saved search"), of: user)
        return .noContent(.init())
    }

    func savedSearchBody(_ saved: SavedSearch) -> Components.Schemas.SavedSearch {
        let query = saved.query
        return .init(
            id: saved.id!.idString, name: saved.name, filters: .init(query), createdAt: saved.createdAt,
            webUrl: "\(services.config.publicBaseURL)/search?\(query.urlQuery)")
    }
}

extension ProductSearchQuery {
    /// From the API's filter object; ids that are not UUIDs are a 422 naming the list.
    init(_ filters: Components.Schemas.SearchFilters) throws {
        var errors = FieldErrors()
        self.init(
            text: filters.q,
            categoryIDs: SearchParameters.ids(filters.categoryIds, "filters.categoryIds", into: &errors),
            storeIDs: SearchParameters.ids(filters.storeIds, "filters.storeIds", into: &errors),
            brandIDs: SearchParameters.ids(filters.brandIds, "filters.brandIds", into: &errors),
            colors: filters.colors ?? [], sizes: filters.sizes ?? [], genders: filters.genders ?? [],
            priceMin: filters.priceMin.map(Int.init), priceMax: filters.priceMax.map(Int.init), onSale: filters.onSale ?? false,
            near: filters.near.map { .init(lat: $0.lat, lng: $0.lng, radiusKm: $0.radiusKm) }, styles: filters.styles)
        try errors.throwIfAny()
    }
}

extension Components.Schemas.SearchFilters {
    init(_ query: ProductSearchQuery) {
        func list<T>(_ values: [T], _ text: (T) -> String) -> [String]? { values.isEmpty ? nil : values.map(text) }
        self.init(
            q: query.text, categoryIds: list(query.categoryIDs, \.idString), storeIds: list(query.storeIDs, \.idString),
            brandIds: list(query.brandIDs, \.idString), colors: list(query.colors, { $0 }), sizes: list(query.sizes, { $0 }),
            genders: list(query.genders, { $0 }), styles: list(query.styles ?? [], { $0 }), priceMin: query.priceMin.map(Int64.init), priceMax: query.priceMax.map(Int64.init),
            onSale: query.onSale ? true : nil,
            near: query.near.map { .init(lat: $0.lat, lng: $0.lng, radiusKm: $0.radiusKm) })
    }
}
