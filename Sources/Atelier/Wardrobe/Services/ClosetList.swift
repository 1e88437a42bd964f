import Fluent
import Foundation

/// A person's closet, filtered and sorted. A closet is hundreds of items, not millions, so the
/// filters run in SQL and the sorts that need computed values (cost per wear) run here; pages are
/// offsets into that order (`o:<n>` in the cursor).
struct ClosetList {
    let db: any Database

    enum Sort: String, CaseIterable, Sendable {
        case newest, type, colour, size, mostWorn = "most-worn", leastWorn = "least-worn", costPerWear = "cost-per-wear"
    }

    struct Filters: Sendable {
        var types: [String] = []
        var size: String?
        var colour: String?
        var brand: String?
        var season: String?
        var tag: String?
        var favourite: Bool?
        /// nil or false: only items in use; true: only archived ones.
        var archived: Bool?
        var text: String?
    }

    func items(of ownerID: UUID, filters: Filters, sort rawSort: String?, limit: Int?, cursor: String?) async throws -> (items: [ClosetItem], nextCursor: String?) {
        let sort = try rawSort.map { raw in
            guard let sort = Sort(rawValue: raw) else {
                throw Problem.invalid("sort", "must be one of \(Sort.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return sort
        } ?? .newest
        let limit = limit ?? PageRequest.defaultLimit
        guard (1...PageRequest.maxLimit).contains(limit) else { throw Problem.invalid("limit", "must be between 1 and \(PageRequest.maxLimit)") }
        var offset = 0
        if let cursor {
            guard let text = Base64URL.decode(cursor, maxLength: 40), text.hasPrefix("o:"), let value = Int(text.dropFirst(2)), value >= 0 else {
                throw Problem.invalidCursor()
            }
            offset = value
        }
        for type in filters.types where ClosetItem.Kind(rawValue: type) == nil { throw Problem.invalid("type", "'\(type.prefix(40))' is not a garment type") }
        if let colour = filters.colour, ColourName(rawValue: colour) == nil { throw Problem.invalid("colour", "is not a palette colour") }
        if let season = filters.season, ClosetItem.Season(rawValue: season) == nil { throw Problem.invalid("season", "must be spring, summer, autumn or winter") }

        var query = ClosetItem.query(on: db).filter(\.$ownerID == ownerID)
        query = filters.archived == true ? query.filter(\.$archivedAt != nil) : query.filter(\.$archivedAt == nil)
        if !filters.types.isEmpty { query = query.filter(\.$type ~~ filters.types) }
        if let size = filters.size { query = query.filter(\.$size == size) }
        if let favourite = filters.favourite { query = query.filter(\.$favourite == favourite) }
        var items = try await query.sort(\.$id, .descending).all()
        // List-valued fields are matched here, on whole names (a LIKE would find "red" in "burgundy-red").
        if let colour = filters.colour { items = items.filter { $0.colours.map(\.rawValue).contains(colour) } }
        if let season = filters.season { items = items.filter { $0.effectiveSeasons.contains(where: { $0.rawValue == season }) } }
        if let tag = filters.tag?.lowercased() { items = items.filter { $0.tags.contains(tag) } }
        if let brand = filters.brand?.lowercased() { items = items.filter { ($0.brandName ?? "").lowercased() == brand || $0.brandID?.idString == brand } }
        if let text = filters.text?.lowercased().trimmingCharacters(in: .whitespaces), !text.isEmpty {
            let words = text.split(separator: " ")
            items = items.filter { item in words.allSatisfy { item.searchText.contains($0) } }
        }
        items = sorted(items, by: sort)
        let page = Array(items.dropFirst(offset).prefix(limit))
        let next = offset + page.count < items.count ? Base64URL.encode("o:\(offset + page.count)") : nil
        return (page, next)
    }

    /// Ties fall back to newest first, so every order is total and pages never repeat an item.
    private func sorted(_ items: [ClosetItem], by sort: Sort) -> [ClosetItem] {
        func newer(_ a: ClosetItem, _ b: ClosetItem) -> Bool { a.id!.uuidString > b.id!.uuidString }
        let typeOrder = Dictionary(uniqueKeysWithValues: ClosetItem.Kind.allCases.enumerated().map { ($1.rawValue, $0) })
        switch sort {
        case .newest: return items
        case .type: return items.sorted { typeOrder[$0.type, default: 99] != typeOrder[$1.type, default: 99] ? typeOrder[$0.type, default: 99] < typeOrder[$1.type, default: 99] : newer($0, $1) }
        case .colour: return items.sorted { ($0.colours.first?.rawValue ?? "~") != ($1.colours.first?.rawValue ?? "~") ? ($0.colours.first?.rawValue ?? "~") < ($1.colours.first?.rawValue ?? "~") : newer($0, $1) }
        case .size: return items.sorted { ($0.size ?? "~") != ($1.size ?? "~") ? ($0.size ?? "~") < ($1.size ?? "~") : newer($0, $1) }
        case .mostWorn: return items.sorted { $0.wearCount != $1.wearCount ? $0.wearCount > $1.wearCount : newer($0, $1) }
        case .leastWorn: return items.sorted { $0.wearCount != $1.wearCount ? $0.wearCount < $1.wearCount : newer($0, $1) }
        case .costPerWear:
            // Unpriced items have no cost per wear and go last.
            return items.sorted {
                switch ($0.costPerWearMinor, $1.costPerWearMinor) {
                case (let a?, let b?): a != b ? a < b : newer($0, $1)
                case (.some, nil): true
                case (nil, .some): false
                case (nil, nil): newer($0, $1)
                }
            }
        }
    }
}

/// The closet in numbers. Money is summed per currency: prices in different currencies are not added.
struct ClosetStats {
    let db: any Database

    static let neverWornDays = 90

    struct Result: Sendable {
        var itemCount: Int
        var byType: [(String, Int)]
        var byColour: [(String, Int)]
        var valueMinor: [(currency: String, amount: Int)]
        var bestValue: [ClosetItem]
        var worstValue: [ClosetItem]
        var mostWorn: [ClosetItem]
        var neverWorn: [ClosetItem]
    }

    func stats(of ownerID: UUID, today: LocalDay) async throws -> Result {
        let items = try await ClosetItem.query(on: db).filter(\.$ownerID == ownerID).filter(\.$archivedAt == nil).sort(\.$id, .descending).all()
        func counts(_ keys: [String]) -> [(String, Int)] {
            Dictionary(grouping: keys, by: { $0 }).map { ($0.key, $0.value.count) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        }
        var value: [String: Int] = [:]
        for item in items { if let price = item.priceMinor, let currency = item.currency { value[currency, default: 0] += price } }
        let priced = items.filter { $0.costPerWearMinor != nil }
        let cutoff = today.adding(days: -Self.neverWornDays).description
        return Result(
            itemCount: items.count,
            byType: counts(items.map(\.type)),
            byColour: counts(items.compactMap { $0.colours.first?.rawValue }),
            valueMinor: value.map { ($0.key, $0.value) }.sorted { $0.currency < $1.currency },
            bestValue: Array(priced.sorted { $0.costPerWearMinor! < $1.costPerWearMinor! }.prefix(5)),
            worstValue: Array(priced.sorted { $0.costPerWearMinor! > $1.costPerWearMinor! }.prefix(5)),
            mostWorn: Array(items.filter { $0.wearCount > 0 }.sorted { $0.wearCount > $1.wearCount }.prefix(5)),
            neverWorn: items.filter { ($0.lastWornOn ?? "") < cutoff })
    }
}
