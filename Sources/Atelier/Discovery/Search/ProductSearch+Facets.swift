import Fluent
import Foundation
import SQLKit

extension ProductSearch {
    /// How many results there are in all, and per category, brand, store and colour (most first).
    /// With `byNumber`, the same filters on the numbered rows (SQLite, a search with words,
    /// `SearchConditions.filtersByNumber`), it reads the matches' facet numbers instead of their
    /// ids: same counts, a third of the work.
    func facets(filters: SQLQueryString, tokens: [String], byNumber numberedFilters: SQLQueryString?) async throws -> (Int, Facets) {
        let (total, counts) = conditions.isPostgres
            ? try await joinedCounts(filters: filters, tokens: tokens)
            : try await talliedCounts(filters: filters, tokens: tokens, byNumber: numberedFilters)
        return (total, try await labeled(counts))
    }

    /// The counts as facets, most first, each value with its label.
    func labeled(_ counts: Counts) async throws -> Facets {
        // The three kinds of label read side by side (each read takes a connection of its own).
        async let brandLabels = names(of: Brand.schema, Array(counts.brands.keys))
        async let categoryLabelsRead = categoryLabels(Array(counts.categories.keys))
        let storeNames = try await names(of: Store.schema, Array(counts.stores.keys))
        let (brandNames, categoryNames) = try await (brandLabels, categoryLabelsRead)
        func facets(_ counts: [UUID: Int], labels: [UUID: String]) -> [Facet] {
            Self.top(counts.compactMap { id, n in labels[id].map { Facet(value: id.idString, label: $0, count: n) } })
        }
        return Facets(
            categories: facets(counts.categories, labels: categoryNames),
            brands: facets(counts.brands, labels: brandNames),
            stores: facets(counts.stores, labels: storeNames),
            colors: Self.top(counts.colors.map { Facet(value: $0.key, label: $0.key, count: $0.value) }))
    }

    /// How many matches have each brand, category, store and colour.
    struct Counts {
        var brands: [UUID: Int] = [:]
        var categories: [UUID: Int] = [:]
        var stores: [UUID: Int] = [:]
        var colors: [String: Int] = [:]
    }

    /// SQLite: one pass over the matches that counts them (`FacetTally`). With `byNumber`, the same
    /// filters on the numbered rows (a search with words, `SearchConditions.filtersByNumber`), it
    /// reads the matches' facet numbers instead of their ids: same counts, a third of the work.
    private func talliedCounts(filters: SQLQueryString, tokens: [String], byNumber numberedFilters: SQLQueryString?) async throws -> (Int, Counts) {
        let source = numberedFilters.map { conditions.listedMatchesByNumber(tokens, filters: $0) } ?? conditions.matchedSource(tokens)
        let key = numberedFilters == nil ? "id" : "no"
        var query: SQLQueryString = """
            SELECT COUNT(*) AS n, \(unsafeRaw: FacetTally.functionName)(p.brand_\(unsafeRaw: key), p.category_\(unsafeRaw: key), p.store_\(unsafeRaw: key), p.colors) AS tally
            FROM \(source.from) WHERE \(source.match)
            """
        if numberedFilters == nil { query += " AND \(filters)" }
        guard let row = try await sql.raw(query).first() else { return (0, Counts()) }
        return try await tallied(row, byNumber: numberedFilters != nil)
    }

    /// A row's total (column `n`) and `facet_tally` (column `tally`) as counts by id; `byNumber`:
    /// the tally counted facet numbers, not ids.
    func tallied(_ row: any SQLRow, byNumber: Bool) async throws -> (Int, Counts) {
        let total = try row.decode(column: "n", as: Int.self)
        let tally = try row.decode(column: "tally", as: Data?.self).map { try FacetTally(record: $0) } ?? FacetTally()
        let facets = [tally.brands, tally.categories, tally.stores]
        let byID = byNumber ? try await byID(numbered: facets) : try facets.map(Self.byID)
        return (total, Counts(brands: byID[0], categories: byID[1], stores: byID[2], colors: tally.colors))
    }

    /// Counts keyed by ids as text, keyed by id.
    private static func byID(_ counts: [String: Int]) throws -> [UUID: Int] {
        var out: [UUID: Int] = [:]
        for (text, n) in counts {
            var text = text
            out[try text.withUTF8(JoinedValueCounts.id), default: 0] += n
        }
        return out
    }

