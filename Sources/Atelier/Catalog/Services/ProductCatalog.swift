import Fluent
import Foundation
import SQLKit

/// A product with everything a product card needs, loaded in a few batched queries.
struct ProductView: Sendable {
    var product: Product
    var store: Store
    var brand: Brand?
    var category: Category
    var trail: [String]
    var variants: [ProductVariant]
    var photos: [Media]
}

/// Reads of products: one product, a store's tab, the active products under a category.
struct ProductCatalog {
    let db: any Database

    /// A product the caller may see: active ones of active stores; others only for the store's staff and admins.
    func visibleProduct(_ id: UUID, to user: User?) async throws -> Product {
        guard let product = try await Product.find(id, on: db), let store = try await Store.find(product.$store.id, on: db) else {
            throw Problem.notFound("product")
        }
        if product.isActive, store.isActive { return product }
        guard try await StoreAccess(db: db).canManage(store, user: user) else { throw Problem.notFound("product") }
        return product
    }

    func storeProducts(_ storeID: UUID, status: Product.Status, page: PageRequest) async throws -> Page<Product> {
        let rows = try await Product.query(on: db).filter(\.$store.$id == storeID).filter(\.$status == status.rawValue)
            .newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// Active products of active stores, in `category` and everything under it and/or of a brand.
    func activeProducts(under category: Category?, brandID: UUID?, page: PageRequest) async throws -> Page<Product> {
        let ids = try await run(activeProductIDsQuery(under: category, brandID: brandID, page: page)).all()
            .map { try $0.decode(column: "id", as: UUID.self) }
        let rows = try await Product.query(on: db).filter(\.$id ~~ ids).all()
        return Page(fetched: ids.compactMap { id in rows.first { $0.id == id } }, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// One statement over the path index and the product index (its plan is checked in a test).
    func activeProductIDsQuery(under category: Category?, brandID: UUID?, page: PageRequest) -> SQLQueryString {
        var query: SQLQueryString = """
            SELECT p.id FROM \(ident: Product.schema) p
            WHERE p.status = \(bind: Product.Status.active.rawValue)
            AND p.store_id IN (SELECT s.id FROM \(ident: Store.schema) s WHERE s.status = \(bind: Store.Status.active.rawValue))
            """
        if let category {
            query.appendInterpolation(unsafeRaw: "\nAND p.category_id IN (SELECT c.id FROM \(Category.schema) c WHERE c.path >= ")
            query.appendInterpolation(bind: category.path)
            query.appendInterpolation(unsafeRaw: " AND c.path < ")
            query.appendInterpolation(bind: Category.subtreeEnd(category.path))
            query.appendInterpolation(unsafeRaw: ")")
        }
        if let brandID {
            query.appendInterpolation(unsafeRaw: "\nAND p.brand_id = ")
            query.appendInterpolation(bind: brandID)
        }
        if let cursor = page.cursor {
            query.appendInterpolation(unsafeRaw: "\nAND p.id < ")
            query.appendInterpolation(bind: cursor.id)
        }
        query.appendInterpolation(unsafeRaw: "\nORDER BY p.id DESC LIMIT \(page.limit + 1)")
        return query
    }

    func run(_ query: SQLQueryString) -> SQLRawBuilder {
        (db as! any SQLDatabase).raw(query)
    }

    func views(_ products: [Product]) async throws -> [ProductView] {
        guard !products.isEmpty else { return [] }
        let ids = products.compactMap(\.id)
        let stores = try await Store.query(on: db).filter(\.$id ~~ Set(products.map { $0.$store.id })).all()
        let brands = try await Brand.query(on: db).filter(\.$id ~~ Set(products.compactMap(\.brandID))).all()
        let categories = try await Category.query(on: db).filter(\.$id ~~ Set(products.map(\.categoryID))).all()
        let ancestorIDs = Set(categories.flatMap { CategoryService.ancestorIDs(path: $0.path) })
        let ancestors = try await Category.query(on: db).filter(\.$id ~~ ancestorIDs).all()
        let variants = try await ProductVariant.query(on: db).filter(\.$product.$id ~~ ids).sort(\.$position).all()
        let photoRows = try await ProductPhoto.query(on: db).filter(\.$product.$id ~~ ids).sort(\.$position).all()
        let media = try await Media.query(on: db).filter(\.$id ~~ photoRows.map { $0.$media.id }).all()
        return products.compactMap { product in
            guard let store = stores.first(where: { $0.id == product.$store.id }),
                let category = categories.first(where: { $0.id == product.categoryID })
            else { return nil }
            let trail = CategoryService.ancestorIDs(path: category.path).compactMap { id in ancestors.first { $0.id == id }?.name }
            return ProductView(
                product: product, store: store, brand: brands.first { $0.id == product.brandID }, category: category, trail: trail,
                variants: variants.filter { $0.$product.id == product.id },
                photos: photoRows.filter { $0.$product.id == product.id }.compactMap { row in media.first { $0.id == row.$media.id } })
        }
    }

    func view(_ product: Product) async throws -> ProductView {
        guard let view = try await views([product]).first else { throw Problem.notFound("product") }
        return view
    }
}
