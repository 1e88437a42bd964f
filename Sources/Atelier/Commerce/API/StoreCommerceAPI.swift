import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// The store side of commerce: the order queue, settings, stock and discount codes.
extension APIHandler {
    func listStoreOrders(_ input: Operations.ListStoreOrders.Input) async throws -> Operations.ListStoreOrders.Output {
        let (req, _, store) = try await managedCommerceStore(input.path.storeId)
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let orders = OrderService(db: req.db, core: services.core, live: services.live)
        let found = try await orders.orders(of: store, queue: input.query.queue?.rawValue, page: page)
        let counts = try await orders.queueCounts(of: store)
        return .ok(.init(body: .json(.init(
            items: try await CommerceMapping.orders(found.items, withCustomers: true, on: req.db), nextCursor: found.nextCursor,
            counts: .init(new: counts["new"]!, confirmed: counts["confirmed"]!, ready: counts["ready"]!, done: counts["done"]!)))))
    }

    func transitionStoreOrder(_ input: Operations.TransitionStoreOrder.Input) async throws -> Operations.TransitionStoreOrder.Output {
        let (req, user, store) = try await managedCommerceStore(input.path.storeId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        guard let id = UUID(uuidString: input.path.orderId), let order = try await Order.find(id, on: req.db), order.storeID == store.id else {
            throw Problem.notFound("order")
        }
        let moved = try await OrderService(db: req.db, core: services.core, live: services.live).transition(
            id, to: Order.Status(rawValue: body.to.rawValue)!, by: .staff(user.requireID()), reason: body.reason,
            idChecked: body.idChecked ?? false)
        return .ok(.init(body: .json(try await CommerceMapping.orders([moved], withCustomers: true, on: req.db)[0])))
    }

    func getCommerceSettings(_ input: Operations.GetCommerceSettings.Input) async throws -> Operations.GetCommerceSettings.Output {
        let (req, _, store) = try await managedCommerceStore(input.path.storeId)
        let settings = try await CommerceSettingsService(db: req.db, core: services.core, catalogChanges: services.catalogChanges).settings(of: store)
        return .ok(.init(body: .json(CommerceMapping.settings(settings, currency: try await storeCurrency(store, req.db)))))
    }

    func updateCommerceSettings(_ input: Operations.UpdateCommerceSettings.Input) async throws -> Operations.UpdateCommerceSettings.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: user, ownerOnly: true)
        guard case .json(let b) = input.body else { throw Problem(.unsupportedMediaType) }
        let draft = CommerceSettingsService.Draft(
            orderingEnabled: b.orderingEnabled, reserveEnabled: b.reserveEnabled, reserveHours: b.reserveHours,
            reserveMaxItems: b.reserveMaxItems, pickupEnabled: b.pickupEnabled, pickupPreparationMinutes: b.pickupPreparationMinutes,
            deliveryEnabled: b.deliveryEnabled, deliveryRadiusKm: b.deliveryRadiusKm, deliveryFeeMinor: Int(b.deliveryFee.amount),
            deliveryFreeOverMinor: b.deliveryFreeOver.map { Int($0.amount) }, payAtStore: b.payAtStore, payByCard: b.payByCard,
            payByInvoice: b.payByInvoice, minimumOrderMinor: Int(b.minimumOrder.amount),
            currencies: [b.deliveryFee.currency, b.minimumOrder.currency], legalAge: b.legalAge,
            restrictedCategoryIDs: b.restrictedCategoryIds ?? [], requireIDCheck: b.requireIdCheck ?? false, signInToBrowse: b.signInToBrowse,
            deliveryPostcodes: b.deliveryPostcodes ?? [], pricesIncludeVAT: b.pricesIncludeVat ?? true, vatRatePercent: b.vatRate ?? 0,
            categoryVATRates: (b.categoryVatRates ?? []).map { ($0.categoryId, $0.rate) })
        let settings = try await CommerceSettingsService(db: req.db, core: services.core, catalogChanges: services.catalogChanges).update(store, with: draft)
        return .ok(.init(body: .json(CommerceMapping.settings(settings, currency: b.minimumOrder.currency.uppercased()))))
    }

    func updateVariantStock(_ input: Operations.UpdateVariantStock.Input) async throws -> Operations.UpdateVariantStock.Output {
        let (req, _, store) = try await managedCommerceStore(input.path.storeId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let stock = VariantStockService(db: req.db, core: services.core)
        let variant = try await stock.variant(input.path.variantId, in: store)
        let updated = try await stock.update(
            variant, onHand: body.onHand, lowStockThreshold: body.lowStockThreshold, gtin: body.gtin, expectedOnHand: body.expectedOnHand)
        return .ok(.init(body: .json(CommerceMapping.stock(updated))))
    }

    func listDiscountCodes(_ input: Operations.ListDiscountCodes.Input) async throws -> Operations.ListDiscountCodes.Output {
        let (req, _, store) = try await managedCommerceStore(input.path.storeId)
        let codes = try await DiscountService(db: req.db, core: services.core).list(in: store)
        return .ok(.init(body: .json(codes.map(CommerceMapping.discountCode))))
    }

    func createDiscountCode(_ input: Operations.CreateDiscountCode.Input) async throws -> Operations.CreateDiscountCode.Output {
        let (req, _, store) = try await managedCommerceStore(input.path.storeId)
        guard case .json(let b) = input.body else { throw Problem(.unsupportedMediaType) }
        let code = try await DiscountService(db: req.db, core: services.core).create(
            .init(
                code: b.code, kind: b.kind.rawValue, value: b.value, minimumOrderMinor: b.minimumOrder, startsAt: b.startsAt, endsAt: b.endsAt,
                totalLimit: b.totalLimit, perCustomerLimit: b.perCustomerLimit),
            in: store)
        return .created(.init(body: .json(CommerceMapping.discountCode(code))))
    }

    private func managedCommerceStore(_ rawID: String) async throws -> (Request, User, Store) {
        let req = try request()
        let user = try await req.requireCaller().user
        return (req, user, try await StoreAccess(db: req.db).managedStore(rawID, by: user))
    }

    /// The currency the store prices in (its newest product's), for settings shown before any were saved.
    private func storeCurrency(_ store: Store, _ db: any Database) async throws -> String {
        try await CommerceSettingsService.currency(of: store, on: db)
    }
}
