import CVips
import Fluent
import Foundation
import OpenAPIRuntime
import SQLKit
import Vapor
import VipsShim

/// The catalog part of `atelier seed-demo`: 30 Gothenburg stores, 40 brands, a three-level
/// category tree and 1 500 products with drawn photos. Runs once (skipped when stores exist).
struct CatalogDemoSeed {
    let app: Application
    var productsPerStore = 50

    /// - Parameters: `owner` owns the first store and works in the second; `others` owns the rest.
    func run(owner: User, others: User, console: any Console) async throws -> Int {
        let db = app.db
        guard try await Store.query(on: db).count() == 0 else { return 0 }
        var random = SeededGenerator(seed: 2026)
        let services = app.atelier
        let categories = try await seedCategories()
        let admin = others
        var brands: [Brand] = []
        for name in CatalogDemoData.brands {
            brands.append(try await BrandService(db: db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).create(name: name, logoID: nil, status: .approved, proposedBy: nil, by: admin))
        }
        var photos = DemoPhotos(app: app)
        let bar = console.progressBar(title: "Demo stores and products")
        bar.start()
        var created = 0
        for (index, entry) in CatalogDemoData.stores.enumerated() {
            let store = try await StoreService(db: db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mailOutbox: services.mailOutbox, mediaLibrary: services.media).create(.init(
                name: entry.name, street: entry.street, postalCode: entry.postalCode, city: "Gothenburg", lat: entry.lat, lng: entry.lng,
                ownerEmail: (index == 0 ? owner : others).email, timeZone: "Europe/Stockholm"))
            if index == 1 { try await StaffService(db: db, core: services.core, mailOutbox: services.mailOutbox).addMember(owner, to: store, role: .staff) }
            _ = try await StoreService(db: db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mailOutbox: services.mailOutbox, mediaLibrary: services.media).update(store, with: .init(
                about: "\(entry.name) is a local shop at \(entry.street). Come by and try things on — we are happy to help.",
                phone: "+46 31 \(100_000 + index * 3_117)", website: "https://example.com/\(store.slug)",
                openingHours: (1...6).map { OpeningHours(weekday: $0, opens: "10:00", closes: $0 == 6 ? "16:00" : "18:00") }),
                by: index == 0 ? owner : others)
            let staff = index == 0 ? owner : others
            for _ in 0..<productsPerStore {
                let leaf = categories.randomElement(using: &random)!
                let color = CatalogDemoData.colorRGB.keys.sorted().randomElement(using: &random)!
                var photoIDs = [try await photos.photo(color: color, shape: leaf.shape, uploader: staff)]
                if Bool.random(using: &random) {
                    photoIDs.append(try await photos.photo(color: "beige", shape: leaf.shape, uploader: staff))
                }
                let price = Int.random(in: 19...249, using: &random) * 1000 + 900
                let onSale = Int.random(in: 0..<6, using: &random) == 0
                let sizes = leaf.shape == 3 ? ["One size"] : (leaf.gender == "men" ? ["S", "M", "L", "XL"] : ["XS", "S", "M", "L"])
                let draft = ProductDraft(
                    title: "\(CatalogDemoData.adjectives.randomElement(using: &random)!) \(leaf.noun)",
                    description: "A \(color) piece from our rail — ask us about the fit.",
                    brandID: brands.randomElement(using: &random)!.id, categoryID: leaf.id, gender: leaf.gender,
                    priceMinor: onSale ? price * 7 / 10 / 100 * 100 : price, originalPriceMinor: onSale ? price : nil, currency: "SEK",
                    colors: [color], colorName: "", fabric: ["Cotton", "Wool", "Linen", "Recycled polyester", "Leather"].randomElement(using: &random)!,
                    styles: [CatalogVocabulary.styles.randomElement(using: &random)!],
                    variants: sizes.map { .init(size: $0, color: nil, stock: Int.random(in: 0...4, using: &random), sku: nil) },
                    photoIDs: photoIDs, status: Int.random(in: 0..<10, using: &random) == 0 ? .inactive : .active)
                _ = try await ProductService(db: db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).create(in: store, draft: draft, by: staff)
                created += 1
            }
            try await seedStats(for: store, random: &random)
            bar.activity.currentProgress = Double(index + 1) / Double(CatalogDemoData.stores.count)
        }
        bar.succeed()
        return created
    }

