import Fluent
import Foundation
import Logging
import SQLKit

/// Turns the shopper's cart into one order per store, atomically: every check is made again
/// inside one write transaction (prices, availability, age, minimum order, the discount code),
/// stock is taken with conditional updates in variant-id order, prices are snapshotted, and the
/// cart is emptied. Any failure rolls everything back. Retries are made safe by the
/// `Idempotency-Key` the API requires.
struct CheckoutService {
    let db: any Database
    let core: CoreServices
    let live: LiveUpdates
    let mailOutbox: MailOutbox
    let payments: (any PaymentProvider)?

    /// How long an unpaid card order keeps its stock.
    static let paymentWindow: TimeInterval = 30 * 60

    func checkout(_ typed: CheckoutRequest, by user: User) async throws -> [Order] {
        let now = core.clock.now()
        let userID = try user.requireID()
        let request = try await placingAddress(of: typed, for: userID)
        let result = try await core.writeTransaction(on: db) { tx in
            let cart = try await CartService(db: tx, core: core).cart(of: .user(userID), on: tx)
            if let cartID = cart?.id {
                // Locks the cart first (PostgreSQL holds the row until commit): a second checkout of the same
                // cart (a double click, another key) waits here and then finds it empty, so it never orders twice.
                try await tx.sql.raw("""
                    UPDATE \(ident: Cart.schema) SET updated_at = \(bind: now) WHERE id = \(bind: cartID)
                    """).run()
            }
            let contents = try await CartContents.load(cart?.id, on: tx)
            guard !contents.lines.isEmpty else { throw Problem.invalid("cart", "is empty: add something first") }

            try checkLinesStillOrderable(contents)
            try checkOneCurrencyPerStore(contents)
            for group in contents.groups { try checkOptions(request, for: group) }
            try await checkAges(contents, user: user, now: now, on: tx)
            let discount = try await DiscountService(db: tx, core: core).applicable(request.discountCode, in: contents, now: now)
            for group in contents.groups {
                let subtotal = group.subtotalMinor - (discount?.storeID == group.store.id ? discount!.amountMinor : 0)
                if let minimum = group.settings?.minimumOrderMinor, subtotal < minimum {
                    throw Problem.invalid(
                        "cart", "\(group.store.name) takes orders from \(MoneyText.format(minimum, group.currency)); add a little more")
                }
            }

            let alerts = try await takeStock(contents, bucket: Self.bucket(for: request), on: tx)
            var orders: [Order] = []
            let checkoutID = UUID.v7(at: now)
            // Store order by id: each order locks its store's counter row, and two checkouts must take those
            // rows in the same order or they could wait on each other.
            for group in contents.groups.sorted(by: { $0.store.id!.uuidString < $1.store.id!.uuidString }) {
                let order = try await OrderWriter(tx: tx, now: now).create(
                    group, request: request, userID: userID, checkoutID: checkoutID,
                    discount: discount?.storeID == group.store.id ? discount : nil)
                if let discount, discount.storeID == group.store.id {
                    try await DiscountService(db: tx, core: core).redeem(discount, by: userID, order: order)
                }
                if let email = user.email {
                    try await mailOutbox.enqueue(
                        OrderReceiptMail.mail(for: order, lines: group.lines, store: group.store, to: email, baseURL: core.config.publicBaseURL),
                        on: tx)
                }
                orders.append(order)
            }
            try await CartLine.query(on: tx).filter(\.$cartID == contents.cartID!).delete()
            let staff = try await LowStockAlerts.record(alerts, on: tx, now: now)
            return (orders, staff)
        }
        await InboxService.announce(.orderUpdated, to: userID, by: nil, live: live)
        for member in result.1 { await InboxService.announce(.lowStock, to: member, by: nil, live: live) }
        if request.payment == .card, let provider = payments {
            // After the commit: an order never waits on the provider inside a transaction. If the
            // provider is unreachable the order waits for payment anyway; the app asks again with
            // `POST /orders/{id}/payment`, and the hold expires if it is never paid.
            let payments = CardPayments(db: db, core: core, live: live, provider: provider)
            for order in result.0 {
                do {
                    _ = try await payments.intent(for: order)
                } catch {
                    Logger(label: "atelier.payments").warning("Payment intent for order \(order.id!) failed: \(error)")
                }
            }
        }
        return result.0
    }

