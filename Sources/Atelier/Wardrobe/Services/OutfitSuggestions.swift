import Fluent
import Foundation

/// Outfits put together from a person's own closet: a top and a bottom, or a dress, plus shoes,
/// and an outer layer when it is cold. Only items in use, not worn in the last `restDays`, that
/// suit the season and the temperature; colours must harmonise; each suggestion says why.
struct OutfitSuggestions {
    let db: any Database

    struct Request: Sendable {
        var temperature: Double?
        var season: ClosetItem.Season
        var occasion: Outfit.Occasion?
        var restDays: Int
        var limit: Int
    }

    struct Suggestion: Sendable {
        var items: [ClosetItem]
        var reasons: [String]
        var score: Double
    }

    static func season(of day: LocalDay) -> ClosetItem.Season {
        switch day.month {
        case 3...5: .spring
        case 6...8: .summer
        case 9...11: .autumn
        default: .winter
        }
    }

    func suggest(for ownerID: UUID, today: LocalDay, _ request: Request) async throws -> [Suggestion] {
        let restCutoff = today.adding(days: -request.restDays).description
        let items = try await ClosetItem.query(on: db).filter(\.$ownerID == ownerID).filter(\.$archivedAt == nil).sort(\.$id).all()
            .filter { request.restDays == 0 || ($0.lastWornOn ?? "") < restCutoff || $0.lastWornOn == nil }
            .filter { $0.effectiveSeasons.contains(request.season) }
            .filter { Self.suitsTemperature($0.kind, request.temperature) }
            .filter { Self.suitsOccasion($0.kind, request.occasion) }
        let bySlot = Dictionary(grouping: items, by: { $0.kind.slot })
        let shoes = bySlot[.shoes] ?? []
        guard !shoes.isEmpty else { return [] }
        var bases: [[ClosetItem]] = []
        for top in bySlot[.top] ?? [] { for bottom in bySlot[.bottom] ?? [] { bases.append([top, bottom]) } }
        for dress in bySlot[.dress] ?? [] { bases.append([dress]) }
        let needsOuter = (request.temperature ?? 18) < 14
        let outers: [ClosetItem?] = needsOuter ? (bySlot[.outer] ?? []).map { $0 } : [nil]
        if needsOuter && outers.isEmpty { return [] }

        var candidates: [Suggestion] = []
        for base in bases {
            for shoe in shoes {
                for outer in outers {
                    let pieces = (outer.map { [$0] } ?? []) + base + [shoe]
                    guard let harmony = ColourHarmony.judge(pieces.compactMap { $0.colours.first }) else { continue }
                    var reasons = [harmony]
                    reasons.append(contentsOf: weatherReasons(request, outer: outer))
                    if let occasion = request.occasion { reasons.append("suits \(occasion.rawValue)") }
                    let rested = pieces.filter { $0.lastWornOn == nil }.count
                    if rested == pieces.count { reasons.append("none of it worn yet") }
                    // Favourites and less-worn pieces first, so the suggestions rotate through the closet.
                    let score = Double(pieces.filter(\.favourite).count) * 2 - Double(pieces.map(\.wearCount).reduce(0, +)) * 0.1
                        + (harmony.hasPrefix("all neutrals") ? 0 : 1)
                    candidates.append(Suggestion(items: pieces, reasons: reasons, score: score))
                }
            }
        }
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : $0.items.map { $0.id!.uuidString } .joined() < $1.items.map { $0.id!.uuidString }.joined() }
        // Varied: each top, bottom or dress appears in at most two suggestions (shoes and outer
        // layers are fewer in most closets and may repeat).
        var uses: [UUID: Int] = [:]
        var picked: [Suggestion] = []
        for candidate in candidates where picked.count < request.limit {
            let base = candidate.items.filter { [.top, .bottom, .dress].contains($0.kind.slot) }
            guard base.allSatisfy({ uses[$0.id!, default: 0] < 2 }) else { continue }
            for item in base { uses[item.id!, default: 0] += 1 }
            picked.append(candidate)
        }
        return picked
    }

    /// Warm days take no outer layer and no knitwear; cold days take no shorts.
    static func suitsTemperature(_ kind: ClosetItem.Kind, _ temperature: Double?) -> Bool {
        guard let temperature else { return true }
        switch kind {
        case .coat: return temperature < 14
        case .jacket: return temperature < 22
        case .sweater: return temperature < 20
        case .shorts: return temperature >= 18
        default: return true
        }
    }

    static func suitsOccasion(_ kind: ClosetItem.Kind, _ occasion: Outfit.Occasion?) -> Bool {
        switch (occasion, kind) {
        case (.formal?, .tShirt), (.formal?, .shorts), (.formal?, .jeans), (.work?, .shorts): false
        case (.sport?, .coat), (.sport?, .skirt), (.sport?, .dress), (.sport?, .shirt): false
        default: true
        }
    }

    private func weatherReasons(_ request: Request, outer: ClosetItem?) -> [String] {
        var reasons = ["right for \(request.season.rawValue)"]
        if let temperature = request.temperature {
            let degrees = Int(temperature.rounded())
            if let outer { reasons.append("\(outer.kind.rawValue) for \(degrees) °C") }
            else if temperature >= 22 { reasons.append("light layers for \(degrees) °C") }
            else { reasons.append("fits \(degrees) °C") }
        }
        return reasons
    }
}

/// Colour rules stylists use: neutrals go with anything; other colours pair when they are the
/// same family, neighbours on the colour wheel, or opposites (complementary); at most two of them.
enum ColourHarmony {
    /// Why the colours work together, or nil when they clash.
    static func judge(_ colours: [ColourName]) -> String? {
        let accents = Array(Set(colours.filter { !$0.isNeutral })).sorted { $0.rawValue < $1.rawValue }
        let neutrals = Array(Set(colours.filter(\.isNeutral))).sorted { $0.rawValue < $1.rawValue }.map(\.label)
        switch accents.count {
        case 0: return "all neutrals (\(neutrals.joined(separator: ", "))) go together"
        case 1: return neutrals.isEmpty ? "one colour, \(accents[0].label)" : "\(accents[0].label) with neutrals (\(neutrals.joined(separator: ", ")))"
        case 2:
            guard let a = accents[0].hue, let b = accents[1].hue else { return nil }
            let difference = min(abs(a - b), 360 - abs(a - b))
            if difference <= 45 { return "\(accents[0].label) and \(accents[1].label) are neighbours on the colour wheel" }
            if difference >= 150 { return "\(accents[0].label) and \(accents[1].label) are complementary" }
            return nil
        default: return nil
        }
    }
}