    /// Counts keyed by facet numbers as text, keyed by id: the few hundred distinct numbers turned
    /// into their ids in one statement.
    private func byID(numbered counts: [[String: Int]]) async throws -> [[UUID: Int]] {
        let numbered = try counts.map { facet in
            try facet.map { text, n in
                guard let number = Int(text) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "search facets: \(text) is not a number"))
                }
                return (number, n)
            }
        }
        let numbers = Set(numbered.flatMap { $0.map(\.0) })
        guard !numbers.isEmpty else { return counts.map { _ in [:] } }
        var ids: [Int: UUID] = [:]
        for row in try await sql.raw("SELECT no, id FROM search_facet_numbers WHERE no IN (\(binds: Array(numbers)))").all() {
            ids[try row.decode(column: "no", as: Int.self)] = try FastColumns(row, textUUIDs: true).uuid("id")
        }
        return try numbered.map { facet in
            var out: [UUID: Int] = [:]
            for (number, n) in facet {
                guard let id = ids[number] else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "search facets: no id numbered \(number)"))
                }
                out[id, default: 0] += n
            }
            return out
        }
    }

    /// PostgreSQL: one pass over the matches that hands over each facet's values as one joined
    /// string, counted here. A GROUP BY per facet sorted the whole result four times over.
    private func joinedCounts(filters: SQLQueryString, tokens: [String]) async throws -> (Int, Counts) {
        let source = conditions.matchedSource(tokens)
        let query: SQLQueryString = """
            SELECT COUNT(*) AS n, \(conditions.joinedValues("p.brand_id")) AS brands, \(conditions.joinedValues("p.category_id")) AS categories,
            \(conditions.joinedValues("p.store_id")) AS stores, \(conditions.joinedValues("p.colors")) AS colors
            FROM \(source.from) WHERE \(source.match) AND \(filters)
            """
        guard let row = try await sql.raw(query).first() else { return (0, Counts()) }
        let (brands, categories, stores) = try (
            row.decode(column: "brands", as: String?.self), row.decode(column: "categories", as: String?.self),
            row.decode(column: "stores", as: String?.self))
        // Each list holds an id per match (three times 28 000 for "cotton"): counted side by side.
        async let countedBrands = JoinedValueCounts.idCounts(brands)
        async let countedCategories = JoinedValueCounts.idCounts(categories)
        let countedStores = try JoinedValueCounts.idCounts(stores)
        return try await (row.decode(column: "n", as: Int.self), Counts(
            brands: countedBrands, categories: countedCategories, stores: countedStores,
            colors: JoinedValueCounts.stringCounts(row.decode(column: "colors", as: String?.self))))
    }

    /// The names of a few brands or stores by id, read in one plain statement.
    private func names(of table: String, _ ids: [UUID]) async throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        var names: [UUID: String] = [:]
        for row in try await sql.raw("SELECT id, name FROM \(ident: table) WHERE id IN (\(binds: ids))").all() {
            names[try FastColumns(row, textUUIDs: !conditions.isPostgres).uuid("id")] = try row.decode(column: "name", as: String.self)
        }
        return names
    }

    /// "Women › Shirts": a category's name after its parent's, since names repeat across the tree.
    private func categoryLabels(_ ids: [UUID]) async throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        var labels: [UUID: String] = [:]
        for row in try await sql.raw("""
            SELECT c.id, c.name, parent.name AS parent_name FROM \(ident: Category.schema) c
            LEFT JOIN \(ident: Category.schema) parent ON parent.id = c.parent_id WHERE c.id IN (\(binds: ids))
            """).all() {
            let name = try row.decode(column: "name", as: String.self)
            labels[try FastColumns(row, textUUIDs: !conditions.isPostgres).uuid("id")] = try row.decode(column: "parent_name", as: String?.self).map { "\($0) › \(name)" } ?? name
        }
        return labels
    }

    private static func top(_ facets: [Facet]) -> [Facet] {
        Array(facets.sorted { ($0.count, $1.label) > ($1.count, $0.label) }.prefix(facetLimit))
    }
}
