import Fluent
import Vapor

/// The shopper's orders in the browser: the list, one order (its receipt), cancel and reorder.
enum OrderWebPages {
    struct OrderLineRow: Encodable {
        var id: String
        var title: String
        var size: String
        var quantity: Int
        var unitPrice: String
        var lineTotal: String
        var productURL: String?
        /// The customer's own receipt of a completed order offers "Add to my closet" (wardrobe.md).
        var canAddToCloset: Bool
    }

    struct HistoryRow: Encodable {
        var status: String
        var at: String
        var reason: String?
    }

    /// An order as the pages show it, to the customer or to staff.
    struct OrderCard: Encodable {
        var id: String
        var url: String
        var number: Int
        var storeName: String
        var status: String
        var statusLabel: String
        var fulfilment: String
        var payment: String
        var lines: [OrderLineRow]
        var subtotal: String
        var discount: String?
        var deliveryFee: String?
        var total: String
        var holdUntil: String?
        /// What the shopper shows at the counter (pickup and reservations).
        var pickupCode: String?
        var cancelReason: String?
        var customer: String?
        var needsIDCheck: Bool
        var history: [HistoryRow]
        var createdAt: String
        var canCancel: Bool
        /// A card order waiting for its payment: the receipt offers the provider's payment page.
        var awaitsCard: Bool
        var vat: VATTable
    }

    /// Net, VAT and gross per rate and in all, as the receipt and the invoice print them.
    struct VATTable: Encodable {
        struct Row: Encodable { var rate: String; var net: String; var vat: String; var gross: String }
        var pricesIncludeVAT: Bool
        var rows: [Row]
        var total: Row

        init(_ breakdown: VATBreakdown, currency: String) {
            let money = { (minor: Int) in MoneyText.format(minor, currency) }
            let percent = { (bp: Int) in "\(VATBreakdown.percentText(bp)) %" }
            pricesIncludeVAT = breakdown.pricesIncludeVAT
            rows = breakdown.rates.map { Row(rate: percent($0.basisPoints), net: money($0.netMinor), vat: money($0.vatMinor), gross: money($0.grossMinor)) }
            total = Row(rate: "All", net: money(breakdown.netMinor), vat: money(breakdown.vatMinor), gross: money(breakdown.grossMinor))
        }
    }

    static let labels: [Order.Status: String] = [
        .pendingPayment: "Waiting for payment", .placed: "Placed", .confirmed: "Confirmed by the store", .readyForPickup: "Ready to collect",
        .outForDelivery: "Out for delivery", .completed: "Completed", .cancelled: "Cancelled", .expired: "Expired", .refunded: "Refunded",
    ]
    static let fulfilments = ["reserve": "Reserved to try on", "pickup": "Pickup in the shop", "delivery": "Delivery"]
    static let payments = ["payAtStore": "Pay in the shop", "card": "Card", "invoice": "Invoice"]

    static func cards(_ orders: [Order], withCustomers: Bool, on db: any Database) async throws -> [OrderCard] {
        guard !orders.isEmpty else { return [] }
        let ids = orders.map { $0.id! }
        let lines = Dictionary(grouping: try await OrderLine.query(on: db).filter(\.$orderID ~~ ids).sort(\.$position).all(), by: \.orderID)
        let events = Dictionary(grouping: try await OrderEvent.query(on: db).filter(\.$orderID ~~ ids).sort(\.$position).all(), by: \.orderID)
        let stores = Dictionary(uniqueKeysWithValues: try await Store.query(on: db).filter(\.$id ~~ Set(orders.map(\.storeID))).all().map { ($0.id!, $0) })
        var customers: [UUID: User] = [:]
        if withCustomers {
            for user in try await User.query(on: db).filter(\.$id ~~ Set(orders.compactMap(\.userID))).all() { customers[user.id!] = user }
        }
        return orders.map { order in
            let money = { (minor: Int) in MoneyText.format(minor, order.currency) }
            let time = { (date: Date) in Self.format(date, timeZone: stores[order.storeID]?.timeZone) }
            let id = order.id!.idString
            return OrderCard(
                id: id, url: "/orders/\(id)", number: order.number, storeName: stores[order.storeID]?.name ?? "", status: order.status,
                statusLabel: labels[order.state] ?? order.status, fulfilment: fulfilments[order.fulfilment] ?? order.fulfilment,
                payment: payments[order.paymentMethod] ?? order.paymentMethod,
                lines: (lines[order.id!] ?? []).map {
                    OrderLineRow(
                        id: $0.id!.idString, title: $0.title, size: $0.size, quantity: $0.quantity, unitPrice: money($0.unitPriceMinor),
                        lineTotal: money($0.unitPriceMinor * $0.quantity), productURL: $0.productID.map { "/products/\($0.idString)" },
                        canAddToCloset: !withCustomers && order.state == .completed && $0.productID != nil)
                },
                subtotal: money(order.subtotalMinor), discount: order.discountMinor > 0 ? money(order.discountMinor) : nil,
                deliveryFee: order.deliveryFeeMinor > 0 ? money(order.deliveryFeeMinor) : nil, total: money(order.totalMinor),
                holdUntil: order.holdUntil.map(time), pickupCode: PickupCode.of(order), cancelReason: order.cancelReason,
                customer: order.userID.flatMap { customers[$0] }.map { "\($0.displayName)\($0.email.map { " · \($0)" } ?? "")" },
                needsIDCheck: order.needsIDCheck && !order.idChecked,
                history: (events[order.id!] ?? []).map { HistoryRow(status: labels[Order.Status(rawValue: $0.toStatus) ?? .placed] ?? $0.toStatus, at: time($0.createdAt), reason: $0.reason) },
                createdAt: time(order.createdAt), canCancel: [.pendingPayment, .placed].contains(order.state),
                awaitsCard: order.state == .pendingPayment && order.paymentMethod == Order.Payment.card.rawValue,
                vat: VATTable(VATBreakdown(order, lines: lines[order.id!] ?? []), currency: order.currency))
        }
    }