    static func bucket(for request: CheckoutRequest) -> StockLedger.Bucket {
        request.fulfilment == .reserve || request.payment == .card ? .held : .allocated
    }

    /// Inactive products and changed prices: 409, naming each line, with the new price.
    private func checkLinesStillOrderable(_ contents: CartContents) throws {
        var errors: [Problem.FieldError] = []
        for group in contents.groups {
            guard group.orderingEnabled else {
                throw Problem.conflict(
                    "\(group.store.name) does not take orders at the moment; remove its items to order the rest.",
                    field: "stores.\(group.store.id!.idString)")
            }
            for line in group.lines {
                let variantID = line.variant.id!.idString
                if group.tradeCustomer, line.product.caseSize > 1, !line.line.quantity.isMultiple(of: line.product.caseSize) {
                    throw Problem.invalid(
                        "lines.\(variantID).quantity", "\(line.product.title) is sold to the trade in cases of \(line.product.caseSize)")
                }
                if !line.product.isActive || (group.store.membersOnly && !group.tradeCustomer) {
                    errors.append(.init(field: "lines.\(variantID)", message: "\(line.product.title) is no longer for sale"))
                } else if line.unitPriceMinor != line.line.seenPriceMinor {
                    let now = MoneyText.format(line.unitPriceMinor, line.product.currency)
                    errors.append(.init(field: "lines.\(variantID).price", message: "\(line.product.title) now costs \(now)"))
                }
            }
        }
        guard errors.isEmpty else {
            throw Problem(
                .conflict, type: "https://atelier.dev/problems/cart-changed", title: "Your cart changed",
                detail: errors.map(\.message).joined(separator: "; ") + ". Check your cart and order again.", errors: errors)
        }
    }

    /// A typed delivery address placed on the map, when a store in the cart delivers within a radius
    /// and the address came without coordinates. Outside the transaction: the address search is a
    /// network call. One it cannot place stays without them (`checkOptions` refuses it, naming it).
    private func placingAddress(of request: CheckoutRequest, for userID: UUID) async throws -> CheckoutRequest {
        guard request.fulfilment == .delivery, var address = request.address, address.lat == nil,
            let url = core.config.geocoderURL
        else { return request }
        let cart = try await CartService(db: db, core: core).cart(of: .user(userID), on: db)
        let contents = try await CartContents.load(cart?.id, on: db)
        guard contents.groups.contains(where: { $0.settings?.deliveryPostcodes.isEmpty ?? false }) else { return request }
        guard let point = try await Geocoder(baseURL: url).place(street: address.street, postalCode: address.postalCode, city: address.city)
        else { return request }
        (address.lat, address.lng) = (point.lat, point.lng)
        var placed = request
        placed.address = address
        return placed
    }

    /// An order is in one currency: a store whose products in the cart are priced in several is refused.
    private func checkOneCurrencyPerStore(_ contents: CartContents) throws {
        for group in contents.groups where Set(group.lines.map(\.product.currency)).count > 1 {
            throw Problem.conflict(
                "\(group.store.name) prices the items in your cart in different currencies; order them separately.",
                field: "stores.\(group.store.id!.idString)")
        }
    }

