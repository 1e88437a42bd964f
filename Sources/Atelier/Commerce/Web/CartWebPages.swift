import Fluent
import Vapor

/// `/cart` and checkout in the browser. Signed-out visitors fill a cart kept for their session;
/// checking out asks them to sign in first, and the cart comes along.
enum CartWebPages {
    struct Line: Encodable {
        var variantID: String
        var productURL: String
        var title: String
        var size: String
        var quantity: Int
        var unitPrice: String
        var lineTotal: String
        var issues: [String]
    }

    struct Group: Encodable {
        var storeName: String
        var storeURL: String
        var lines: [Line]
        var subtotal: String
        var orderingEnabled: Bool
        var reserve: Bool
        var pickup: Bool
        var delivery: Bool
    }

    /// What every store in the cart offers (one checkout places one order per store, all alike).
    struct Offers: Encodable {
        var pickup = true, reserve = true, delivery = true
        var payAtStore = true, invoice = true, card = true

        init(_ groups: [CartContents.Group], cardPayments: Bool) {
            for group in groups {
                let s = group.settings
                pickup = pickup && (s?.pickupEnabled ?? false)
                reserve = reserve && (s?.reserveEnabled ?? false)
                delivery = delivery && (s?.deliveryEnabled ?? false)
                payAtStore = payAtStore && (s?.payAtStore ?? false)
                invoice = invoice && (s?.payByInvoice ?? false) && group.tradeCustomer
                card = card && (s?.payByCard ?? false) && cardPayments
            }
        }
    }

    struct Context: WebPageContext {
        var page: PageContext
        var groups: [Group]
        var totals: [String]
        var itemCount: Int
        var hasIssues: Bool
        var priceChanged: Bool
        /// One checkout attempt per page view: submitting twice orders once.
        var attempt: String
        var offers: Offers
        /// The first fulfilment and payment offered, checked at first.
        var fulfilment: String
        var paymentMethod: String
    }

    static func register(_ web: any RoutesBuilder) {
        web.get("cart", use: page)
        web.post("cart", "add", use: add)
        web.post("cart", "lines", ":variantID", use: setQuantity)
        web.post("cart", "accept", use: accept)
        web.grouped(RequireWebUser()).post("checkout", use: checkout)
    }

    static func page(_ req: Request) async throws -> View {
        var contents = CartContents.empty
        if let owner = try WebCart.owner(req, create: false) {
            contents = try await CartService(db: req.db, core: req.core).contents(of: owner)
        }
        let groups = contents.groups.map(group)
        let lines = contents.lines
        let offers = Offers(contents.groups, cardPayments: req.atelier.payments != nil)
        let fulfilment = offers.pickup ? "pickup" : offers.delivery ? "delivery" : "reserve"
        let payment = offers.invoice ? "invoice" : offers.payAtStore && fulfilment != "delivery" ? "payAtStore" : offers.card ? "card" : "payAtStore"
        return try await req.renderPage("commerce/cart", Context(
            page: PageContext(req, title: "Cart"), groups: groups, totals: contents.totals.map { MoneyText.format($0.minor, $0.currency) },
            itemCount: contents.itemCount, hasIssues: lines.contains { !$0.issues.isEmpty },
            priceChanged: lines.contains { line in line.issues.contains { $0.kind == CartContents.IssueKind.priceChanged } },
            attempt: UUID().idString, offers: offers, fulfilment: fulfilment, paymentMethod: payment))
    }

    private static func group(_ group: CartContents.Group) -> Group {
        Group(
            storeName: group.store.name, storeURL: "/stores/\(group.store.slug)", lines: group.lines.map(line),
            subtotal: MoneyText.format(group.subtotalMinor, group.currency), orderingEnabled: group.orderingEnabled,
            reserve: group.settings?.reserveEnabled ?? false, pickup: group.settings?.pickupEnabled ?? false,
            delivery: group.settings?.deliveryEnabled ?? false)
    }

    private static func line(_ line: CartContents.Line) -> Line {
        let currency = line.product.currency
        return Line(
            variantID: line.variant.id!.idString, productURL: "/products/\(line.product.id!.idString)",
            title: line.product.title, size: line.variant.size, quantity: line.line.quantity,
            unitPrice: MoneyText.format(line.unitPriceMinor, currency), lineTotal: MoneyText.format(line.lineTotalMinor, currency),
            issues: line.issues.map(\.message))
    }