    /// "24 Nov 15:30", in the store's time zone (where the shopper collects).
    static func format(_ date: Date, timeZone: String?) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt
        formatter.dateFormat = "d MMM HH:mm"
        return formatter.string(from: date)
    }

    struct ListContext: WebPageContext {
        var page: PageContext
        var orders: [OrderCard]
        var moreURL: String?
    }

    struct DetailContext: WebPageContext {
        var page: PageContext
        var order: OrderCard
        /// Back from the payment page, before the provider's webhook has said it is paid.
        var paymentSent: Bool
    }

    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.get("orders", use: list)
        signedIn.get("orders", ":orderID", use: detail)
        signedIn.post("orders", ":orderID", "cancel", use: cancel)
        signedIn.post("orders", ":orderID", "reorder", use: reorder)
        // A link, not a form: the CSP's form-action keeps form submissions (and their redirects) on
        // our own origin, and asking for the page again returns the same one (no second charge).
        signedIn.get("orders", ":orderID", "pay", use: payByCard)
    }

    static func list(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let page = try PageRequest(limit: 20, cursor: req.query[String.self, at: "cursor"])
        let orders = try await OrderService(db: req.db, core: req.core, live: req.atelier.live).orders(of: user, page: page)
        return try await req.renderPage("commerce/orders", ListContext(
            page: PageContext(req, title: "Your orders"), orders: try await cards(orders.items, withCustomers: false, on: req.db),
            moreURL: orders.nextCursor.map { "/orders?cursor=\($0)" }))
    }

    static func detail(_ req: Request) async throws -> View {
        let order = try await ownOrder(req)
        let card = try await cards([order], withCustomers: false, on: req.db)[0]
        return try await req.renderPage("commerce/order", DetailContext(
            page: PageContext(req, title: "Order \(order.number)"), order: card, paymentSent: req.query[String.self, at: "payment"] == "sent"))
    }

    /// Off to the card provider's own payment page; back on the receipt when it cannot be made.
    static func payByCard(_ req: Request) async throws -> Response {
        let order = try await ownOrder(req)
        let receipt = "/orders/\(order.id!.idString)"
        guard let provider = req.atelier.payments else {
            Flash.set("error", "Card payments are not available; cancel the order and choose another way to pay.", on: req)
            return req.redirect(to: receipt)
        }
        do {
            let store = try await Store.find(order.storeID, on: req.db)
            let url = try await CardPayments(db: req.db, core: req.core, live: req.atelier.live, provider: provider)
                .hostedPayment(for: order, storeName: store?.name ?? "", publicBaseURL: req.atelier.config.publicBaseURL)
            return req.redirect(to: url.absoluteString)
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", problem.detail ?? "This order is not waiting for a payment.", on: req)
        } catch is PaymentProviderUnavailable {
            Flash.set("error", "The card payment page could not be opened just now; try again in a minute.", on: req)
        }
        return req.redirect(to: receipt)
    }

    static func cancel(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let order = try await ownOrder(req)
        do {
            try await OrderService(db: req.db, core: req.core, live: req.atelier.live).transition(order.requireID(), to: .cancelled, by: .shopper(user.requireID()))
            Flash.set("success", "Order \(order.number) is cancelled.", on: req)
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", "The store has confirmed this order already; ask them to cancel it.", on: req)
        }
        return req.redirect(to: "/orders/\(order.id!.idString)")
    }

    static func reorder(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let order = try await ownOrder(req)
        let cart = try await CartService(db: req.db, core: req.core).reorder(order, for: user)
        Flash.set(cart.lines.isEmpty ? "error" : "success", cart.lines.isEmpty ? "None of it is available any more." : "Back in your cart, as far as available.", on: req)
        return req.redirect(to: "/cart")
    }

    private static func ownOrder(_ req: Request) async throws -> Order {
        let user = try req.requireWebUser()
        let order = try await OrderService(db: req.db, core: req.core, live: req.atelier.live).visibleOrder(req.parameters.get("orderID") ?? "", to: user)
        guard order.userID == user.id else { throw Problem.notFound("order") }
        return order
    }
}
