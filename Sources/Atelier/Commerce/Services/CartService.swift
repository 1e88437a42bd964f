import Fluent
import Foundation
import SQLKit

/// Whose cart: an account's, or a signed-out browser session's (merged at sign-in).
enum CartOwner: Sendable, Equatable {
    case user(UUID)
    case session(String)
}

/// The server-side cart. Every change runs in one write transaction and checks the variant is
/// for sale, orderable, allowed to the buyer's age and available in the quantity asked.
struct CartService {
    let db: any Database
    let core: CoreServices

    /// The most of one size a line may hold (also keeps sums far from overflowing).
    static let maxQuantity = 999

    private var now: Date { core.clock.now() }

    func contents(of owner: CartOwner) async throws -> CartContents {
        try await CartContents.load(try await cart(of: owner, on: db)?.id, on: db)
    }

    /// Adds `quantity` of a variant; a variant already in the cart adds up.
    func add(variantID rawVariantID: String, quantity: Int, for owner: CartOwner, buyer: User?) async throws -> CartContents {
        guard (1...Self.maxQuantity).contains(quantity) else { throw Problem.invalid("quantity", "must be 1 to \(Self.maxQuantity)") }
        let variantID = try Self.variantID(rawVariantID)
        let now = now
        return try await core.writeTransaction(on: db) { tx in
            let target = try await OrderableVariant.load(variantID, for: buyer, on: tx)
            try await target.checkBuyer(buyer, today: now, on: tx)
            let cart = try await cart(of: owner, on: tx, create: true)!
            let lines = try await CartLine.query(on: tx).filter(\.$cartID == cart.id!).filter(\.$variantID == variantID).all()
            let total = lines.reduce(quantity) { $0 + $1.quantity }
            guard total <= Self.maxQuantity else { throw Problem.invalid("quantity", "a line holds at most \(Self.maxQuantity)") }
            try target.checkAvailable(total)
            try await write(total, of: target, into: cart, replacing: lines, on: tx)
            return try await CartContents.load(cart.id, on: tx)
        }
    }

    /// Sets a line's quantity; 0 removes it. The line takes the current price as the one seen.
    func setQuantity(variantID rawVariantID: String, to quantity: Int, for owner: CartOwner, buyer: User?) async throws -> CartContents {
        guard (0...Self.maxQuantity).contains(quantity) else {
            throw Problem.invalid("quantity", "must be 0 (to remove the line) to \(Self.maxQuantity)")
        }
        let variantID = try Self.variantID(rawVariantID)
        let now = now
        return try await core.writeTransaction(on: db) { tx in
            guard let cart = try await cart(of: owner, on: tx) else { throw Problem.notFound("cart line") }
            let lines = try await CartLine.query(on: tx).filter(\.$cartID == cart.id!).filter(\.$variantID == variantID).all()
            guard !lines.isEmpty else { throw Problem.notFound("cart line") }
            if quantity == 0 {
                for line in lines { try await line.delete(on: tx) }
            } else {
                let target = try await OrderableVariant.load(variantID, for: buyer, on: tx)
                try await target.checkBuyer(buyer, today: now, on: tx)
                try target.checkAvailable(quantity)
                try await write(quantity, of: target, into: cart, replacing: lines, on: tx)
            }
            return try await CartContents.load(cart.id, on: tx)
        }
    }

    func remove(variantID rawVariantID: String, for owner: CartOwner) async throws -> CartContents {
        let variantID = try Self.variantID(rawVariantID)
        return try await core.writeTransaction(on: db) { tx in
            guard let cart = try await cart(of: owner, on: tx) else { return .empty }
            try await CartLine.query(on: tx).filter(\.$cartID == cart.id!).filter(\.$variantID == variantID).delete()
            return try await CartContents.load(cart.id, on: tx)
        }
    }

    func clear(for owner: CartOwner) async throws -> CartContents {
        try await core.writeTransaction(on: db) { tx in
            guard let cart = try await cart(of: owner, on: tx) else { return .empty }
            try await CartLine.query(on: tx).filter(\.$cartID == cart.id!).delete()
            return CartContents(cartID: cart.id, groups: [])
        }
    }

