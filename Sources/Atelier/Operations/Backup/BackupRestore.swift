import Foundation
import ZIPFoundation

/// `atelier restore ARCHIVE`: puts a backup into an empty installation (the data folder and media
/// store named by the environment, or an empty PostgreSQL database). Every file is checked
/// against the manifest's SHA-256 before it is used; the database goes in last, so a restore that
/// fails part way leaves no database that looks complete. Runs before the application is
/// configured, since configuring would create (and migrate) an empty database first.
enum BackupRestore {
    struct Summary: Sendable {
        var databaseKind: BackupManifest.DatabaseKind
        var mediaFiles: Int
    }

    static func restore(archive url: URL, config: AppConfig) async throws -> Summary {
        let archive = try Archive(url: url, accessMode: .read)
        let work = URL(fileURLWithPath: config.dataDirectory).appendingPathComponent(".restore-\(UUID().idString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        let manifest = try readManifest(archive, work: work)
        try checkTargetIsEmpty(config, manifest: manifest)
        let database = try extract(manifest.database, from: archive, into: work)

        let store = try MediaSetup.store(config)
        if let s3 = store as? S3MediaStore { try await s3.createBucketIfMissing() }
        for file in manifest.media {
            let local = try extract(file, from: archive, into: work)
            let key = String(file.path.dropFirst(BackupManifest.mediaPrefix.count))
            guard MediaKeys.isWellFormed(key) else { throw BackupError("the archive names an unexpected file: \(file.path)") }
            try await store.put(key: key, file: local, contentType: MediaKeys.contentType(forKey: key))
            try FileManager.default.removeItem(at: local)
        }

        switch config.database {
        case .sqliteFile(let path):
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: database, to: URL(fileURLWithPath: path))
        case .postgres(let url):
            try await PostgresTools.run(
                "pg_restore", arguments: ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error",
                                          "--dbname=\(String(url.path.drop { $0 == "/" }))", database.path],
                databaseURL: url)
        case .sqliteMemory:
            throw BackupError("restore needs a database file or PostgreSQL, not an in-memory database")
        }
        return Summary(databaseKind: manifest.databaseKind, mediaFiles: manifest.media.count)
    }

    private static func readManifest(_ archive: Archive, work: URL) throws -> BackupManifest {
        guard let entry = archive[BackupManifest.entryName] else {
            throw BackupError("this is not a complete Atelier backup: it has no \(BackupManifest.entryName)")
        }
        var data = Data()
        _ = try archive.extract(entry) { data.append($0) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let manifest = try decoder.decode(BackupManifest.self, from: data)
        guard manifest.version <= BackupManifest.currentVersion else {
            throw BackupError("the backup has format \(manifest.version); this atelier reads up to \(BackupManifest.currentVersion)")
        }
        return manifest
    }

    private static func checkTargetIsEmpty(_ config: AppConfig, manifest: BackupManifest) throws {
        switch (config.database, manifest.databaseKind) {
        case (.sqliteFile(let path), .sqlite):
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
            guard size == nil || size == 0 else {
                throw BackupError("\(path) exists: restore into an empty data folder (set DATA_DIR or DATABASE_URL)")
            }
        case (.postgres, .postgres):
            break  // pg_restore refuses objects that exist, in one transaction: nothing is half-restored
        default:
            throw BackupError("the backup holds a \(manifest.databaseKind.rawValue) database; DATABASE_URL names another kind")
        }
        if config.mediaStore == .folder {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: MediaSetup.folder(config).path)) ?? []
            guard entries.allSatisfy({ $0 == ".partial" }) else {
                throw BackupError("\(MediaSetup.folder(config).path) is not empty: restore into an empty data folder")
            }
        }
    }

    /// Extracts one file and checks its SHA-256 against the manifest.
    private static func extract(_ file: BackupManifest.File, from archive: Archive, into work: URL) throws -> URL {
        guard let entry = archive[file.path] else { throw BackupError("the archive lacks \(file.path)") }
        let local = work.appendingPathComponent(UUID().uuidString)
        _ = try archive.extract(entry, to: local)
        let (sha, bytes) = try BackupManifest.sha256(of: local)
        guard sha == file.sha256, bytes == file.bytes else {
            throw BackupError("\(file.path) does not match its checksum in the manifest: the archive is damaged")
        }
        return local
    }
}
