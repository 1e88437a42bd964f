import Fluent
import Foundation
import SQLKit

/// A product with everything a product card needs, loaded in a few batched queries.
struct ProductView: Sendable {
    var product: ProductLine
    var store: StoreLine
    var brand: BrandLine?
    var category: CategoryLine
    var trail: [String]
    var variants: [VariantLine]
    var photos: [MediaLine]
}

/// Reads of products: one product, a store's tab, the active products under a category.
struct ProductCatalog {
    let db: any Database

    /// A product the caller may see: active ones of active stores; others only for the store's staff and admins.
    func visibleProduct(_ id: UUID, to user: User?) async throws -> Product {
        guard let product = try await Product.find(id, on: db), let store = try await Store.find(product.$store.id, on: db) else {
            throw Problem.notFound("product")
        }
        if product.isActive, store.isPublic { return product }
        let access = StoreAccess(db: db)
        if product.isActive, store.isActive, try await access.canBrowse(store, user: user) { return product }
        guard try await access.canManage(store, user: user) else { throw Problem.notFound("product") }
        return product
    }

    /// A product's id and store, for writes that need no more of it (likes).
    struct ProductRef: Sendable {
        var id: UUID
        var storeID: UUID
    }

    /// `visibleProduct`'s rule in one small statement for the common case (active product, active store).
    func visibleProductRef(_ id: UUID, to user: User?) async throws -> ProductRef {
        let row = try await run("""
            SELECT p.store_id, p.status, s.status AS store_status, s.members_only FROM \(ident: Product.schema) p
            JOIN \(ident: Store.schema) s ON s.id = p.store_id WHERE p.id = \(bind: id)
            """).first()
        guard let row else { throw Problem.notFound("product") }
        let storeID = try row.decode(column: "store_id", as: UUID.self)
        if try row.decode(column: "status", as: String.self) == Product.Status.active.rawValue,
            try row.decode(column: "store_status", as: String.self) == Store.Status.active.rawValue,
            try !row.decode(column: "members_only", as: Bool.self) {
            return ProductRef(id: id, storeID: storeID)
        }
        _ = try await visibleProduct(id, to: user)
        return ProductRef(id: id, storeID: storeID)
    }