    /// The shopper saw the flagged prices: every line takes the current price as seen.
    func acceptChanges(for owner: CartOwner) async throws -> CartContents {
        try await core.writeTransaction(on: db) { tx in
            guard let cart = try await cart(of: owner, on: tx) else { return .empty }
            let contents = try await CartContents.load(cart.id, on: tx)
            for line in contents.lines where line.line.seenPriceMinor != line.unitPriceMinor {
                line.line.seenPriceMinor = line.unitPriceMinor
                try await line.line.update(on: tx)
            }
            return try await CartContents.load(cart.id, on: tx)
        }
    }

    /// At sign-in: the session's lines move into the account's cart. Quantities add up, capped by
    /// what is available; lines the account may not buy (age) or that are gone are dropped.
    func merge(session key: String, into user: User) async throws {
        let now = now
        try await core.writeTransaction(on: db) { tx in
            guard let guest = try await cart(of: .session(key), on: tx) else { return }
            let guestLines = try await CartLine.query(on: tx).filter(\.$cartID == guest.id!).sort(\.$addedAt).all()
            let cart = try await cart(of: .user(user.requireID()), on: tx, create: true)!
            for guestLine in guestLines {
                guard let target = try? await OrderableVariant.load(guestLine.variantID, for: user, on: tx),
                    (try? await target.checkBuyer(user, today: now, on: tx)) != nil
                else { continue }
                let lines = try await CartLine.query(on: tx).filter(\.$cartID == cart.id!).filter(\.$variantID == guestLine.variantID).all()
                let total = target.orderable(upTo: lines.reduce(guestLine.quantity) { $0 + $1.quantity })
                if total > 0 { try await write(total, of: target, into: cart, replacing: lines, on: tx) }
            }
            try await guest.delete(on: tx)
        }
    }

    /// Puts a past order's lines back into the cart, as far as they are still for sale and available.
    func reorder(_ order: Order, for user: User) async throws -> CartContents {
        let now = now
        let orderLines = try await OrderLine.query(on: db).filter(\.$orderID == order.requireID()).sort(\.$position).all()
        return try await core.writeTransaction(on: db) { tx in
            let cart = try await cart(of: .user(user.requireID()), on: tx, create: true)!
            for orderLine in orderLines {
                guard let variantID = orderLine.variantID, let target = try? await OrderableVariant.load(variantID, for: user, on: tx),
                    (try? await target.checkBuyer(user, today: now, on: tx)) != nil
                else { continue }
                let lines = try await CartLine.query(on: tx).filter(\.$cartID == cart.id!).filter(\.$variantID == variantID).all()
                let total = target.orderable(upTo: lines.reduce(orderLine.quantity) { $0 + $1.quantity })
                if total > 0 { try await write(total, of: target, into: cart, replacing: lines, on: tx) }
            }
            return try await CartContents.load(cart.id, on: tx)
        }
    }

    /// The one line for the variant, with `quantity` and the current price as seen.
    private func write(_ quantity: Int, of target: OrderableVariant, into cart: Cart, replacing lines: [CartLine], on tx: any Database) async throws {
        let line = lines.first ?? CartLine()
        if line.id == nil {
            line.id = .v7(at: now)
            line.cartID = cart.id!
            line.variantID = try target.variant.requireID()
            line.addedAt = now
        }
        line.quantity = quantity
        line.seenPriceMinor = target.unitPriceMinor
        try await line.save(on: tx)
        for extra in lines.dropFirst() { try await extra.delete(on: tx) }
        cart.updatedAt = now
        try await cart.update(on: tx)
    }

