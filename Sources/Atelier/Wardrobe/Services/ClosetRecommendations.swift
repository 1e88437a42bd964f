import Fluent
import Foundation

/// Products to buy: active products of public stores near the person (25 km of their home, when
/// they gave one), in stock in their size, within their price range, ranked by their styles,
/// colours and brands; and "complete the look": a garment slot the closet lacks or barely uses,
/// in a colour that goes with what they wear most. Each says why. A product whose type has no
/// known size for the person is left out: "in your size" is a promise.
struct ClosetRecommendations {
    let db: any Database

    static let radiusKm = 25.0
    static let candidateLimit = 400

    struct Recommendation: Sendable {
        var product: Product
        var size: String
        var reasons: [String]
        var completesTheLook: Bool
        var score: Double
    }

    func recommend(for user: User, limit: Int) async throws -> [Recommendation] {
        let userID = try user.requireID()
        let profile = try await SizeProfile.query(on: db).filter(\.$userID == userID).first()
        let closet = try await ClosetItem.query(on: db).filter(\.$ownerID == userID).filter(\.$archivedAt == nil).all()
        let sizes = Self.sizes(profile: profile, closet: closet)
        guard !sizes.isEmpty else { return [] }

        let rows = try await Product.query(on: db)
            .join(Store.self, on: \Product.$store.$id == \Store.$id)
            .filter(\.$status == Product.Status.active.rawValue)
            .filter(Store.self, \.$status == Store.Status.active.rawValue)
            .filter(Store.self, \.$membersOnly == false)
            .sort(\.$id, .descending).limit(Self.candidateLimit).all()
        let storeOf = Dictionary(uniqueKeysWithValues: try rows.map { ($0.id!, try $0.joined(Store.self)) })
        let nearby = rows.filter { product in
            guard let lat = user.homeLat, let lng = user.homeLng, let store = storeOf[product.id!] else { return true }
            return Geo.distanceKm(lat1: lat, lng1: lng, lat2: store.lat, lng2: store.lng) <= Self.radiusKm
        }
        guard !nearby.isEmpty else { return [] }
        let productIDs = nearby.map { $0.id! }
        let variants = Dictionary(grouping: try await ProductVariant.query(on: db).filter(\.$product.$id ~~ productIDs).all(), by: { $0.$product.id })
        let categoryIDs = Array(Set(nearby.map(\.categoryID)))
        let categories = Dictionary(uniqueKeysWithValues: try await Category.query(on: db).filter(\.$id ~~ categoryIDs).all().map { ($0.id!, $0.name) })
        let brandIDs = Array(Set(nearby.compactMap(\.brandID)).intersection(profile?.brandIDs ?? []))
        let brandNames = brandIDs.isEmpty ? [:] : Dictionary(uniqueKeysWithValues: try await Brand.query(on: db).filter(\.$id ~~ brandIDs).all().map { ($0.id!, $0.name) })

        let look = LookGap(closet: closet)
        var found: [Recommendation] = []
        for product in nearby {
            let kind = GarmentTypeGuess.from(text: "\(categories[product.categoryID] ?? "") \(product.title)")
            guard let wanted = sizes[kind] else { continue }
            guard let variant = (variants[product.id!] ?? []).first(where: { Self.sameSize($0.size, wanted) && $0.available > 0 }) else { continue }
            if let profile, profile.currency == nil || profile.currency == product.currency {
                if let low = profile.priceMinMinor, product.priceMinor < low { continue }
                if let high = profile.priceMaxMinor, product.priceMinor > high { continue }
            }
            var reasons = ["in your size (\(variant.size)), in stock"]
            var score = 1.0
            if let store = storeOf[product.id!], let lat = user.homeLat, let lng = user.homeLng {
                let km = Geo.distanceKm(lat1: lat, lng1: lng, lat2: store.lat, lng2: store.lng)
                reasons.append(String(format: "at %@, %.1f km away", store.name, km))
                score += max(0, 1 - km / Self.radiusKm)
            }
            if let profile {
                let styles = Set(product.stylesList.split(separator: ",").map(String.init)).intersection(profile.styles)
                if let style = styles.sorted().first { reasons.append("your style: \(style)"); score += 1 }
                let colours = ColourName.fromCatalog(product.colors).filter(profile.colours.contains)
                if let colour = colours.first { reasons.append("in \(colour.label), a colour you like"); score += 1 }
                if let brandID = product.brandID, profile.brandIDs.contains(brandID) {
                    reasons.append("from \(brandNames[brandID] ?? "a brand") you like"); score += 1
                }
                if profile.priceMinMinor != nil || profile.priceMaxMinor != nil { reasons.append("within your price range") }
            }
            var completes = false
            if let match = look.match(kind: kind, colours: ColourName.fromCatalog(product.colors)) {
                reasons.append(match)
                completes = true
                score += 2
            }
            found.append(Recommendation(product: product, size: variant.size, reasons: reasons, completesTheLook: completes, score: score))
        }
        return Array(found.sorted { $0.score != $1.score ? $0.score > $1.score : $0.product.id!.uuidString > $1.product.id!.uuidString }.prefix(limit))
    }

    /// Sizes per garment type: the profile's, else the size most of the closet's items of that type have.
    static func sizes(profile: SizeProfile?, closet: [ClosetItem]) -> [ClosetItem.Kind: String] {
        var sizes: [ClosetItem.Kind: String] = [:]
        for kind in ClosetItem.Kind.allCases {
            let owned = closet.filter { $0.kind == kind }.compactMap(\.size)
            if let common = Dictionary(grouping: owned, by: { $0.lowercased() }).max(by: { $0.value.count < $1.value.count })?.value.first {
                sizes[kind] = common
            }
        }
        if let shoe = profile?.shoeSizeEU { sizes[.shoes] = shoe.rounded() == shoe ? String(Int(shoe)) : String(shoe) }
        for (raw, size) in profile?.preferredSizes ?? [:] {
            if let kind = ClosetItem.Kind(rawValue: raw) { sizes[kind] = size }
        }
        return sizes
    }

    static func sameSize(_ a: String, _ b: String) -> Bool {
        a.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(b.trimmingCharacters(in: .whitespaces)) == .orderedSame
    }
}

/// What the closet lacks: slots with fewer than two items in use, and the colours of the most
/// worn items, which a new piece should go with.
struct LookGap {
    let thinSlots: Set<ClosetItem.Slot>
    let anchors: [ClosetItem]

    init(closet: [ClosetItem]) {
        let counts = Dictionary(grouping: closet, by: { $0.kind.slot }).mapValues(\.count)
        thinSlots = Set([ClosetItem.Slot.outer, .top, .bottom, .shoes, .bag].filter { (counts[$0] ?? 0) < 2 })
        anchors = Array(closet.filter { $0.wearCount > 0 && !$0.colours.isEmpty }.sorted { $0.wearCount > $1.wearCount }.prefix(3))
    }

    /// "goes with your navy coat" when the product fills a thin slot in a colour that harmonises.
    func match(kind: ClosetItem.Kind, colours: [ColourName]) -> String? {
        guard thinSlots.contains(kind.slot), let colour = colours.first else { return nil }
        for anchor in anchors where anchor.kind.slot != kind.slot {
            guard let anchorColour = anchor.colours.first, ColourHarmony.judge([colour, anchorColour]) != nil else { continue }
            return "completes the look: goes with your \(anchorColour.label) \(anchor.type)"
        }
        return nil
    }
}
