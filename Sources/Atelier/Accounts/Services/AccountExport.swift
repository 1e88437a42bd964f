import Fluent
import Foundation
import ZIPFoundation

/// "Export my data": a zip of JSON files (and, as domains add them, original photos).
/// Built in a temporary file so a large export never sits in memory.
struct AccountExport {
    let db: any Database
    let services: AtelierServices

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
        let files: [(String, Data)] = [
            ("profile.json", try encoder.encode(profile)),
            ("sessions.json", try encoder.encode(sessions)),
            ("devices.json", try encoder.encode(devices)),
            ("linked-accounts.json", try encoder.encode(identities)),
        ]

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("atelier-export-\(UUID().uuidString).zip")
        let archive = try Archive(url: url, accessMode: .create)
        for (name, data) in files {
            try archive.addEntry(
                with: "atelier-export/\(name)", type: .file, uncompressedSize: Int64(data.count),
                compressionMethod: .deflate
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url
    }
}
