import CVips
import Crypto
import Fluent
import Foundation
import VipsShim

/// Makes a recap: the pictures of the outfits worn in a month or a year, in the order they were
/// worn, as an animated WebP (libvips writes it), 540 × 675 a frame, 1.2 s each.
struct RecapMaker {
    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    static let maxFrames = 60
    static let frameWidth = 540
    static let frameHeight = 675
    static let frameMilliseconds = 1200

    /// `month` "YYYY-MM" or `year` YYYY: exactly one.
    func make(ownerID: UUID, month: String?, year: Int?, visibility: String?) async throws -> Recap {
        let (period, from, to) = try Self.period(month: month, year: year)
        let visibility = visibility ?? Outfit.Visibility.private.rawValue
        guard Outfit.Visibility(rawValue: visibility) != nil else { throw Problem.invalid("visibility", "must be private, friends or public") }
        let plans = try await OutfitPlan.query(on: db).filter(\.$ownerID == ownerID).filter(\.$wornAt != nil)
            .filter(\.$day >= from.description).filter(\.$day <= to.description).sort(\.$day).sort(\.$id).all()
        let outfitIDs = Array(Set(plans.map(\.outfitID)))
        let outfits = outfitIDs.isEmpty ? [:] : Dictionary(uniqueKeysWithValues: try await Outfit.query(on: db).filter(\.$id ~~ outfitIDs).all().map { ($0.id!, $0) })
        let drawn = plans.compactMap { plan in outfits[plan.outfitID].flatMap { $0.renderMediaID } }.prefix(Self.maxFrames)
        guard !drawn.isEmpty else {
            throw Problem(.unprocessableEntity, type: "https://atelier.dev/problems/nothing-to-recap", title: "Nothing to recap",
                detail: "No outfit with a picture was marked worn in \(period).")
        }

        let media = MediaService(db: db, core: core, mediaLibrary: mediaLibrary)
        let work = mediaLibrary.scratch.url.appendingPathComponent("recap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var frames: [URL] = []
        for mediaID in drawn {
            guard let picture = try await Media.find(mediaID, on: db) else { continue }
            let file = work.appendingPathComponent("frame\(frames.count)")
            try await media.download(key: picture.originalKey, to: file)
            frames.append(file)
        }
        let output = work.appendingPathComponent("recap.webp")
        let files = frames
        try await mediaLibrary.imageWorkers.run { try Self.animate(files, to: output) }
        let data = try Data(contentsOf: output)
        let hash = Hex.lowercase(SHA256.hash(data: data))
        let key = MediaKeys.original(hash: hash, format: "webp")
        try await mediaLibrary.store.put(key: key, file: output, contentType: "image/webp")

        let now = core.clock.now()
        let stored = Media()
        stored.id = .v7(at: now)
        stored.$uploader.id = ownerID
        stored.ownerType = Recap.mediaOwnerType
        stored.visibility = Media.Visibility.private.rawValue
        stored.contentHash = hash
        stored.format = "webp"
        stored.width = Self.frameWidth
        stored.height = Self.frameHeight
        stored.byteSize = data.count
        stored.dominantColor = "#ffffff"
        stored.placeholder = ""
        stored.variantsJSON = "[]"
        stored.createdAt = now
        stored.attachedAt = now
        let recap = Recap()
        recap.id = .v7(at: now)
        recap.ownerID = ownerID
        recap.period = period
        recap.fromDay = from.description
        recap.toDay = to.description
        recap.mediaID = stored.id!
        recap.frameCount = frames.count
        recap.outfitIDsList = plans.map { $0.outfitID.idString }.joined(separator: ",")
        recap.visibility = visibility
        recap.createdAt = now
        stored.ownerID = recap.id
        try await core.writeTransaction(on: db) { tx in
            try await stored.create(on: tx)
            try await recap.create(on: tx)
        }
        return recap
    }

    static func animate(_ frames: [URL], to output: URL) throws {
        try Vips.start()
        var images: [VipsImageRef] = []
        for frame in frames {
            var thumbnail: UnsafeMutablePointer<VipsImage>?
            guard atelier_vips_thumbnail_file(frame.path, &thumbnail, Int32(frameHeight)) == 0, let thumbnail else { throw Vips.lastError() }
            let fitted = try Vips.apply(VipsImageRef(thumbnail)) { atelier_vips_resize_exact($0, $1, Int32(frameWidth), Int32(frameHeight)) }
            images.append(try Vips.materialize(try Vips.apply(fitted) { atelier_vips_flatten_srgb($0, $1, 255, 255, 255) }))
        }
        var pointers: [UnsafeMutablePointer<VipsImage>?] = images.map { $0.pointer }
        let status = withExtendedLifetime(images) {
            pointers.withUnsafeMutableBufferPointer {
                atelier_vips_save_animated_webp($0.baseAddress, Int32(images.count), Int32(frameMilliseconds), output.path, 80)
            }
        }
        try Vips.check(status)
    }

    static func period(month: String?, year: Int?) throws -> (String, LocalDay, LocalDay) {
        switch (month, year) {
        case (let month?, nil):
            guard let (first, next) = LocalDay.month(month) else { throw Problem.invalid("month", "is not a month (YYYY-MM)") }
            return (month, first, next.adding(days: -1))
        case (nil, let year?):
            guard (1970...9999).contains(year) else { throw Problem.invalid("year", "is not a year") }
            return (String(year), LocalDay(year: year, month: 1, day: 1), LocalDay(year: year, month: 12, day: 31))
        default:
            throw Problem.invalid("month", "give a month (YYYY-MM) or a year, not both")
        }
    }
}
