import Fluent
import Foundation
import SQLKit

/// Discount codes: created by staff, applied at checkout to the store that issued them. The
/// limits are exact under concurrency: `redeem` raises `used_count` with a conditional update that
/// also locks the code's row until commit, and counts the customer's earlier uses after that.
struct DiscountService {
    let db: any Database
    let core: CoreServices

    struct Applied: Sendable {
        var code: DiscountCode
        var storeID: UUID
        var amountMinor: Int
    }

    struct Draft: Sendable {
        var code: String
        var kind: String
        var value: Int
        var minimumOrderMinor: Int?
        var startsAt: Date?
        var endsAt: Date?
        var totalLimit: Int?
        var perCustomerLimit: Int?
    }

    func create(_ draft: Draft, in store: Store) async throws -> DiscountCode {
        var errors = FieldErrors()
        let code = draft.code.trimmingCharacters(in: .whitespaces).uppercased()
        if code.count < 3 || code.count > 40 || !code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) {
            errors.add("code", "must be 3 to 40 letters, digits, - or _")
        }
        let kind = DiscountCode.Kind(rawValue: draft.kind)
        switch kind {
        case .percentage: if !(1...100).contains(draft.value) { errors.add("value", "must be a percentage from 1 to 100") }
        case .fixed: if draft.value < 1 { errors.add("value", "must be an amount of at least 1 (minor units)") }
        case nil: errors.add("kind", "must be percentage or fixed")
        }
        if let minimum = draft.minimumOrderMinor, minimum < 0 { errors.add("minimumOrder", "cannot be negative") }
        if let starts = draft.startsAt, let ends = draft.endsAt, ends <= starts { errors.add("endsAt", "must be after startsAt") }
        if let limit = draft.totalLimit, limit < 1 { errors.add("totalLimit", "must be at least 1") }
        if let limit = draft.perCustomerLimit, limit < 1 { errors.add("perCustomerLimit", "must be at least 1") }
        try errors.throwIfAny()

        let now = core.clock.now()
        let row = DiscountCode()
        row.id = .v7(at: now)
        row.storeID = try store.requireID()
        row.code = code
        row.kind = kind!.rawValue
        row.value = draft.value
        row.minimumOrderMinor = draft.minimumOrderMinor ?? 0
        row.startsAt = draft.startsAt
        row.endsAt = draft.endsAt
        row.totalLimit = draft.totalLimit
        row.perCustomerLimit = draft.perCustomerLimit
        row.usedCount = 0
        row.createdAt = now
        do {
            try await core.writeTransaction(on: db) { tx in try await row.create(on: tx) }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw Problem.conflict("\(store.name) already has the code \(code).", field: "code")
        }
        return row
    }

    func list(in store: Store) async throws -> [DiscountCode] {
        try await DiscountCode.query(on: db).filter(\.$storeID == store.requireID()).sort(\.$id, .descending).all()
    }

    /// The code as it applies to `contents` now, or nil without a code. An unknown, expired or
    /// not-yet-valid code, or an order below its minimum, is a 422 naming `discountCode`.
    func applicable(_ code: String?, in contents: CartContents, now: Date) async throws -> Applied? {
        guard let code else { return nil }
        let storeIDs = contents.groups.map { $0.store.id! }
        guard let row = try await DiscountCode.query(on: db).filter(\.$code == code).filter(\.$storeID ~~ storeIDs).first(),
            let group = contents.groups.first(where: { $0.store.id == row.storeID })
        else { throw Problem.invalid("discountCode", "is not a code of the stores in your cart") }
        if let starts = row.startsAt, now < starts { throw Problem.invalid("discountCode", "is not valid yet") }
        if let ends = row.endsAt, now >= ends { throw Problem.invalid("discountCode", "has expired") }
        if let limit = row.totalLimit, row.usedCount >= limit { throw Problem.invalid("discountCode", "has been used up") }
        let subtotal = group.subtotalMinor
        if subtotal < row.minimumOrderMinor {
            throw Problem.invalid(
                "discountCode", "needs an order of at least \(MoneyText.format(row.minimumOrderMinor, group.currency)) at \(group.store.name)")
        }
        let amount = row.kind == DiscountCode.Kind.percentage.rawValue ? subtotal * row.value / 100 : min(row.value, subtotal)
        return Applied(code: row, storeID: row.storeID, amountMinor: amount)
    }

    /// Counts one use for `order`; a 409 when the last use went to a concurrent checkout, or the
    /// customer used up their share meanwhile.
    func redeem(_ applied: Applied, by userID: UUID, order: Order) async throws {
        let sql = db.sql
        let codeID = try applied.code.requireID()
        let counted = try await sql.raw("""
            UPDATE \(ident: DiscountCode.schema) SET used_count = used_count + 1
            WHERE id = \(bind: codeID) AND (total_limit IS NULL OR used_count < total_limit) RETURNING id
            """).first()
        guard counted != nil else { throw Problem.conflict("The code \(applied.code.code) was just used up.", field: "discountCode") }
        if let perCustomer = applied.code.perCustomerLimit {
            let used = try await DiscountRedemption.query(on: db).filter(\.$codeID == codeID).filter(\.$userID == userID).count()
            guard used < perCustomer else {
                throw Problem.invalid("discountCode", "can be used \(perCustomer) time\(perCustomer == 1 ? "" : "s") per customer")
            }
        }
        let redemption = DiscountRedemption()
        redemption.id = .v7(at: core.clock.now())
        redemption.codeID = codeID
        redemption.userID = userID
        redemption.orderID = try order.requireID()
        redemption.createdAt = core.clock.now()
        try await redemption.create(on: db)
    }
}
