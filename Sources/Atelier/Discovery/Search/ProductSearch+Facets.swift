import Fluent
import Foundation
import SQLKit

extension ProductSearch {
    /// How many results there are in all, and per category, brand, store and colour (most first).
    /// With `byNumber`, the same filters on the numbered rows (SQLite, a search with words,
    /// `SearchConditions.filtersByNumber`), it reads the matches' facet numbers instead of their
    /// ids: same counts, a third of the work.
    func facets(filters: SQLQueryString, tokens: [String], byNumber numberedFilters: SQLQueryString?) async throws -> (Int, Facets) {
        // One pass over the matches that hands over each facet's values as one joined string,
        // counted here. A GROUP BY per facet sorted the whole result four times over (SQLite, the
        // 28 000 matches of "cotton": 88 ms, and 140 ms where SQLite chose not to materialise it).
        let byNumbers = numberedFilters != nil
        let source = numberedFilters.map { conditions.listedMatchesByNumber(tokens, filters: $0) } ?? conditions.matchedSource(tokens)
        let key = byNumbers ? "no" : "id"
        var query: SQLQueryString = """
            SELECT COUNT(*) AS n, \(conditions.joinedValues("p.brand_\(key)")) AS brands, \(conditions.joinedValues("p.category_\(key)")) AS categories,
            \(conditions.joinedValues("p.store_\(key)")) AS stores, \(conditions.joinedValues("p.colors")) AS colors
            FROM \(source.from) WHERE \(source.match)
            """
        if !byNumbers { query += " AND \(filters)" }
        guard let row = try await sql.raw(query).first() else { return (0, Facets()) }
        let total = try row.decode(column: "n", as: Int.self)
        let (joinedBrands, joinedCategories, joinedStores) = try (
            row.decode(column: "brands", as: String?.self), row.decode(column: "categories", as: String?.self),
            row.decode(column: "stores", as: String?.self))
        let colors = try JoinedValueCounts.stringCounts(row.decode(column: "colors", as: String?.self))
        let (brands, categories, stores) = byNumbers
            ? try await idCounts(numbered: joinedBrands, joinedCategories, joinedStores)
            : try await idCounts(joinedBrands, joinedCategories, joinedStores)
        // Then the three kinds of label read side by side (each read takes a connection of its own).
        async let brandLabels = names(of: Brand.schema, Array(brands.keys))
        async let categoryLabelsRead = categoryLabels(Array(categories.keys))
        let storeNames = try await names(of: Store.schema, Array(stores.keys))
        let (brandNames, categoryNames) = try await (brandLabels, categoryLabelsRead)
        func facets(_ counts: [UUID: Int], labels: [UUID: String]) -> [Facet] {
            Self.top(counts.compactMap { id, n in labels[id].map { Facet(value: id.idString, label: $0, count: n) } })
        }
        return (total, Facets(
            categories: facets(categories, labels: categoryNames),
            brands: facets(brands, labels: brandNames),
            stores: facets(stores, labels: storeNames),
            colors: Self.top(colors.map { Facet(value: $0.key, label: $0.key, count: $0.value) })))
    }

    /// Each list holds an id per match (three times 28 000 for "cotton"): counted side by side.
    private func idCounts(_ brands: String?, _ categories: String?, _ stores: String?) async throws -> ([UUID: Int], [UUID: Int], [UUID: Int]) {
        async let countedBrands = JoinedValueCounts.idCounts(brands)
        async let countedCategories = JoinedValueCounts.idCounts(categories)
        let countedStores = try JoinedValueCounts.idCounts(stores)
        return try await (countedBrands, countedCategories, countedStores)
    }

    /// The same from lists of facet numbers (SQLite): counted, then the few hundred distinct numbers
    /// turned into their ids in one statement.
    private func idCounts(numbered brands: String?, _ categories: String?, _ stores: String?) async throws -> ([UUID: Int], [UUID: Int], [UUID: Int]) {
        let counted = try [brands, categories, stores].map(JoinedValueCounts.numberCounts)
        let numbers = Set(counted.flatMap(\.keys))
        guard !numbers.isEmpty else { return ([:], [:], [:]) }
        var ids: [Int: UUID] = [:]
        for row in try await sql.raw("SELECT no, id FROM search_facet_numbers WHERE no IN (\(binds: Array(numbers)))").all() {
            ids[try row.decode(column: "no", as: Int.self)] = try FastColumns(row, textUUIDs: true).uuid("id")
        }
        func byID(_ counts: [Int: Int]) throws -> [UUID: Int] {
            var out: [UUID: Int] = [:]
            for (number, n) in counts {
                guard let id = ids[number] else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "search facets: no id numbered \(number)"))
                }
                out[id, default: 0] += n
            }
            return out
        }
        return try (byID(counted[0]), byID(counted[1]), byID(counted[2]))
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
