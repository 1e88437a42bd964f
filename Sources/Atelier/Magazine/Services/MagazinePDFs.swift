import Crypto
import Fluent
import Foundation

/// The PDF edition of an issue per language: checked by its bytes (a PDF header at the start and
/// an end-of-file marker near the end, never the name or the declared type), at most 50 MB,
/// stored content-addressed in the media store and served publicly like the magazine's images.
struct MagazinePDFs {
    static let maxBytes = 50 * 1024 * 1024
    static let mediaOwnerType = "magazine_pdf"

    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    func attach(_ data: Data, lang: String, to issue: MagazineIssue, uploaderID: UUID) async throws {
        var errors = FieldErrors()
        try MagazineLanguages(core.config.magazineLanguages).check([lang], field: "lang", into: &errors)
        try errors.throwIfAny()
        guard data.count <= Self.maxBytes else {
            throw Problem(.payloadTooLarge, type: "https://atelier.dev/problems/upload-too-large", title: "Upload too large",
                          detail: "A PDF edition may be at most 50 MB.")
        }
        guard Self.looksLikePDF(data) else { throw Problem.invalid("pdf", "is not a PDF file") }

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("atelier-pdf-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Up to 50 MB hashed and written: on the file worker, not a thread every request shares.
        let hash = try await mediaLibrary.fileWorkers.run {
            try data.write(to: scratch)
            return Hex.lowercase(SHA256.hash(data: data))
        }
        let key = MediaKeys.original(hash: hash, format: "pdf")
        try await mediaLibrary.store.put(key: key, file: scratch, contentType: "application/pdf")

        let now = core.clock.now()
        let media = Media()
        media.id = .v7(at: now)
        media.$uploader.id = uploaderID
        media.ownerType = Self.mediaOwnerType
        media.ownerID = try issue.requireID()
        media.visibility = Media.Visibility.public.rawValue
        media.contentHash = hash
        media.format = "pdf"
        media.width = 0
        media.height = 0
        media.byteSize = data.count
        media.dominantColor = ""
        media.placeholder = ""
        media.variantsJSON = "[]"
        media.createdAt = now
        media.attachedAt = now
        let previous = try await issue.pdfs[lang].asyncMap { try await Media.find($0, on: db) } ?? nil
        var pdfs = issue.pdfs
        pdfs[lang] = media.id
        issue.pdfs = pdfs
        issue.updatedAt = now
        let notice = MagazineEditor.noticeTime(of: issue, now: now)
        try await core.writeTransaction(on: db) { tx in
            try await media.create(on: tx)
            try await issue.update(on: tx)
            if let notice { try await MagazineEditor.log(.issue, issue.id!, at: notice, on: tx) }
        }
        if let previous { try await MediaService(db: db, core: core, mediaLibrary: mediaLibrary).delete(previous) }
    }

    /// The public URL of a stored PDF.
    func url(_ media: Media) -> String {
        mediaLibrary.signer.publicURL(key: media.originalKey)
    }

    static func looksLikePDF(_ data: Data) -> Bool {
        guard data.count > 16, data.prefix(5) == Data("%PDF-".utf8) else { return false }
        return data.suffix(1024).range(of: Data("%%EOF".utf8)) != nil
    }
}
