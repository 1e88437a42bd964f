import Crypto
import Fluent
import Foundation
import NIOCore

/// Upload, look-up, attachment and removal of media. Refused uploads leave no file and no row.
struct MediaService {
    struct Upload {
        var uploaderID: UUID
        var claimed: ImageFormat?
        var edits: ImageEdits
        var visibility: Media.Visibility
    }

    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    private var library: MediaLibrary { mediaLibrary }
    private var now: Date { core.clock.now() }

    /// Streams `body` to a scratch file (refusing past the size limit), processes it off the
    /// event loop, stores the files and then the row.
    func ingest<Body: AsyncSequence>(_ upload: Upload, body: Body) async throws -> Media where Body.Element == ArraySlice<UInt8> {
        let work = library.scratch.url.appendingPathComponent(UUID().uuidString)
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        } catch {
            throw MediaStoreUnavailable(what: "The upload folder", cause: "\(error)")
        }
        defer { try? FileManager.default.removeItem(at: work) }

        let file = work.appendingPathComponent("upload")
        try await write(body, to: file, maxBytes: library.limits.maxBytes)
        return try await ingest(upload, file: file, work: work)
    }

    /// An image the server made itself (a cut-out, an outfit's picture), stored like an upload.
    func ingest(_ upload: Upload, data: Data) async throws -> Media {
        let work = library.scratch.url.appendingPathComponent(UUID().uuidString)
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let file = work.appendingPathComponent("upload")
            try data.write(to: file)
        } catch {
            throw MediaStoreUnavailable(what: "The upload folder", cause: "\(error)")
        }
        defer { try? FileManager.default.removeItem(at: work) }
        return try await ingest(upload, file: work.appendingPathComponent("upload"), work: work)
    }

    /// Copies a stored object (an original or a variant) into `file`.
    func download(key: String, to file: URL) async throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw MediaStoreUnavailable(what: "The upload folder", cause: "could not create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        for try await buffer in try await library.store.contents(key: key) {
            try handle.write(contentsOf: Data(buffer.readableBytesView))
        }
    }

    private func ingest(_ upload: Upload, file: URL, work: URL) async throws -> Media {
        let limits = library.limits
        // The original's hash too reads the whole file: on the image thread, not a request's.
        let (processed, hash) = try await library.imageWorkers.run {
            let processed = try ImageProcessor.process(file: file, claimed: upload.claimed, edits: upload.edits, limits: limits, workDirectory: work)
            return (processed, try Self.sha256(of: processed.originalFile))
        }
        let originalKey = MediaKeys.original(hash: hash, format: processed.format.rawValue)
        var keys: [(String, URL, String)] = [(originalKey, processed.originalFile, processed.format.mediaType)]
        var variants: [MediaVariant] = []
        for variant in processed.variants {
            let key = MediaKeys.variant(hash: hash, file: variant.file)
            keys.append((key, work.appendingPathComponent(variant.file), MediaKeys.contentType(forKey: key)))
            variants.append(.init(width: variant.width, height: variant.height, format: variant.format, key: key))
        }

        let media = Media()
        media.id = .v7(at: now)
        media.$uploader.id = upload.uploaderID
        media.visibility = upload.visibility.rawValue
        media.contentHash = hash
        media.format = processed.format.rawValue
        media.width = processed.width
        media.height = processed.height
        media.byteSize = (try? FileManager.default.attributesOfItem(atPath: processed.originalFile.path)[.size] as? Int) ?? 0
        media.dominantColor = processed.dominantColor
        media.placeholder = processed.placeholder
        media.variantsJSON = String(decoding: try JSONEncoder().encode(variants), as: UTF8.self)
        media.createdAt = now

        let store = library.store
        let files = keys
        do {
            try await library.objectLocks.run(hash: hash, on: db) { db in
                for (key, url, type) in files { try await store.put(key: key, file: url, contentType: type) }
                try await media.create(on: db)
            }
        } catch {
            try? await removeFilesIfUnused(hash: hash, keys: keys.map(\.0))
            throw error
        }
        return media
    }

    /// The media a caller may see: public ones, and private ones they uploaded. Owning domains
    /// widen this for their entities (friends see a post's photo, members a moment's) through
    /// `MediaOwnerAccess`.
    func visible(_ id: UUID, to userID: UUID?) async throws -> Media {
        guard let media = try await Media.find(id, on: db) else { throw Problem.notFound("media") }
        if media.visibility == Media.Visibility.public.rawValue || (userID != nil && media.$uploader.id == userID) { return media }
        if let userID, try await mediaLibrary.owners.allows(ownerType: media.ownerType, ownerID: media.ownerID, viewer: userID, on: db) {
            return media
        }
        throw Problem.notFound("media")
    }

    func attach(_ media: Media, ownerType: String, ownerID: UUID) async throws {
        media.ownerType = ownerType
        media.ownerID = ownerID
        media.attachedAt = now
        try await media.save(on: db)
    }

    /// The row goes first, then the files if no other row has the same bytes. Call it outside a
    /// transaction: the files must not go before the row's deletion is committed.
    func delete(_ media: Media) async throws {
        try await media.delete(on: db)
        try await removeFilesOfDeletedRow(media)
    }

    /// The files of a media row whose deletion has been committed, unless another row holds the same bytes.
    func removeFilesOfDeletedRow(_ media: Media) async throws {
        try await removeFilesIfUnused(hash: media.contentHash, keys: [media.originalKey] + media.variants.map(\.key))
    }

    /// Deletes the media of an entity that is being deleted.
    func deleteOwned(ownerType: String, ownerID: UUID) async throws {
        for media in try await Media.query(on: db).filter(\.$ownerType == ownerType).filter(\.$ownerID == ownerID).all() {
            try await delete(media)
        }
    }

    /// Removes uploads never attached within 24 hours; returns how many.
    @discardableResult
    func collectUnattached() async throws -> Int {
        let cutoff = now.addingTimeInterval(-MediaLibrary.unattachedLifetime)
        let stale = try await Media.query(on: db).filter(\.$attachedAt == nil).filter(\.$createdAt < cutoff).limit(500).all()
        for media in stale { try await delete(media) }
        return stale.count
    }

    func imageURLs(_ media: some MediaImage) -> [(MediaVariant, String)] {
        let variants = media.variants
        return Array(zip(variants, imageURLs(media, of: variants)))
    }

    /// The URLs of some of `media`'s variants, in order, for a caller that shows only those (a
    /// card). Public media at a stable address; any other signed for a while.
    func imageURLs(_ media: some MediaImage, of variants: [MediaVariant]) -> [String] {
        let signer = library.signer
        guard media.visibility == Media.Visibility.public.rawValue else {
            return variants.map { signer.privateURL(key: $0.key, now: now) }
        }
        return variants.map { signer.publicURL(key: $0.key) }
    }

    private func removeFilesIfUnused(hash: String, keys: [String]) async throws {
        let store = library.store
        try await library.objectLocks.run(hash: hash, on: db) { db in
            guard try await Media.query(on: db).filter(\.$contentHash == hash).count() == 0 else { return }
            for key in keys { try await store.delete(key: key) }
        }
    }

    private func write<Body: AsyncSequence>(_ body: Body, to file: URL, maxBytes: Int) async throws where Body.Element == ArraySlice<UInt8> {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw MediaStoreUnavailable(what: "The upload folder", cause: "could not create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var written = 0
        for try await chunk in body {
            written += chunk.count
            guard written <= maxBytes else {
                throw Problem(
                    .payloadTooLarge, type: "https://atelier.dev/problems/upload-too-large", title: "Upload too large",
                    detail: "Photos may be at most \(maxBytes / 1_048_576) MB.")
            }
            try handle.write(contentsOf: chunk)
        }
        guard written > 0 else { throw Problem.invalid("body", "is empty; send the photo's bytes") }
    }

    static func sha256(of file: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return Hex.lowercase(hasher.finalize())
    }
}
