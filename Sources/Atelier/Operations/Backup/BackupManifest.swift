import Crypto
import Foundation

/// `manifest.json`, the last entry of a backup archive: what the archive holds and the SHA-256
/// of every file, so a restore (or an operator) can check each byte before using it.
struct BackupManifest: Codable, Sendable {
    struct File: Codable, Sendable, Equatable {
        /// The path inside the archive ("database.sqlite", "media/ab/ab12…/w540.jpg").
        var path: String
        var sha256: String
        var bytes: Int64
    }

    enum DatabaseKind: String, Codable, Sendable { case sqlite, postgres }

    static let currentVersion = 1
    static let entryName = "manifest.json"
    static let mediaPrefix = "media/"

    var version = currentVersion
    var createdAt: Date
    var databaseKind: DatabaseKind
    /// The PostgreSQL schema the dump holds, when the installation uses one.
    var databaseSchema: String?
    var database: File
    var media: [File]
    /// Keys of photos whose rows were deleted between the database snapshot and the copy.
    var missingMedia: [String]

    static func sha256(of url: URL) throws -> (hex: String, bytes: Int64) {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        var bytes: Int64 = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
            bytes += Int64(chunk.count)
        }
        return (Hex.lowercase(hasher.finalize()), bytes)
    }
}

/// Runs `pg_dump` / `pg_restore` with the connection in the environment (`PGPASSWORD` and the
/// rest), never on the command line, where every user of the machine could read the password.
enum PostgresTools {
    /// Runs the tool and waits for it without holding a thread (a dump of a large database takes
    /// minutes). Its error output goes to a scratch file, read when it has exited: a pipe would
    /// need a thread reading it meanwhile.
    static func run(_ tool: String, arguments: [String], databaseURL: URL) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable(tool))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PGHOST"] = databaseURL.host ?? "127.0.0.1"
        environment["PGPORT"] = String(databaseURL.port ?? 5432)
        environment["PGUSER"] = databaseURL.user ?? "postgres"
        environment["PGPASSWORD"] = databaseURL.password.flatMap { $0.removingPercentEncoding } ?? ""
        environment["PGDATABASE"] = String(databaseURL.path.drop { $0 == "/" })
        process.environment = environment
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("atelier-\(tool)-\(UUID().idString).log")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else { throw BackupError("cannot write \(errorFile.path)") }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errors = try FileHandle(forWritingTo: errorFile)
        process.standardError = errors
        let status: Int32 = try await withCheckedThrowingContinuation { exited in
            process.terminationHandler = { exited.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                exited.resume(throwing: error)
            }
        }
        try? errors.close()
        guard status == 0 else {
            let message = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw BackupError("\(tool) failed (\(status)): \(message)")
        }
    }

    /// On PATH (Debian's wrappers in /usr/bin), else the newest server version's own binary.
    static func executable(_ tool: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(tool)") {
            return "\(folder)/\(tool)"
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let candidate = "/usr/lib/postgresql/\(version)/bin/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BackupError("\(tool) was not found; install PostgreSQL's client tools (postgresql-client)")
    }
}

struct BackupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
