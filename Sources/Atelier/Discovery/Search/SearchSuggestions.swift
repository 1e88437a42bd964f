import Fluent
import Foundation
import SQLKit

/// Suggestions while typing (discovery.md): approved brands, active stores and categories whose
/// names match the typed words; under an active category filter, its sub-categories with the most
/// active products.
struct SearchSuggestions {
    struct Suggestion: Sendable, Equatable {
        var id: UUID
        var label: String
        /// A store's city, a category's path.
        var detail: String
    }

    struct Result: Sendable {
        var brands: [Suggestion] = []
        var stores: [Suggestion] = []
        var categories: [Suggestion] = []
        var popularCategories: [ProductSearch.Facet] = []
    }

    static let limit = 6
    let db: any Database
    /// The stores the caller may see.
    var visibility: StoreVisibility = .publicOnly

    func suggest(text: String?, categoryID: UUID?) async throws -> Result {
        if let text, text.count > 100 { throw Problem.invalid("q", "must be at most 100 characters") }
        var result = Result()
        if let categoryID {
            guard let category = try await Category.find(categoryID, on: db) else { throw Problem.invalid("categoryId", "is not a category") }
            result.popularCategories = try await popularChildren(of: category)
        }
        let match = TextMatch(text ?? "")
        guard !match.tokens.isEmpty else { return result }

        let brands = try await Brand.query(on: db).filter(\.$status == Brand.Status.approved.rawValue).field(\.$id).field(\.$name).all()
        result.brands = match.best(brands, limit: Self.limit, name: \.name).map { Suggestion(id: $0.id!, label: $0.name, detail: "") }
        let stores = try await Store.query(on: db).filter(\.$status == Store.Status.active.rawValue)
            .field(\.$id).field(\.$name).field(\.$city).field(\.$membersOnly).all()
            .filter { visibility.admits(storeID: $0.id!, isActive: true, membersOnly: $0.membersOnly) }
        result.stores = match.best(stores, limit: Self.limit, name: \.name).map { Suggestion(id: $0.id!, label: $0.name, detail: $0.city) }
        let categories = try await Category.query(on: db).all()
        result.categories = match.best(categories, limit: Self.limit, name: \.name).map { category in
            let trail = CategoryService.ancestorIDs(path: category.path).compactMap { id in categories.first { $0.id == id }?.name }
            return Suggestion(id: category.id!, label: category.name, detail: trail.joined(separator: " › "))
        }
        return result
    }

    /// The children of `category`, each with the active products in its subtree, most first.
    private func popularChildren(of category: Category) async throws -> [ProductSearch.Facet] {
        let rows = try await db.sql.raw("""
            SELECT c.path AS path, COUNT(*) AS n FROM \(ident: Product.schema) p
            JOIN \(ident: Category.schema) c ON c.id = p.category_id
            WHERE p.status = \(bind: Product.Status.active.rawValue)
            AND p.store_id IN (SELECT s.id FROM \(ident: Store.schema) s WHERE \(visibility.sql()))
            AND c.path > \(bind: category.path) AND c.path < \(bind: Category.subtreeEnd(category.path))
            GROUP BY c.path
            """).all()
        var counts: [String: Int] = [:]
        for row in rows {
            let path = try row.decode(column: "path", as: String.self)
            counts[String(path.dropFirst(category.path.count).prefix(32)), default: 0] += try row.decode(column: "n", as: Int.self)
        }
        let children = try await Category.query(on: db).filter(\.$parentID == category.requireID()).all()
        return children.compactMap { child in
            counts[Category.segment(child.id!)].map { ProductSearch.Facet(value: child.id!.idString, label: child.name, count: $0) }
        }
        .sorted { ($0.count, $1.label) > ($1.count, $0.label) }
        .prefix(Self.limit).map { $0 }
    }
}