    /// Ninety days of made-up views, likes, follows and share visits, so the stats page has a story.
    private func seedStats(for store: Store, random: inout SeededGenerator) async throws {
        guard let sql = app.db as? any SQLDatabase else { return }
        let now = app.atelier.clock.now()
        let popularity = Int.random(in: 5...60, using: &random)
        for daysAgo in 0..<90 {
            let weekend = (daysAgo % 7) < 2 ? 2 : 1
            try await StoreStatsService.bump(
                storeID: try store.requireID(), day: StatsDay.string(now.addingTimeInterval(-Double(daysAgo) * 86_400)),
                views: Int.random(in: 0...popularity * weekend, using: &random), shareVisits: Int.random(in: 0...popularity / 10, using: &random),
                likes: Int.random(in: 0...popularity / 4, using: &random), follows: Int.random(in: 0...3, using: &random), on: sql)
        }
    }

    struct Leaf {
        var id: UUID
        var gender: String
        var noun: String
        var shape: Int32
    }

    private func seedCategories() async throws -> [Leaf] {
        let service = CategoryService(db: app.db, core: app.core, catalogChanges: app.atelier.catalogChanges, catalogIndexing: app.atelier.catalogIndexing, mediaLibrary: app.atelier.media)
        var leaves: [Leaf] = []
        for top in CatalogDemoData.tree {
            let root = try await service.create(name: top.name, gender: top.gender, parentID: nil)
            for (middle, names) in top.children {
                let node = try await service.create(name: middle, gender: top.gender, parentID: root.id)
                let shape: Int32 = switch middle {
                case "Dresses": 1
                case "Bottoms", "Suits": 2
                case "Shoes", "Accessories": 3
                default: 0
                }
                for name in names {
                    let leaf = try await service.create(name: name, gender: top.gender, parentID: node.id)
                    let noun = CatalogDemoData.nouns[name] ?? name.lowercased()
                    leaves.append(Leaf(id: leaf.id!, gender: top.gender, noun: noun, shape: shape))
                }
            }
        }
        return leaves
    }
}

/// Drawn garment photos: each colour and shape is drawn and stored once; products get their
/// own media rows that share the stored files (the store keys are content hashes).
struct DemoPhotos {
    let app: Application
    private var templates: [String: Media] = [:]

    init(app: Application) {
        self.app = app
    }

    mutating func photo(color: String, shape: Int32, uploader: User) async throws -> UUID {
        let key = "\(color)-\(shape)"
        if templates[key] == nil {
            try Vips.start()
            let (r, g, b) = CatalogDemoData.colorRGB[color] ?? (120, 120, 120)
            guard let image = atelier_vips_demo_garment(600, 800, r, g, b, shape) else { throw Vips.lastError() }
            let bytes = try Vips.jpegData(VipsImageRef(image), quality: 88)
            templates[key] = try await MediaService(db: app.db, core: app.core, mediaLibrary: app.atelier.media).ingest(
                .init(uploaderID: try uploader.requireID(), claimed: .jpeg, edits: .init(), visibility: .public),
                body: HTTPBody(Array(bytes)))
            return templates[key]!.id!
        }
        let template = templates[key]!
        let media = Media()
        media.id = .v7(at: app.atelier.clock.now())
        media.$uploader.id = try uploader.requireID()
        media.visibility = Media.Visibility.public.rawValue
        media.contentHash = template.contentHash
        media.format = template.format
        media.width = template.width
        media.height = template.height
        media.byteSize = template.byteSize
        media.dominantColor = template.dominantColor
        media.placeholder = template.placeholder
        media.variantsJSON = template.variantsJSON
        media.createdAt = app.atelier.clock.now()
        try await media.create(on: app.db)
        return media.id!
    }
}

/// A deterministic generator, so every demo installation gets the same catalog.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