    struct AddForm: Content {
        var variantID: String?
        var quantity: Int?
        var productID: String?
    }

    static func add(_ req: Request) async throws -> Response {
        let form = try req.content.decode(AddForm.self)
        let back = form.productID.flatMap(UUID.init(uuidString:)).map { "/products/\($0.idString)" } ?? "/cart"
        do {
            let owner = try WebCart.owner(req, create: true)!
            _ = try await CartService(db: req.db, core: req.core)
                .add(variantID: form.variantID ?? "", quantity: form.quantity ?? 1, for: owner, buyer: req.webSessionUser)
            Flash.set("success", "In your cart.", on: req)
            return req.redirect(to: "/cart")
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", problem.errors.first?.message.capitalizedFirst ?? problem.detail ?? "That could not be added.", on: req)
            return req.redirect(to: back)
        }
    }

    static func setQuantity(_ req: Request) async throws -> Response {
        let quantity = (try? req.content.get(Int.self, at: "quantity")) ?? 0
        guard let owner = try WebCart.owner(req, create: false) else { return req.redirect(to: "/cart") }
        do {
            _ = try await CartService(db: req.db, core: req.core)
                .setQuantity(variantID: req.parameters.get("variantID") ?? "", to: quantity, for: owner, buyer: req.webSessionUser)
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", problem.errors.first?.message.capitalizedFirst ?? problem.detail ?? "That could not be changed.", on: req)
        }
        return req.redirect(to: "/cart")
    }

    static func accept(_ req: Request) async throws -> Response {
        if let owner = try WebCart.owner(req, create: false) {
            _ = try await CartService(db: req.db, core: req.core).acceptChanges(for: owner)
        }
        return req.redirect(to: "/cart")
    }

    struct CheckoutForm: Content {
        var fulfilment: String?
        var paymentMethod: String?
        var discountCode: String?
        var attempt: String?
        var name: String?
        var street: String?
        var postalCode: String?
        var city: String?
        var phone: String?
    }

    static func checkout(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let form = try req.content.decode(CheckoutForm.self)
        // A second submit of the same page (a double tap, a reload) shows the orders of the first.
        let attemptKey = "checkout." + (form.attempt ?? "")
        if let done = req.session.data[attemptKey] { return req.redirect(to: done) }
        do {
            let request = try CheckoutRequest(
                fulfilment: Order.Fulfilment(rawValue: form.fulfilment ?? "") ?? .pickup,
                payment: Order.Payment(rawValue: form.paymentMethod ?? "") ?? .payAtStore, discountCode: form.discountCode,
                address: form.fulfilment == Order.Fulfilment.delivery.rawValue
                    ? .init(
                        name: form.name ?? "", street: form.street ?? "", postalCode: form.postalCode ?? "", city: form.city ?? "",
                        phone: form.phone?.nilIfEmpty, lat: nil, lng: nil)
                    : nil)
            let orders = try await CheckoutService(db: req.db, core: req.core, live: req.atelier.live, mailOutbox: req.atelier.mailOutbox, payments: req.atelier.payments).checkout(request, by: user)
            let target = orders.count == 1 ? "/orders/\(orders[0].id!.idString)" : "/orders"
            req.session.data[attemptKey] = target
            if orders.contains(where: { $0.state == .pendingPayment }) {
                Flash.set("success", "Your order is held for \(Int(CheckoutService.paymentWindow / 60)) minutes: pay by card to place it.", on: req)
            } else {
                Flash.set("success", orders.count == 1 ? "Thank you! Your order is placed." : "Thank you! One order per store is placed.", on: req)
            }
            return req.redirect(to: target)
        } catch let problem as Problem where problem.status.code < 500 {
            let detail = problem.status == .unprocessableEntity ? problem.errors.map(\.message).joined(separator: "; ") : problem.detail
            Flash.set("error", (detail ?? "The order could not be placed.").capitalizedFirst, on: req)
            return req.redirect(to: "/cart")
        }
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
