import Fluent
import Vapor

/// The store portal's order queue (new, confirmed, ready, done), the moves staff make, and the
/// printable pick list of what to fetch from the shelves.
enum PortalOrderPages {
    struct Tab: Encodable {
        var queue: String
        var label: String
        var count: Int
        var current: Bool
    }

    struct QueueContext: WebPageContext {
        var page: PageContext
        var store: PortalRoutes.StoreNav
        var tabs: [Tab]
        var orders: [OrderWebPages.OrderCard]
        var moreURL: String?
    }

    struct PickRow: Encodable {
        var title: String
        var size: String
        var quantity: Int
        var orders: String
    }

    struct PickContext: WebPageContext {
        var page: PageContext
        var store: PortalRoutes.StoreNav
        var rows: [PickRow]
    }

    static func register(_ store: any RoutesBuilder) {
        store.get("orders", use: queue)
        store.get("orders", "picklist", use: pickList)
        store.post("orders", ":orderID", "transition", use: transition)
    }

    static func queue(_ req: Request) async throws -> View {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "orders")
        let queue = req.query[String.self, at: "queue"].flatMap { ["new", "confirmed", "ready", "done"].contains($0) ? $0 : nil } ?? "new"
        let service = OrderService(db: req.db, core: req.core, live: req.atelier.live)
        let page = try PageRequest(limit: 30, cursor: req.query[String.self, at: "cursor"])
        let orders = try await service.orders(of: store, queue: queue, page: page)
        let counts = try await service.queueCounts(of: store)
        let labels = [("new", "New"), ("confirmed", "Confirmed"), ("ready", "Ready"), ("done", "Done")]
        return try await req.renderPage("commerce/portal-orders", QueueContext(
            page: PageContext(req, title: "Orders · \(store.name)"), store: nav,
            tabs: labels.map { Tab(queue: $0.0, label: $0.1, count: counts[$0.0] ?? 0, current: $0.0 == queue) },
            orders: try await OrderWebPages.cards(orders.items, withCustomers: true, on: req.db),
            moreURL: orders.nextCursor.map { "/portal/stores/\(nav.id)/orders?queue=\(queue)&cursor=\($0)" }))
    }

    struct TransitionForm: Content {
        var to: String?
        var reason: String?
        var idChecked: String?
    }

    static func transition(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "orders")
        let form = try req.content.decode(TransitionForm.self)
        guard let id = req.parameters.get("orderID").flatMap(UUID.init(uuidString:)), let order = try await Order.find(id, on: req.db),
            order.storeID == store.id, let to = Order.Status(rawValue: form.to ?? "")
        else { throw Problem.notFound("order") }
        do {
            try await OrderService(db: req.db, core: req.core, live: req.atelier.live).transition(
                id, to: to, by: .staff(user.requireID()), reason: form.reason, idChecked: form.idChecked == "on" || form.idChecked == "true")
            Flash.set("success", "Order \(order.number): \(OrderWebPages.labels[to] ?? to.rawValue).", on: req)
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", problem.errors.first?.message ?? problem.detail ?? "That did not work.", on: req)
        }
        let queue = OrderStateMachine.queue(of: order.state)
        return req.redirect(to: "/portal/stores/\(nav.id)/orders?queue=\(queue)")
    }

    /// Everything in new and confirmed orders, summed per size, for one walk through the stock room.
    static func pickList(_ req: Request) async throws -> View {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "orders")
        let open = [Order.Status.placed, .confirmed].map(\.rawValue)
        let orders = try await Order.query(on: req.db).filter(\.$storeID == store.requireID()).filter(\.$status ~~ open).all()
        let lines = try await OrderLine.query(on: req.db).filter(\.$orderID ~~ orders.map { $0.id! }).all()
        let numbers = Dictionary(uniqueKeysWithValues: orders.map { ($0.id!, $0.number) })
        var rows: [String: PickRow] = [:]
        for line in lines {
            let key = "\(line.title)\u{1F}\(line.size)"
            var row = rows[key] ?? PickRow(title: line.title, size: line.size, quantity: 0, orders: "")
            row.quantity += line.quantity
            let number = "#\(numbers[line.orderID] ?? 0)"
            row.orders = row.orders.isEmpty ? number : row.orders + ", " + number
            rows[key] = row
        }
        return try await req.renderPage("commerce/picklist", PickContext(
            page: PageContext(req, title: "Pick list · \(store.name)"), store: nav,
            rows: rows.values.sorted { ($0.title, $0.size) < ($1.title, $1.size) }))
    }
}