    /// The store offers the fulfilment and payment chosen, and a delivery address is in range.
    private func checkOptions(_ request: CheckoutRequest, for group: CartContents.Group) throws {
        let settings = group.settings!
        let name = group.store.name
        switch request.fulfilment {
        case .reserve:
            guard settings.reserveEnabled else { throw Problem.invalid("fulfilment", "\(name) does not hold items for you to try on") }
            let items = group.lines.reduce(0) { $0 + $1.line.quantity }
            if items > settings.reserveMaxItems {
                throw Problem.invalid("fulfilment", "\(name) reserves at most \(settings.reserveMaxItems) items per shopper")
            }
        case .pickup:
            guard settings.pickupEnabled else { throw Problem.invalid("fulfilment", "\(name) does not offer pickup") }
        case .delivery:
            guard settings.deliveryEnabled else { throw Problem.invalid("fulfilment", "\(name) does not deliver") }
            let address = request.address!
            let postcodes = settings.deliveryPostcodes
            if !postcodes.isEmpty {
                guard let code = Postcode.normalized(address.postalCode), postcodes.contains(code) else {
                    throw Problem.invalid("deliveryAddress.postalCode", "is not one \(name) delivers to")
                }
                break
            }
            guard let lat = address.lat, let lng = address.lng else {
                throw Problem.invalid("deliveryAddress", "could not be found on the map: check the street, postcode and city")
            }
            let distance = Geo.distanceKm(lat1: group.store.lat, lng1: group.store.lng, lat2: lat, lng2: lng)
            if distance > settings.deliveryRadiusKm {
                throw Problem.invalid(
                    "deliveryAddress", "is \(Int(distance.rounded())) km from \(name), which delivers within \(Int(settings.deliveryRadiusKm)) km")
            }
        }
        switch request.payment {
        case .payAtStore:
            guard settings.payAtStore else { throw Problem.invalid("paymentMethod", "\(name) does not take payment in the shop") }
        case .card:
            guard settings.payByCard, payments != nil else { throw Problem.invalid("paymentMethod", "\(name) does not take card payments") }
        case .invoice:
            guard group.tradeCustomer else { throw Problem.invalid("paymentMethod", "only approved trade customers of \(name) can pay by invoice") }
            guard settings.payByInvoice else { throw Problem.invalid("paymentMethod", "\(name) does not send invoices") }
        }
    }

    private func checkAges(_ contents: CartContents, user: User, now: Date, on tx: any Database) async throws {
        for group in contents.groups {
            for line in group.lines {
                let target = OrderableVariant(variant: line.variant, product: line.product, store: group.store, settings: group.settings)
                try await target.checkBuyer(user, today: now, on: tx)
            }
        }
    }

    /// Takes every variant's total (two lines of one variant count together) in id order. A
    /// shortage is a 409 naming each short line, after which the transaction rolls back whatever
    /// was taken. Returns the variants that crossed their low-stock threshold.
    private func takeStock(_ contents: CartContents, bucket: StockLedger.Bucket, on tx: any Database) async throws -> [LowStockAlerts.Crossing] {
        var wanted: [UUID: (quantity: Int, line: CartContents.Line)] = [:]
        for line in contents.lines {
            wanted[line.variant.id!, default: (0, line)].quantity += line.line.quantity
        }
        let ledger = StockLedger(tx)
        var short: [Problem.FieldError] = []
        var crossings: [LowStockAlerts.Crossing] = []
        for variantID in wanted.keys.sorted(by: { $0.uuidString < $1.uuidString }) {
            let (quantity, line) = wanted[variantID]!
            if try await ledger.take(quantity, of: variantID, into: bucket) {
                if try await ledger.crossedLowStock(variantID) {
                    crossings.append(.init(storeID: line.product.$store.id, productTitle: line.product.title, size: line.variant.size))
                }
            } else {
                let left = try await ProductVariant.find(variantID, on: tx)?.available ?? 0
                short.append(.init(
                    field: "lines.\(variantID.idString)",
                    message: "only \(left) of \(line.product.title) in size \(line.variant.size) left"))
            }
        }
        guard short.isEmpty else {
            throw Problem(
                .conflict, type: "https://atelier.dev/problems/out-of-stock", title: "Not enough stock",
                detail: short.map(\.message).joined(separator: "; ") + ".", errors: short)
        }
        return crossings
    }
}
