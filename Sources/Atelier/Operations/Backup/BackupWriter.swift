import Fluent
import Foundation
import SQLKit
import ZIPFoundation

/// `atelier backup`: one dated archive (`atelier-backup-20261124T021500Z.zip`) holding a
/// consistent snapshot of the database, every media file the snapshot's photos need, and
/// `manifest.json` with the SHA-256 of each file. Taken while the server serves:
/// - SQLite: `VACUUM INTO` copies the database as of one read transaction (WAL: writers go on);
/// - PostgreSQL: `pg_dump` in custom format (one snapshot), restored with `pg_restore`.
/// Media is listed from the database after the snapshot and read through the media store (folder
/// or S3), so the archive does not depend on where the files live. A photo deleted between the
/// snapshot and its copy is named in `missingMedia`.
/// The archive is written under a hidden name and renamed when complete: a visible backup is whole.
/// Its file work (hashes, zip entries) runs on the media library's file workers, and `pg_dump` is
/// waited for without a thread, so a long backup holds no request up.
struct BackupWriter {
    let db: any Database
    let config: AppConfig
    let media: MediaLibrary
    let now: Date

    private var store: any MediaStore { media.store }

    static let namePrefix = "atelier-backup-"

    func write(into folder: URL) async throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let final = folder.appendingPathComponent("\(Self.namePrefix)\(Self.stamp(now)).zip")
        let partial = folder.appendingPathComponent(".\(final.lastPathComponent).partial")
        let work = folder.appendingPathComponent(".work-\(UUID().idString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try? FileManager.default.removeItem(at: partial)

        let archive = try ArchiveOnWorkers(creating: partial, on: media.fileWorkers)
        let (kind, databaseFile) = try await snapshotDatabase(into: work)
        let database = try await add(databaseFile.lastPathComponent, from: work, to: archive, compressed: true)

        var mediaFiles: [BackupManifest.File] = []
        var missing: [String] = []
        for key in try await mediaKeys() {
            let path = BackupManifest.mediaPrefix + key
            let local = work.appendingPathComponent(path)
            do {
                try await download(key, to: local)
            } catch let problem as Problem where problem.status == .notFound {
                missing.append(key)
                continue
            }
            mediaFiles.append(try await add(path, from: work, to: archive, compressed: false))
        }

        let manifest = BackupManifest(
            createdAt: now, databaseKind: kind, databaseSchema: config.databaseSchema, database: database, media: mediaFiles,
            missingMedia: missing)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(manifest).write(to: work.appendingPathComponent(BackupManifest.entryName))
        try await archive.run { try $0.addEntry(with: BackupManifest.entryName, relativeTo: work, compressionMethod: .deflate) }
        try FileManager.default.moveItem(at: partial, to: final)
        return final
    }

    /// Keeps the newest `count` backups in `folder` and deletes the older ones; returns those deleted.
    @discardableResult
    static func prune(_ folder: URL, keep count: Int) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(namePrefix) && $0.hasSuffix(".zip") }.sorted(by: >)
        let old = Array(names.dropFirst(max(1, count)))
        for name in old { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        return old
    }

    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    private func snapshotDatabase(into work: URL) async throws -> (BackupManifest.DatabaseKind, URL) {
        switch config.database {
        case .sqliteFile:
            let file = work.appendingPathComponent("database.sqlite")
            try await db.sql.raw("VACUUM INTO \(bind: file.path)").run()
            return (.sqlite, file)
        case .postgres(let url):
            let file = work.appendingPathComponent("database.pgdump")
            var arguments = ["--format=custom", "--no-owner", "--no-privileges", "--file=\(file.path)"]
            if let schema = config.databaseSchema { arguments.append("--schema=\(schema)") }
            try await PostgresTools.run("pg_dump", arguments: arguments, databaseURL: url)
            return (.postgres, file)
        case .sqliteMemory:
            throw BackupError("an in-memory database cannot be backed up")
        }
    }

    /// Every stored object the photos need: each distinct hash's original and variants.
    private func mediaKeys() async throws -> [String] {
        let rows = try await db.sql.raw("SELECT DISTINCT content_hash, format, variants FROM \(ident: Media.schema)").all()
        var keys = Set<String>()
        for row in rows {
            let hash = try row.decode(column: "content_hash", as: String.self)
            keys.insert(MediaKeys.original(hash: hash, format: try row.decode(column: "format", as: String.self)))
            for variant in MediaVariant.parsed(try row.decode(column: "variants", as: String.self)) { keys.insert(variant.key) }
        }
        return keys.sorted()
    }

    private func download(_ key: String, to file: URL) async throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw BackupError("cannot write \(file.path)") }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        for try await chunk in try await store.contents(key: key) { try handle.write(contentsOf: Data(buffer: chunk)) }
    }

    /// Adds `work/path` to the archive under `path` (deflated or stored), then deletes the local copy.
    private func add(_ path: String, from work: URL, to archive: ArchiveOnWorkers, compressed: Bool) async throws -> BackupManifest.File {
        try await archive.run { archive in
            let local = work.appendingPathComponent(path)
            let (sha, bytes) = try BackupManifest.sha256(of: local)
            try archive.addEntry(with: path, relativeTo: work, compressionMethod: compressed ? .deflate : .none)
            try FileManager.default.removeItem(at: local)
            return .init(path: path, sha256: sha, bytes: bytes)
        }
    }
}
