import Fluent
import Foundation

/// "Download the album": every original photo of a moment, oldest first, as a zip written while
/// it is sent (see `PulledBytes`), never built in memory or on disk.
struct AlbumArchive {
    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    /// In the moment's own letters: "Ziua lui Ștefan" saves as `ziua-lui-ștefan-album.zip`.
    static func fileName(for moment: Moment) -> String {
        let base = Slug.make(moment.name, foldingToASCII: false)
        return "\(base.isEmpty ? "moment" : base)-album.zip"
    }

    /// The album as `viewer` sees it: photos of people blocked either way are left out.
    func stream(_ moment: Moment, viewer: UUID) async throws -> PulledBytes {
        let momentID = try moment.requireID()
        let hidden = Array(try await SocialGraph(db: db).blockedPeople(of: viewer))
        let db = self.db
        let store = mediaLibrary.store
        return PulledBytes { send in
            var zip = ZipStreamWriter { buffer in try await send(ArraySlice(buffer.readableBytesView)) }
            var after: UUID?
            var number = 0
            while true {
                let query = MomentPhoto.query(on: db).filter(\.$momentID == momentID)
                if let after { query.filter(\.$id > after) }
                if !hidden.isEmpty { query.filter(\.$authorID !~ hidden) }
                let photos = try await query.sort(\.$id, .ascending).limit(100).all()
                guard let last = photos.last else { break }
                let media = Dictionary(try await Media.query(on: db).filter(\.$id ~~ photos.map(\.mediaID)).all().map { ($0.id!, $0) },
                                       uniquingKeysWith: { a, _ in a })
                for photo in photos {
                    guard let original = media[photo.mediaID] else { continue }
                    number += 1
                    let ext = original.format == "jpeg" ? "jpg" : original.format
                    let padded = String(repeating: "0", count: max(0, 4 - String(number).count)) + String(number)
                    let name = "\(padded)-\(photo.id!.idString.suffix(12)).\(ext)"
                    try await zip.addEntry(name: name, modified: photo.createdAt, content: try await store.contents(key: original.originalKey))
                }
                after = last.id
            }
            try await zip.finish()
        }
    }
}
