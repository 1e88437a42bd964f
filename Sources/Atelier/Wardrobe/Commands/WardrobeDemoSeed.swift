import CVips
import Fluent
import Foundation
import OpenAPIRuntime
import Vapor
import VipsShim

/// The demo shopper's closet: about 30 garments photographed on a backdrop and cut out by the
/// same queue as real uploads, 5 outfits, a month of wears and the next days planned.
/// Runs once: a shopper who already has a closet is left alone.
struct WardrobeDemoSeed {
    let app: Application

    /// (type, colour name, shape of the demo photo, price in minor units or nil, favourite)
    static let garments: [(String, ColourName, Int32, Int?, Bool)] = [
        ("t-shirt", .white, 0, 19_900, true), ("t-shirt", .black, 0, 19_900, false), ("t-shirt", .grey, 0, 14_900, false),
        ("shirt", .lightBlue, 0, 49_900, true), ("shirt", .white, 0, 59_900, false), ("sweater", .navy, 0, 89_900, true),
        ("sweater", .beige, 0, 79_900, false), ("sweater", .burgundy, 0, 69_900, false), ("top", .pink, 0, 29_900, false),
        ("top", .yellow, 0, nil, false), ("jacket", .olive, 0, 129_900, false), ("jacket", .black, 0, 159_900, true),
        ("coat", .navy, 0, 249_900, true), ("coat", .beige, 0, 219_900, false), ("jeans", .navy, 2, 79_900, true),
        ("jeans", .black, 2, 69_900, false), ("pants", .beige, 2, 59_900, false), ("pants", .grey, 2, 64_900, false),
        ("shorts", .olive, 2, 34_900, false), ("skirt", .black, 1, 44_900, false), ("skirt", .red, 1, 39_900, false),
        ("dress", .red, 1, 99_900, true), ("dress", .navy, 1, 119_900, false), ("dress", .green, 1, nil, false),
        ("shoes", .white, 4, 89_900, true), ("shoes", .black, 4, 119_900, false), ("shoes", .brown, 4, 99_900, false),
        ("bag", .brown, 3, 149_900, false), ("bag", .black, 3, 99_900, false), ("accessory", .burgundy, 4, 24_900, false),
    ]

    /// Outfits by garment index into `garments`.
    static let outfits: [(String, String, [Int])] = [
        ("Monday at the office", "work", [4, 17, 25, 11]), ("Weekend coffee", "casual", [0, 14, 24]),
        ("Dinner out", "date", [21, 26, 28]), ("Rainy walk", "casual", [5, 15, 25, 12]), ("Gallery opening", "party", [22, 24, 27]),
    ]

    func run(shopper: User) async throws -> Int {
        let ownerID = try shopper.requireID()
        guard try await ClosetItem.query(on: app.db).filter(\.$ownerID == ownerID).count() == 0 else { return 0 }
        let services = app.atelier
        let media = MediaService(db: app.db, core: services.core, mediaLibrary: services.media)
        var sources: [ClosetService.PhotoSource] = []
        for (type, colour, shape, _, _) in Self.garments {
            let upload = MediaService.Upload(uploaderID: ownerID, claimed: .jpeg, edits: .init(), visibility: .private)
            let stored = try await media.ingest(upload, body: HTTPBody(Array(try Self.photo(type: type, colour: colour, shape: shape))))
            sources.append(.init(mediaID: try stored.requireID(), maskMediaID: nil))
        }
        let closet = ClosetService(db: app.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages)
        var items: [ClosetItem] = []
        for start in stride(from: 0, to: sources.count, by: ClosetService.maxPhotosAtOnce) {
            let batch = Array(sources[start..<min(sources.count, start + ClosetService.maxPhotosAtOnce)])
            items += try await closet.addPhotos(batch, draft: ClosetItemDraft(), owner: shopper)
        }
        for (item, garment) in zip(items, Self.garments) {
            var draft = ClosetItemDraft()
            draft.type = garment.0
            draft.priceMinor = garment.3.map { .some($0) }
            draft.currency = garment.3.map { _ in .some("SEK") }
            draft.favourite = garment.4
            draft.size = .some(garment.0 == "shoes" ? "39" : garment.0 == "jeans" ? "29/32" : "M")
            _ = try await closet.update(item, draft: draft, owner: shopper)
        }
        try await WardrobeImageQueue(db: app.db, core: services.core, mediaLibrary: services.media).drain()

        var made: [Outfit] = []
        for (name, occasion, indices) in Self.outfits {
            var draft = OutfitDraft()
            draft.name = name
            draft.occasion = .some(occasion)
            draft.visibility = made.count < 2 ? "friends" : "private"
            draft.pieces = indices.map { .init(closetItemID: items[$0].id!) }
            made.append(try await OutfitService(db: app.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).create(draft, owner: shopper))
        }
        try await WardrobeImageQueue(db: app.db, core: services.core, mediaLibrary: services.media).drain()
        _ = try await OutfitService(db: app.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).setPinned(made[0], true)

        // A month of wearing: an outfit every other day, the next three days planned.
        let calendar = WardrobeCalendar(db: app.db, core: services.core)
        let today = LocalDay(services.clock.now(), in: LocalDay.zone(shopper.timeZone))
        for offset in stride(from: -30, through: -1, by: 2) {
            _ = try await calendar.markWorn(made[(offset + 30) / 2 % made.count], on: today.adding(days: offset))
        }
        for offset in 1...3 {
            _ = try await calendar.plan(made[offset % made.count], on: today.adding(days: offset), note: offset == 1 ? "Team lunch" : nil)
        }
        return items.count
    }

    /// A 600 × 800 JPEG of the garment on a warm backdrop (`shape` 4: a low, wide shoe or scarf).
    static func photo(type: String, colour: ColourName, shape: Int32) throws -> Data {
        try Vips.start()
        let (r, g, b) = colour.rgb
        if shape < 4 {
            guard let image = atelier_vips_demo_garment(600, 800, r, g, b, shape) else { throw Vips.lastError() }
            return try Vips.jpegData(VipsImageRef(image), quality: 88)
        }
        var pixels = [UInt8](repeating: 0, count: 600 * 800 * 3)
        for y in 0..<800 {
            for x in 0..<600 {
                let inside = y >= 430 && y < 560 && x >= 90 && x < 510 && !(y < 480 && x > 330)
                let value: (Double, Double, Double) = inside ? (r, g, b) : (241, 236, 229)
                let index = (y * 600 + x) * 3
                (pixels[index], pixels[index + 1], pixels[index + 2]) = (UInt8(value.0), UInt8(value.1), UInt8(value.2))
            }
        }
        return try Vips.jpegData(try Vips.image(fromBytes: pixels, width: 600, height: 800, bands: 3), quality: 88)
    }
}
