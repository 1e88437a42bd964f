import Fluent
import Vapor

extension ProductSearch {
    /// The search of one request, reading from `db`, with the app's ranked-page cache and clock,
    /// over the stores `visibility` admits.
    init(_ req: Request, db: any Database, visibility: StoreVisibility = .publicOnly) {
        self.init(db: db, cache: req.atelier.searchCache, now: req.atelier.clock.now(), visibility: visibility)
    }
}
