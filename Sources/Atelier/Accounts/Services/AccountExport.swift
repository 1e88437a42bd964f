import Fluent
import Foundation
import ZIPFoundation

/// "Export my data": a zip of JSON files (and, as domains add them, original photos).
/// Built in a temporary file so a large export never sits in memory.
struct AccountExport {
    let db: any Database
    let core: CoreServices
    let accountParts: AccountParts
    let fileWorkers: WorkerThreads

    struct SessionEntry: Encodable {
        var createdAt: Date
        var lastUsedAt: Date
        var revokedAt: Date?
        var revokedReason: String?
    }

    struct DeviceEntry: Encodable {
        var token: String
        var platform: String
        var appVersion: String?
        var locale: String?
        var createdAt: Date
    }

    struct IdentityEntry: Encodable {
        var provider: String
        var email: String?
        var createdAt: Date
    }

    /// Writes the archive and returns its path; the caller deletes it after sending.
    func write(for user: User, profile: some Encodable) async throws -> URL {
        let userID = try user.requireID()
        let sessions = try await SessionFamily.query(on: db).filter(\.$user.$id == userID).all().map {
            SessionEntry(createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, revokedAt: $0.revokedAt, revokedReason: $0.revokedReason)
        }
        let devices = try await Device.query(on: db).filter(\.$user.$id == userID).all().map {
            DeviceEntry(token: $0.token, platform: $0.platform, appVersion: $0.appVersion, locale: $0.locale, createdAt: $0.createdAt)
        }
        let identities = try await SocialIdentity.query(on: db).filter(\.$user.$id == userID).all().map {
            IdentityEntry(provider: $0.provider, email: $0.email, createdAt: $0.createdAt)
        }

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        var collected: [(String, Data)] = [
            ("profile.json", try encoder.encode(profile)),
            ("sessions.json", try encoder.encode(sessions)),
            ("devices.json", try encoder.encode(devices)),
            ("linked-accounts.json", try encoder.encode(identities)),
        ]
        var photos: [AccountParts.ExportedPhoto] = []
        for part in accountParts.exportParts {
            let exported = try await part(userID, encoder, db)
            collected += exported.files
            photos += exported.photos
        }
        let files = collected

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("atelier-export-\(UUID().uuidString).zip")
        // Zipped on the media library's file workers: an export of many photos takes a while.
        let archive = try ArchiveOnWorkers(creating: url, on: fileWorkers)
        try await archive.run { archive in
            for (name, data) in files {
                try archive.addEntry(
                    with: "atelier-export/\(name)", type: .file, uncompressedSize: Int64(data.count),
                    compressionMethod: .deflate
                ) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
        }
        for photo in photos { try await addPhoto(photo, to: archive) }
        return url
    }

    /// Copies an original from the media store through a scratch file, never whole in memory.
    private func addPhoto(_ photo: AccountParts.ExportedPhoto, to archive: ArchiveOnWorkers) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("atelier-export-photo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try await accountParts.copyOriginal(photo.key, to: scratch)
        let name = "atelier-export/\(photo.path)"
        try await archive.run { archive in
            let input = try FileHandle(forReadingFrom: scratch)
            defer { try? input.close() }
            let size = try FileManager.default.attributesOfItem(atPath: scratch.path)[.size] as? Int64 ?? 0
            try archive.addEntry(with: name, type: .file, uncompressedSize: size, compressionMethod: .none) { position, length in
                try input.seek(toOffset: UInt64(position))
                return try input.read(upToCount: length) ?? Data()
            }
        }
    }
}
