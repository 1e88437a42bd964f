import Fluent
import Foundation

/// Businesses apply to buy from a store at trade prices; the store's staff approve or decline.
struct TradeCustomerService {
    let db: any Database
    let core: CoreServices
    let catalogChanges: CatalogChanges

    /// Applies (or applies again after a refusal); an approved or pending application stays as it is.
    func apply(to store: Store, by user: User, companyName: String, vatNumber: String?) async throws -> TradeCustomer {
        let company = companyName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (2...120).contains(company.count) else { throw Problem.invalid("companyName", "must be 2 to 120 characters") }
        let vat = (vatNumber ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard vat.count <= 40 else { throw Problem.invalid("vatNumber", "must be at most 40 characters") }
        let storeID = try store.requireID()
        let userID = try user.requireID()
        let now = core.clock.now()
        return try await core.writeTransaction(on: db) { tx in
            if let existing = try await TradeCustomer.query(on: tx).filter(\.$storeID == storeID).filter(\.$userID == userID).first() {
                guard existing.status == TradeCustomer.Status.rejected.rawValue else { return existing }
                existing.status = TradeCustomer.Status.pending.rawValue
                existing.companyName = company
                existing.vatNumber = vat
                existing.decidedAt = nil
                existing.decidedBy = nil
                try await existing.update(on: tx)
                return existing
            }
            let row = TradeCustomer()
            row.id = .v7(at: now)
            row.storeID = storeID
            row.userID = userID
            row.companyName = company
            row.vatNumber = vat
            row.status = TradeCustomer.Status.pending.rawValue
            row.createdAt = now
            try await row.create(on: tx)
            return row
        }
    }

    func list(of store: Store, status: TradeCustomer.Status?) async throws -> [(TradeCustomer, User)] {
        let query = try TradeCustomer.query(on: db).filter(\.$storeID == store.requireID())
        if let status { query.filter(\.$status == status.rawValue) }
        let rows = try await query.sort(\.$id, .descending).all()
        let users = Dictionary(uniqueKeysWithValues: try await User.query(on: db).filter(\.$id ~~ rows.map(\.userID)).all().map { ($0.id!, $0) })
        return rows.compactMap { row in users[row.userID].map { (row, $0) } }
    }

    func decide(_ rawUserID: String, in store: Store, approve: Bool, by staff: User) async throws -> TradeCustomer {
        guard let userID = UUID(uuidString: rawUserID),
            let row = try await TradeCustomer.query(on: db).filter(\.$storeID == store.requireID()).filter(\.$userID == userID).first()
        else { throw Problem.notFound("trade customer") }
        row.status = (approve ? TradeCustomer.Status.approved : .rejected).rawValue
        row.decidedAt = core.clock.now()
        row.decidedBy = try staff.requireID()
        try await core.writeTransaction(on: db) { tx in try await row.update(on: tx) }
        return row
    }

    func accounts(of user: User) async throws -> [(TradeCustomer, Store)] {
        let rows = try await TradeCustomer.query(on: db).filter(\.$userID == user.requireID()).sort(\.$id, .descending).all()
        let stores = Dictionary(uniqueKeysWithValues: try await Store.query(on: db).filter(\.$id ~~ rows.map(\.storeID)).all().map { ($0.id!, $0) })
        return rows.compactMap { row in stores[row.storeID].map { (row, $0) } }
    }

    /// Staff set a product's trade price (nil: none) and case size.
    func setTradeTerms(of product: Product, tradePriceMinor: Int?, caseSize: Int) async throws -> Product {
        var errors = FieldErrors()
        if let price = tradePriceMinor, price < 0 { errors.add("tradePrice", "cannot be negative") }
        if !(1...1000).contains(caseSize) { errors.add("caseSize", "must be 1 to 1000") }
        try errors.throwIfAny()
        product.tradePriceMinor = tradePriceMinor
        product.caseSize = caseSize
        product.updatedAt = core.clock.now()
        try await core.writeTransaction(on: db) { tx in try await product.update(on: tx) }
        await catalogChanges.announce()
        return product
    }
}
