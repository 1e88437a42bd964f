import Fluent
import Foundation
import SQLKit

/// What search engines may list: the public pages of active stores that anyone may browse, their
/// active products, approved brands, and the magazine's published articles. A sign-in-to-browse
/// store and its products never appear (issue 51: no leak through sitemaps).
struct Sitemap {
    /// The sitemaps protocol's limit of URLs per file.
    static let pageSize = 50_000

    struct Entry: Sendable, Equatable {
        var path: String
        var lastModified: Date?
    }

    enum Part: String, CaseIterable, Sendable { case pages, stores, brands, products, magazine }

    let db: any Database
    let now: Date


    /// How many files each part needs (at least one, so every part's URL answers).
    func fileCounts() async throws -> [(part: Part, files: Int)] {
        let products = try await db.sql.raw("""
            SELECT COUNT(*) AS n FROM \(ident: Product.schema) p JOIN \(ident: Store.schema) s ON s.id = p.store_id
            WHERE \(Self.publicProduct)
            """).first()?.decode(column: "n", as: Int.self) ?? 0
        return Part.allCases.map { part in
            (part, part == .products ? max(1, (products + Self.pageSize - 1) / Self.pageSize) : 1)
        }
    }

    /// File `index` (from 0) of `part`, in a stable order.
    func entries(_ part: Part, file index: Int) async throws -> [Entry] {
        switch part {
        case .pages:
            return ["/", "/magazine", "/privacy", "/terms", "/contact"].map { Entry(path: $0, lastModified: nil) }
        case .stores:
            return try await db.sql.raw("""
                SELECT slug, updated_at FROM \(ident: Store.schema) s
                WHERE s.status = \(bind: Store.Status.active.rawValue) AND s.members_only = \(bind: false) ORDER BY s.slug
                """).all().map { Entry(path: "/stores/\(try $0.decode(column: "slug", as: String.self))", lastModified: try $0.decode(column: "updated_at", as: Date.self)) }
        case .brands:
            return try await db.sql.raw("""
                SELECT slug FROM \(ident: Brand.schema) WHERE status = \(bind: Brand.Status.approved.rawValue) ORDER BY slug
                """).all().map { Entry(path: "/brands/\(try $0.decode(column: "slug", as: String.self))", lastModified: nil) }
        case .products:
            return try await db.sql.raw("""
                SELECT p.id AS id, p.updated_at AS updated_at FROM \(ident: Product.schema) p JOIN \(ident: Store.schema) s ON s.id = p.store_id
                WHERE \(Self.publicProduct) ORDER BY p.id LIMIT \(bind: Self.pageSize) OFFSET \(bind: index * Self.pageSize)
                """).all().map {
                    Entry(path: "/products/\(try $0.decode(column: "id", as: UUID.self).idString)", lastModified: try $0.decode(column: "updated_at", as: Date.self))
                }
        case .magazine:
            return try await db.sql.raw("""
                SELECT a.id AS id, a.updated_at AS updated_at FROM \(ident: MagazineArticle.schema) a
                JOIN \(ident: MagazineIssue.schema) i ON i.id = a.issue_id
                WHERE a.status = \(bind: MagazineArticle.Status.published.rawValue)
                  AND i.status <> \(bind: MagazineIssue.Status.draft.rawValue) AND i.publish_at <= \(bind: now)
                ORDER BY i.publish_at DESC, a.position
                """).all().map {
                    Entry(path: "/magazine/articles/\(try $0.decode(column: "id", as: UUID.self).idString)", lastModified: try $0.decode(column: "updated_at", as: Date.self))
                }
        }
    }

    private static var publicProduct: SQLQueryString {
        """
        p.status = \(bind: Product.Status.active.rawValue) AND s.status = \(bind: Store.Status.active.rawValue) AND s.members_only = \(bind: false)
        """
    }
}
