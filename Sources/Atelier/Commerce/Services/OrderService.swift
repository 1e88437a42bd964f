import Fluent
import Foundation
import SQLKit

/// Moves orders through their states. Each move is one conditional update of the order's row
/// (`WHERE status = <the state it was read in>`), so of two racing moves only one happens, and the
/// stock effect that goes with it (release, handover) happens exactly once.
struct OrderService {
    let db: any Database
    let services: AtelierServices

    typealias Actor = OrderStateMachine.Actor

    /// Moves `orderID` to `to`. Moving an order to the state it is already in changes nothing
    /// (a second cancel is not an error); any other move the state machine does not allow is a 409.
    @discardableResult
    func transition(
        _ orderID: UUID, to: Order.Status, by actor: Actor, reason: String? = nil, idChecked: Bool = false
    ) async throws -> Order {
        let now = services.clock.now()
        let trimmedReason = reason?.trimmingCharacters(in: .whitespacesAndNewlines)
        let (order, changed) = try await services.writeTransaction(on: db) { tx -> (Order, Bool) in
            guard let order = try await Order.find(orderID, on: tx) else { throw Problem.notFound("order") }
            let from = order.state
            if from == to { return (order, false) }
            let fulfilment = Order.Fulfilment(rawValue: order.fulfilment) ?? .pickup
            guard OrderStateMachine.allows(from, to, fulfilment: fulfilment, by: actor) else {
                throw Problem.conflict("Order \(order.number) is \(from.rawValue) and cannot become \(to.rawValue).", field: "to")
            }
            if to == .cancelled, case .staff = actor, trimmedReason?.isEmpty ?? true {
                throw Problem.invalid("reason", "tell the customer why the order is cancelled")
            }
            if to == .completed, order.needsIDCheck, !idChecked, !order.idChecked {
                throw Problem.conflict("This order holds age-restricted goods: check the customer's ID and confirm it.", field: "idChecked")
            }
            let before = Order.StockState(rawValue: order.stockState) ?? .released
            let after = OrderStateMachine.stockState(after: to, from: before, fulfilment: fulfilment)
            let sql = tx as! any SQLDatabase
            let moved = try await sql.raw("""
                UPDATE \(ident: Order.schema) SET status = \(bind: to.rawValue), stock_state = \(bind: after.rawValue),
                updated_at = \(bind: now), cancel_reason = \(bind: to == .cancelled ? trimmedReason : order.cancelReason),
                id_checked = \(bind: order.idChecked || (to == .completed && idChecked)),
                hold_until = \(bind: after == .allocated ? nil : order.holdUntil)
                WHERE id = \(bind: orderID) AND status = \(bind: from.rawValue) AND stock_state = \(bind: before.rawValue)
                RETURNING id
                """).first()
            guard moved != nil else {
                throw Problem.conflict("Order \(order.number) changed meanwhile; reload it.", field: "to")
            }
            try await moveStock(of: order, from: before, to: after)
            guard let updated = try await Order.find(orderID, on: tx) else { throw Problem.notFound("order") }
            try await OrderHistory.record(updated, from: from, by: actor.userID, reason: trimmedReason, on: tx, now: now)
            return (updated, true)

            func moveStock(of order: Order, from before: Order.StockState, to after: Order.StockState) async throws {
                guard before != after else { return }
                let lines = try await OrderLine.query(on: tx).filter(\.$orderID == orderID).all()
                let ledger = StockLedger(tx)
                for line in lines.sorted(by: { ($0.variantID?.uuidString ?? "") < ($1.variantID?.uuidString ?? "") }) {
                    guard let variantID = line.variantID else { continue }
                    switch (before, after) {
                    case (.held, .released): try await ledger.release(line.quantity, of: variantID, from: .held)
                    case (.allocated, .released): try await ledger.release(line.quantity, of: variantID, from: .allocated)
                    case (.held, .handedOver): try await ledger.handOver(line.quantity, of: variantID, from: .held)
                    case (.allocated, .handedOver): try await ledger.handOver(line.quantity, of: variantID, from: .allocated)
                    case (.held, .allocated): try await ledger.moveHeldToAllocated(line.quantity, of: variantID)
                    default: break
                    }
                }
            }
        }
        if changed, order.userID != actor.userID {
            await InboxService.announce(.orderUpdated, to: order.userID, by: actor.userID, live: services.live)
        }
        return order
    }

    /// Expires every order whose hold passed (uncollected reservations, unpaid card orders).
    /// Returns how many expired. Safe to run on several instances at once: each expiry is a
    /// conditional move, so an order expires (and its stock returns) once.
    @discardableResult
    func expireDue(limit: Int = 200) async throws -> Int {
        let now = services.clock.now()
        let due = try await Order.query(on: db).filter(\.$stockState == Order.StockState.held.rawValue)
            .filter(\.$holdUntil <= now).sort(\.$holdUntil).limit(limit).all()
        var expired = 0
        for order in due {
            do {
                try await transition(order.requireID(), to: .expired, by: .system)
                expired += 1
            } catch let problem as Problem where problem.status == .conflict {
                continue  // collected, cancelled or expired by another instance meanwhile
            }
        }
        return expired
    }

    /// The order when `user` placed it or works at its store (or is an admin); 404 otherwise.
    func visibleOrder(_ rawID: String, to user: User) async throws -> Order {
        guard let id = UUID(uuidString: rawID), let order = try await Order.find(id, on: db) else { throw Problem.notFound("order") }
        if try order.userID == user.requireID() || user.isAdmin { return order }
        guard try await StoreAccess(db: db).role(of: user, in: order.storeID) != nil else { throw Problem.notFound("order") }
        return order
    }

    func orders(of user: User, page: PageRequest) async throws -> Page<Order> {
        let rows = try await Order.query(on: db).filter(\.$userID == user.requireID()).newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    func orders(of store: Store, queue: String?, page: PageRequest) async throws -> Page<Order> {
        let query = try Order.query(on: db).filter(\.$storeID == store.requireID())
        if let queue { query.filter(\.$status ~~ OrderStateMachine.statuses(inQueue: queue).map(\.rawValue)) }
        let rows = try await query.newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// How many orders are in each queue.
    func queueCounts(of store: Store) async throws -> [String: Int] {
        let rows = try await (db as! any SQLDatabase).raw("""
            SELECT status, COUNT(*) AS n FROM \(ident: Order.schema) WHERE store_id = \(bind: store.requireID()) GROUP BY status
            """).all()
        var counts = ["new": 0, "confirmed": 0, "ready": 0, "done": 0]
        for row in rows {
            guard let status = Order.Status(rawValue: try row.decode(column: "status", as: String.self)) else { continue }
            counts[OrderStateMachine.queue(of: status), default: 0] += try row.decode(column: "n", as: Int.self)
        }
        return counts
    }
}
