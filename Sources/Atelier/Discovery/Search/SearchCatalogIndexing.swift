import Fluent
import Foundation

/// Discovery's part of the catalogue's writes: the search rows (`SearchIndex`) and a new product's
/// feed sort key (`FeedSortKey`). The composition root gives it to the catalogue's services.
struct SearchCatalogIndexing: CatalogIndexing {
    let feedSpreadHours: Int

    func refresh(_ change: CatalogIndexChange, in tx: any Database) async throws {
        let index = SearchIndex(db: tx)
        switch change {
        case .products(let ids): try await index.refresh(.products(ids))
        case .store(let id): try await index.refresh(.store(id))
        case .brand(let id): try await index.refresh(.brand(id))
        case .categorySubtree(let path): try await index.refresh(.categorySubtree(path: path))
        case .productRemoved(let id): try await index.remove(id)
        }
    }

    func feedSortKey(forNewProductIn storeID: UUID, at now: Date, on db: any Database) async throws -> Double {
        try await FeedSortKey(db: db, spreadHours: feedSpreadHours).draw(storeID: storeID, at: now)
    }
}
