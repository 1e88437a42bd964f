import Fluent
import Foundation
import SQLKit

/// Writes one store's order of a checkout: its number, the price snapshot, the first history
/// entry and the shopper's inbox entry, on the checkout's transaction.
struct OrderWriter {
    let tx: any Database
    let now: Date

    func create(
        _ group: CartContents.Group, request: CheckoutRequest, userID: UUID, checkoutID: UUID, discount: DiscountService.Applied?
    ) async throws -> Order {
        let settings = group.settings!
        let order = Order()
        order.id = .v7(at: now)
        order.storeID = group.store.id!
        order.userID = userID
        order.checkoutID = checkoutID
        order.number = try await nextNumber(for: group.store.id!)
        order.status = (request.payment == .card ? Order.Status.pendingPayment : .placed).rawValue
        order.fulfilment = request.fulfilment.rawValue
        order.paymentMethod = request.payment.rawValue
        order.stockState = CheckoutService.bucket(for: request) == .held ? Order.StockState.held.rawValue : Order.StockState.allocated.rawValue
        order.currency = group.currency
        order.subtotalMinor = group.subtotalMinor
        order.discountMinor = discount?.amountMinor ?? 0
        order.discountCode = discount?.code.code
        order.deliveryFeeMinor = request.fulfilment == .delivery ? Self.deliveryFee(settings, subtotal: order.subtotalMinor) : 0
        let lineRates = try await Self.vatRates(of: group, settings: settings, on: tx)
        let vat = VATBreakdown(
            lines: zip(group.lines, lineRates).map { ($1, $0.unitPriceMinor * $0.line.quantity) }, discountMinor: order.discountMinor,
            deliveryFeeMinor: order.deliveryFeeMinor, deliveryBasisPoints: settings.vatRateBasisPoints,
            pricesIncludeVAT: settings.pricesIncludeVAT)
        order.pricesIncludeVAT = settings.pricesIncludeVAT
        order.deliveryVATRateBasisPoints = settings.vatRateBasisPoints
        order.vatMinor = vat.vatMinor
        // Prices without VAT: the VAT is added to what is paid.
        order.totalMinor = order.subtotalMinor - order.discountMinor + order.deliveryFeeMinor + (settings.pricesIncludeVAT ? 0 : vat.vatMinor)
        switch (request.fulfilment, request.payment) {
        case (.reserve, _): order.holdUntil = now.addingTimeInterval(TimeInterval(settings.reserveHours) * 3600)
        case (_, .card): order.holdUntil = now.addingTimeInterval(CheckoutService.paymentWindow)
        default: order.holdUntil = nil
        }
        order.deliveryAddress = try request.address.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        var needsIDCheck = false
        if settings.requireIDCheck {
            for line in group.lines {
                let target = OrderableVariant(variant: line.variant, product: line.product, store: group.store, settings: settings)
                if try await target.requiredAge(on: tx) != nil { needsIDCheck = true }
            }
        }
        order.needsIDCheck = needsIDCheck
        order.idChecked = false
        order.createdAt = now
        order.updatedAt = now
        try await order.create(on: tx)

        for (position, line) in group.lines.enumerated() {
            let row = OrderLine()
            row.id = .v7(at: now)
            row.orderID = order.id!
            row.productID = line.product.id
            row.variantID = line.variant.id
            row.title = line.product.title
            row.size = line.variant.size
            row.unitPriceMinor = line.unitPriceMinor
            row.quantity = line.line.quantity
            row.position = position
            row.vatRateBasisPoints = lineRates[position]
            try await row.create(on: tx)
        }
        try await OrderHistory.record(order, from: nil, by: userID, reason: nil, on: tx, now: now)
        return order
    }

    /// Each line's VAT rate: its category's own, else the nearest one above it with a rate, else the store's.
    static func vatRates(of group: CartContents.Group, settings: CommerceSettings, on db: any Database) async throws -> [Int] {
        let byCategory = settings.categoryVATRates
        guard !byCategory.isEmpty else { return group.lines.map { _ in settings.vatRateBasisPoints } }
        let categories = try await Category.query(on: db).filter(\.$id ~~ Set(group.lines.map(\.product.categoryID))).all()
        let paths = Dictionary(uniqueKeysWithValues: categories.map { ($0.id!, $0.path) })
        return group.lines.map { line in
            let trail = paths[line.product.categoryID].map(CategoryService.ancestorIDs(path:)) ?? [line.product.categoryID]
            return trail.reversed().lazy.compactMap { byCategory[$0] }.first ?? settings.vatRateBasisPoints
        }
    }

    static func deliveryFee(_ settings: CommerceSettings, subtotal: Int) -> Int {
        if let freeOver = settings.deliveryFreeOverMinor, subtotal >= freeOver { return 0 }
        return settings.deliveryFeeMinor
    }

    /// Per-store sequential numbers. The upsert locks the store's counter row until commit, so two
    /// checkouts at one store take consecutive numbers and a rolled-back checkout leaves no gap.
    private func nextNumber(for storeID: UUID) async throws -> Int {
        let sql = tx.sql
        let row = try await sql.raw("""
            INSERT INTO store_order_counters (store_id, last_number) VALUES (\(bind: storeID), 1)
            ON CONFLICT (store_id) DO UPDATE SET last_number = store_order_counters.last_number + 1
            RETURNING last_number
            """).first()
        return try row!.decode(column: "last_number", as: Int.self)
    }
}

/// The history of an order and the shopper's inbox entry for each change.
enum OrderHistory {
    static func record(_ order: Order, from: Order.Status?, by actorID: UUID?, reason: String?, on tx: any Database, now: Date) async throws {
        let event = OrderEvent()
        event.id = .v7(at: now)
        event.orderID = try order.requireID()
        // Moves of one order are serialised by the conditional update of its row, so the count is exact.
        event.position = try await OrderEvent.query(on: tx).filter(\.$orderID == order.requireID()).count()
        event.fromStatus = from?.rawValue
        event.toStatus = order.status
        event.actorID = actorID
        event.reason = reason
        event.createdAt = now
        try await event.create(on: tx)

        guard let customerID = order.userID else { return }
        let storeName = try await Store.find(order.storeID, on: tx)?.name ?? "the store"
        let id = order.id!.idString
        try await InboxService.record(
            .init(
                recipientID: customerID, kind: .orderUpdated, actorID: actorID,
                message: Self.message(order, storeName: storeName), link: "atelier://orders/\(id)", webPath: "/orders/\(id)",
                critical: order.state == .readyForPickup),
            on: tx, now: now)
    }

    static func message(_ order: Order, storeName: String) -> NotificationMessage {
        .orderUpdated(
            number: order.number, store: storeName, status: OrderStage(order.state).rawValue,
            reserved: order.fulfilment == Order.Fulfilment.reserve.rawValue, reason: order.cancelReason)
    }
}
