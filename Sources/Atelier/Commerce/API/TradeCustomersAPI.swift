import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// Trade customers: applications, staff decisions, trade terms of products.
extension APIHandler {
    func applyForTradeAccount(_ input: Operations.ApplyForTradeAccount.Input) async throws -> Operations.ApplyForTradeAccount.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let store = try await tradeStore(input.path.storeId, req.db)
        let row = try await TradeCustomerService(db: req.db, core: services.core, catalogChanges: services.catalogChanges)
            .apply(to: store, by: user, companyName: body.companyName, vatNumber: body.vatNumber)
        return .ok(.init(body: .json(tradeAccount(row, store: store, user: nil))))
    }

    func listTradeCustomers(_ input: Operations.ListTradeCustomers.Input) async throws -> Operations.ListTradeCustomers.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: user)
        let rows = try await TradeCustomerService(db: req.db, core: services.core, catalogChanges: services.catalogChanges)
            .list(of: store, status: input.query.status.flatMap { TradeCustomer.Status(rawValue: $0.rawValue) })
        return .ok(.init(body: .json(rows.map { tradeAccount($0.0, store: store, user: $0.1) })))
    }

    func decideTradeCustomer(_ input: Operations.DecideTradeCustomer.Input) async throws -> Operations.DecideTradeCustomer.Output {
        let req = try request()
        let staff = try await req.requireCaller().user
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: staff)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let row = try await TradeCustomerService(db: req.db, core: services.core, catalogChanges: services.catalogChanges)
            .decide(input.path.userId, in: store, approve: body.approve, by: staff)
        return .ok(.init(body: .json(tradeAccount(row, store: store, user: try await User.find(row.userID, on: req.db)))))
    }

    func listMyTradeAccounts(_ input: Operations.ListMyTradeAccounts.Input) async throws -> Operations.ListMyTradeAccounts.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let rows = try await TradeCustomerService(db: req.db, core: services.core, catalogChanges: services.catalogChanges).accounts(of: user)
        return .ok(.init(body: .json(rows.map { tradeAccount($0.0, store: $0.1, user: nil) })))
    }

    func setProductTradeTerms(_ input: Operations.SetProductTradeTerms.Input) async throws -> Operations.SetProductTradeTerms.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: user)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        guard let id = UUID(uuidString: input.path.productId), let product = try await Product.find(id, on: req.db), product.$store.id == store.id
        else { throw Problem.notFound("product") }
        let updated = try await TradeCustomerService(db: req.db, core: services.core, catalogChanges: services.catalogChanges)
            .setTradeTerms(of: product, tradePriceMinor: body.tradePrice, caseSize: body.caseSize)
        return .ok(.init(body: .json(.init(tradePrice: updated.tradePriceMinor, caseSize: updated.caseSize))))
    }

    /// An active store by id or slug, sign-in-to-browse ones included (one cannot apply otherwise).
    private func tradeStore(_ idOrSlug: String, _ db: any Database) async throws -> Store {
        let store: Store?
        if let id = UUID(uuidString: idOrSlug) {
            store = try await Store.find(id, on: db)
        } else {
            store = try await Store.query(on: db).filter(\.$slug == idOrSlug.lowercased()).first()
        }
        guard let store, store.isActive else { throw Problem.notFound("store") }
        return store
    }

    private func tradeAccount(_ row: TradeCustomer, store: Store, user: User?) -> Components.Schemas.TradeAccount {
        .init(
            store: CommerceMapping.storeSummary(store), userId: row.userID.idString, displayName: user?.displayName,
            email: user?.email, companyName: row.companyName, vatNumber: row.vatNumber.isEmpty ? nil : row.vatNumber,
            status: .init(rawValue: row.status)!, createdAt: row.createdAt, decidedAt: row.decidedAt)
    }
}