    /// A store's tab, newest first; with `categoryID`, only that category and those under it (404 for an unknown one).
    func storeProducts(_ storeID: UUID, status: Product.Status, categoryID: UUID? = nil, page: PageRequest) async throws -> Page<Product> {
        var query = Product.query(on: db).filter(\.$store.$id == storeID).filter(\.$status == status.rawValue)
        if let categoryID {
            guard let subtree = try await subtreeIDs(of: categoryID) else { throw Problem.notFound("category") }
            query = query.filter(\.$categoryID ~~ subtree)
        }
        let rows = try await query.newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// The filters of a product list: a category (and everything under it), a brand, a price range.
    struct ListFilter: Sendable {
        var categoryID: UUID?
        var brandID: UUID?
        var priceMin: Int?
        var priceMax: Int?
        /// The stores the caller's list may show.
        var visibility: StoreVisibility = .publicOnly
    }

    /// Active products of active stores passing `filter`, newest first. One statement reads the
    /// page of cards; with a category, each category of the subtree contributes at most one
    /// page from its own index range, so the cost does not grow with the catalogue (issue 9).
    func activeProducts(_ filter: ListFilter, page: PageRequest) async throws -> Page<ProductCardView> {
        var categoryIDs: [UUID]?
        if let categoryID = filter.categoryID {
            guard let subtree = try await subtreeIDs(of: categoryID) else { throw Problem.notFound("category") }
            categoryIDs = subtree
        }
        let condition = activeProductsCondition(filter, categoryIDs: categoryIDs, page: page)
        let cards = try await ProductCardReader(db: db).cards(where: condition, orderBy: "p.id DESC", limit: page.limit + 1)
        return Page(fetched: cards, limit: page.limit) { PageCursor(id: $0.id) }
    }

    /// The condition on products `p` of `activeProducts`; its plan is checked in a test.
    func activeProductsCondition(_ filter: ListFilter, categoryIDs: [UUID]?, page: PageRequest) -> SQLQueryString {
        // Plain filters keep SQLite from walking the store or price index instead of the category
        // index in id order (which lets each branch stop after one page).
        let store = plainFilter("p.store_id", dialect: sqlDialect), price = plainFilter("p.price_minor", dialect: sqlDialect)
        // Without a category the page is the newest products: SQLite must walk products in id order and stop
        // after one page, not take every active product from an index that happens to cover the test (the
        // feed index does) and sort them all (0.6 s at 100 000 products).
        let status = categoryIDs == nil ? plainFilter("p.status", dialect: sqlDialect) : "p.status"
        var common: SQLQueryString = """
            \(unsafeRaw: status) = \(bind: Product.Status.active.rawValue) \
            AND \(unsafeRaw: store) IN (SELECT s.id FROM \(ident: Store.schema) s WHERE \(filter.visibility.sql()))
            """
        if let brandID = filter.brandID { common += " AND p.brand_id = \(bind: brandID)" }
        if let min = filter.priceMin { common += " AND \(unsafeRaw: price) >= \(bind: min)" }
        if let max = filter.priceMax { common += " AND \(unsafeRaw: price) <= \(bind: max)" }
        if let cursor = page.cursor { common += " AND p.id < \(bind: cursor.id)" }
        guard let categoryIDs else { return common }
        // SQLite allows at most 500 terms in a compound SELECT; a subtree that large is read as one set.
        guard categoryIDs.count <= 400 else { return common + " AND p.category_id IN (\(binds: categoryIDs))" }
        let branches = categoryIDs.enumerated().map { index, id -> SQLQueryString in
            """
            SELECT k\(unsafeRaw: String(index)).id FROM (SELECT p.id FROM \(ident: Product.schema) p \
            WHERE p.category_id = \(bind: id) AND \(common) ORDER BY p.id DESC LIMIT \(unsafeRaw: String(page.limit + 1))) k\(unsafeRaw: String(index))
            """
        }
        return "p.id IN (\(branches.joined(separator: " UNION ALL ")))"
    }

    /// A category and everything under it, or nil when there is no such category.
    func subtreeIDs(of categoryID: UUID) async throws -> [UUID]? {
        let rows = try await run("""
            SELECT c.id FROM \(ident: Category.schema) r JOIN \(ident: Category.schema) c ON c.path >= r.path AND c.path < r.path || 'g'
            WHERE r.id = \(bind: categoryID)
            """).all()
        let ids = try rows.map { try $0.decode(column: "id", as: UUID.self) }
        return ids.isEmpty ? nil : ids
    }

    private var sqlDialect: String { db.sql.dialect.name }

    func run(_ query: SQLQueryString) -> SQLRawBuilder {
        db.sql.raw(query)
    }

    func views(_ products: [Product]) async throws -> [ProductView] {
        try await ProductViewReader(db: db).views(ids: products.compactMap(\.id))
    }

    /// The view of a product the caller may see (the rule of `visibleProduct`), read in one go.
    func visibleView(_ id: UUID, to user: User?) async throws -> ProductView {
        guard let view = try await ProductViewReader(db: db).views(ids: [id]).first else { throw Problem.notFound("product") }
        if view.product.isActive, view.store.isPublic { return view }
        let access = StoreAccess(db: db)
        if view.product.isActive, view.store.isActive, try await access.canBrowse(view.store, user: user) { return view }
        guard try await access.canManage(view.store, user: user) else { throw Problem.notFound("product") }
        return view
    }

    func view(_ product: Product) async throws -> ProductView {
        guard let view = try await views([product]).first else { throw Problem.notFound("product") }
        return view
    }
}
