import Fluent
import Foundation
import SQLKit

/// Moves orders through their states. Each move is one conditional update of the order's row
/// (`WHERE status = <the state it was read in>`), so of two racing moves only one happens, and the
/// stock effect that goes with it (release, handover) happens exactly once.
struct OrderService {
    let db: any Database
    let core: CoreServices
    let live: LiveUpdates

    typealias Actor = OrderStateMachine.Actor

    /// Moves `orderID` to `to`. Moving an order to the state it is already in changes nothing
    /// (a second cancel is not an error); any other move the state machine does not allow is a 409.
    @discardableResult
    func transition(
        _ orderID: UUID, to: Order.Status, by actor: Actor, reason: String? = nil, idChecked: Bool = false
    ) async throws -> Order {
        let now = core.clock.now()
        let trimmedReason = reason?.trimmingCharacters(in: .whitespacesAndNewlines)
        let (order, changed) = try await core.writeTransaction(on: db) { tx -> (Order, Bool) in
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
            do {
                let updated = try await OrderMove.apply(
                    order, to: to, actorID: actor.userID, reason: trimmedReason, idChecked: idChecked, on: tx, now: now)
                return (updated, true)
            } catch let problem as Problem where problem.status == .conflict {
                // A concurrent request made the same move first (two taps on "cancel"): that is
                // the outcome asked for, not an error.
                if let current = try await Order.find(orderID, on: tx), current.state == to { return (current, false) }
                throw problem
            }
        }
        if changed, let customerID = order.userID, customerID != actor.userID {
            await InboxService.announce(.orderUpdated, to: customerID, by: actor.userID, live: live)
        }
        return order
    }

    /// Expires every order whose hold passed (uncollected reservations, unpaid card orders).
    /// Returns how many expired. Safe to run on several instances at once: each expiry is a
    /// conditional move, so an order expires (and its stock returns) once.
    @discardableResult
    func expireDue(limit: Int = 200) async throws -> Int {
        let now = core.clock.now()
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
        let rows = try await db.sql.raw("""
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
