import Fluent
import Foundation

/// A cart as the shopper sees it: its lines with their variant, product and store, grouped by
/// store, each with what changed since it was added.
struct CartContents: Sendable {
    struct Line: Sendable {
        var line: CartLine
        var variant: ProductVariant
        var product: Product
        /// The buyer is an approved trade customer of the store and the product has a trade price.
        var atTradePrice: Bool
        var issues: [Issue]

        var unitPriceMinor: Int { atTradePrice ? product.tradePriceMinor ?? product.priceMinor : product.priceMinor }
        var lineTotalMinor: Int { unitPriceMinor * line.quantity }
    }

    struct Group: Sendable {
        var store: Store
        var settings: CommerceSettings?
        /// The cart's owner is an approved trade customer of this store.
        var tradeCustomer: Bool
        var lines: [Line]

        var orderingEnabled: Bool { store.isActive && settings?.orderingEnabled == true }
        var subtotalMinor: Int { lines.reduce(0) { $0 + $1.lineTotalMinor } }
        var currency: String { lines.first?.product.currency ?? "SEK" }
    }

    enum IssueKind: String, Sendable { case inactive, outOfStock, notEnoughStock, priceChanged, notOrderable, caseMultiple }

    struct Issue: Sendable {
        var kind: IssueKind
        var message: String
        var previousPriceMinor: Int?
    }

    var cartID: UUID?
    var groups: [Group]

    static let empty = CartContents(cartID: nil, groups: [])

    var lines: [Line] { groups.flatMap(\.lines) }
    var itemCount: Int { lines.reduce(0) { $0 + $1.line.quantity } }

    /// One total per currency, in first-seen order.
    var totals: [(currency: String, minor: Int)] {
        var order: [String] = []
        var sums: [String: Int] = [:]
        for line in lines {
            if sums[line.product.currency] == nil { order.append(line.product.currency) }
            sums[line.product.currency, default: 0] += line.lineTotalMinor
        }
        return order.map { ($0, sums[$0]!) }
    }

    /// Reads cart `cartID` on `db` (a transaction when the caller is about to order it).
    static func load(_ cartID: UUID?, on db: any Database) async throws -> CartContents {
        guard let cartID else { return .empty }
        let rows = try await CartLine.query(on: db).filter(\.$cartID == cartID).sort(\.$addedAt).sort(\.$id).all()
        guard !rows.isEmpty else { return CartContents(cartID: cartID, groups: []) }
        let variants = try await ProductVariant.query(on: db).filter(\.$id ~~ Set(rows.map(\.variantID))).with(\.$product).all()
        let variantsByID = Dictionary(uniqueKeysWithValues: variants.map { ($0.id!, $0) })
        let storeIDs = Set(variants.map { $0.product.$store.id })
        let stores = Dictionary(uniqueKeysWithValues: try await Store.query(on: db).filter(\.$id ~~ storeIDs).all().map { ($0.id!, $0) })
        let settings = Dictionary(
            uniqueKeysWithValues: try await CommerceSettings.query(on: db).filter(\.$storeID ~~ storeIDs).all().map { ($0.storeID, $0) })
        var tradeStores: Set<UUID> = []
        if let userID = try await Cart.find(cartID, on: db)?.userID {
            tradeStores = Set(try await TradeCustomer.query(on: db).filter(\.$userID == userID).filter(\.$storeID ~~ storeIDs)
                .filter(\.$status == TradeCustomer.Status.approved.rawValue).all().map(\.storeID))
        }

        // Two lines of one variant (a merge racing an add) share the variant's availability.
        var wanted: [UUID: Int] = [:]
        for row in rows { wanted[row.variantID, default: 0] += row.quantity }

        var groups: [Group] = []
        for row in rows {
            guard let variant = variantsByID[row.variantID], let store = stores[variant.product.$store.id] else { continue }
            let trade = tradeStores.contains(store.id!)
            var line = Line(line: row, variant: variant, product: variant.product, atTradePrice: trade && variant.product.tradePriceMinor != nil, issues: [])
            line.issues = Self.issues(of: line, store: store, settings: settings[store.id!], wanted: wanted[row.variantID] ?? 0, trade: trade)
            if let index = groups.firstIndex(where: { $0.store.id == store.id }) {
                groups[index].lines.append(line)
            } else {
                groups.append(Group(store: store, settings: settings[store.id!], tradeCustomer: trade, lines: [line]))
            }
        }
        return CartContents(cartID: cartID, groups: groups)
    }

    private static func issues(of line: Line, store: Store, settings: CommerceSettings?, wanted: Int, trade: Bool) -> [Issue] {
        let (row, variant, product) = (line.line, line.variant, line.product)
        var issues: [Issue] = []
        if !product.isActive || !store.isActive || (store.membersOnly && !trade) {
            issues.append(Issue(kind: .inactive, message: "\(product.title) is no longer for sale."))
        } else if settings?.orderingEnabled != true {
            issues.append(Issue(kind: .notOrderable, message: "\(store.name) does not take orders at the moment."))
        }
        if variant.available == 0 {
            issues.append(Issue(kind: .outOfStock, message: "Size \(variant.size) is out of stock."))
        } else if wanted > variant.available {
            issues.append(Issue(kind: .notEnoughStock, message: "Only \(variant.available) of size \(variant.size) left."))
        }
        if trade, product.caseSize > 1, !row.quantity.isMultiple(of: product.caseSize) {
            issues.append(Issue(kind: .caseMultiple, message: "Order \(product.title) in cases of \(product.caseSize)."))
        }
        if line.unitPriceMinor != row.seenPriceMinor {
            let now = MoneyText.format(line.unitPriceMinor, product.currency)
            let was = MoneyText.format(row.seenPriceMinor, product.currency)
            issues.append(Issue(kind: .priceChanged, message: "The price is now \(now) (was \(was)).", previousPriceMinor: row.seenPriceMinor))
        }
        return issues
    }
}