    func cart(of owner: CartOwner, on db: any Database, create: Bool = false) async throws -> Cart? {
        let query = Cart.query(on: db)
        switch owner {
        case .user(let id): query.filter(\.$userID == id)
        case .session(let key): query.filter(\.$sessionKey == key)
        }
        if let cart = try await query.first() { return cart }
        guard create else { return nil }
        // Two first adds at once (a double tap) both get here; the insert of the second does nothing
        // (on PostgreSQL it waits for the first to commit) and both then read the one cart.
        let userID: UUID? = if case .user(let id) = owner { id } else { nil }
        let sessionKey: String? = if case .session(let key) = owner { key } else { nil }
        try await db.sql.raw("""
            INSERT INTO \(ident: Cart.schema) (id, user_id, session_key, created_at, updated_at)
            VALUES (\(bind: UUID.v7(at: now)), \(bind: userID), \(bind: sessionKey), \(bind: now), \(bind: now)) ON CONFLICT DO NOTHING
            """).run()
        return try await query.copy().first()
    }

    static func variantID(_ raw: String) throws -> UUID {
        guard let id = UUID(uuidString: raw) else { throw Problem.invalid("variantId", "is not a variant id") }
        return id
    }
}

/// A variant on its way into a cart, with the product, store and settings that decide whether it
/// may be ordered.
struct OrderableVariant {
    var variant: ProductVariant
    var product: Product
    var store: Store
    var settings: CommerceSettings?
    /// The buyer is an approved trade customer of the store: trade price, whole cases.
    var tradeCustomer = false

    var unitPriceMinor: Int { tradeCustomer ? product.tradePriceMinor ?? product.priceMinor : product.priceMinor }

    /// The variant when `buyer` (nil: signed out) may order it; an unknown one, or one the buyer may
    /// not see (a sign-in-to-browse store), is a 422 naming `variantId`.
    static func load(_ id: UUID, for buyer: User?, on db: any Database) async throws -> OrderableVariant {
        guard let variant = try await ProductVariant.query(on: db).filter(\.$id == id).with(\.$product, { $0.with(\.$store) }).first(),
            variant.product.isActive, variant.product.store.isActive,
            try await StoreAccess(db: db).canBrowse(variant.product.store, user: buyer)
        else { throw Problem.invalid("variantId", "is not a size of a product on sale") }
        let settings = try await CommerceSettings.query(on: db).filter(\.$storeID == variant.product.$store.id).first()
        guard settings?.orderingEnabled == true else {
            throw Problem.conflict("\(variant.product.store.name) does not take orders at the moment.", field: "variantId")
        }
        let trade = try await StoreAccess(db: db).isTradeCustomer(buyer, of: variant.product.$store.id)
        return OrderableVariant(variant: variant, product: variant.product, store: variant.product.store, settings: settings, tradeCustomer: trade)
    }

    /// The largest quantity up to `wanted` that can be ordered: available, in whole cases for the trade.
    func orderable(upTo wanted: Int) -> Int {
        let capped = min(wanted, variant.available)
        guard tradeCustomer, product.caseSize > 1 else { return capped }
        return capped - capped % product.caseSize
    }

    func checkAvailable(_ quantity: Int) throws {
        if tradeCustomer, product.caseSize > 1, !quantity.isMultiple(of: product.caseSize) {
            throw Problem.invalid("quantity", "\(product.title) is sold to the trade in cases of \(product.caseSize): order a multiple of it")
        }
        guard quantity <= variant.available else {
            let left = variant.available == 0 ? "none are" : "only \(variant.available) \(variant.available == 1 ? "is" : "are")"
            throw Problem.invalid("quantity", "\(left) available in size \(variant.size)")
        }
    }

    /// 403 when the product is age-restricted and `buyer` (nil: signed out) may not buy it.
    func checkBuyer(_ buyer: User?, today: Date, on db: any Database) async throws {
        guard let required = try await requiredAge(on: db) else { return }
        try AgeRule.check(
            birthDate: buyer?.birthDate, required: required, today: today,
            timeZone: TimeZone(identifier: store.timeZone) ?? .gmt, title: product.title)
    }

    func requiredAge(on db: any Database) async throws -> Int? {
        let path = try await Category.find(product.categoryID, on: db)?.path ?? ""
        return AgeRule(settings: settings).requiredAge(minAge: product.minAge, categoryPath: path)
    }
}
