import Fluent
import Foundation

/// What the catalogue's writes tell the domains that keep something beside it (discovery's search
/// rows and feed order), registered by the composition root. `refresh` runs inside the write
/// transaction: a committed edit is never searchable as it was before, and a failed one leaves the
/// search as it was (the transaction rolls back with it).
protocol CatalogIndexing: Sendable {
    /// Inside the write transaction `tx`: the search rows of what changed.
    func refresh(_ change: CatalogIndexChange, in tx: any Database) async throws
    /// A new product's place in the feeds, drawn before it is written.
    func feedSortKey(forNewProductIn storeID: UUID, at now: Date, on db: any Database) async throws -> Double
}

/// What a catalogue write changed, as the indexes need to know it.
enum CatalogIndexChange: Sendable {
    case products([UUID])
    case store(UUID)
    case brand(UUID)
    /// Products in a category and every category below it (a rename or a move).
    case categorySubtree(path: String)
    case productRemoved(UUID)
}
