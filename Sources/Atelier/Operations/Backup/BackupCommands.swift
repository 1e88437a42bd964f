import Foundation
import Vapor

/// `atelier backup [--output DIR] [--keep N]`: writes a backup while the server may be serving
/// (see `BackupWriter`), then keeps the newest N archives in the folder when `--keep` is given.
struct BackupCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Option(name: "output", help: "Folder for the archive (default: $DATA_DIR/backups).")
        var output: String?
        @Option(name: "keep", help: "Keep only this many newest backups in the folder.")
        var keep: Int?
    }

    var help: String { "Backs up the database and the media files into one dated archive with checksums." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        let folder = signature.output.map { URL(fileURLWithPath: $0) } ?? Self.defaultFolder(app.atelier.config)
        let archive = try await BackupWriter(db: app.db, config: app.atelier.config, media: app.atelier.media, now: Date())
            .write(into: folder)
        context.console.print("Backup written: \(archive.path)")
        if let keep = signature.keep {
            for name in try BackupWriter.prune(folder, keep: keep) { context.console.print("Removed old backup \(name)") }
        }
    }

    static func defaultFolder(_ config: AppConfig) -> URL {
        URL(fileURLWithPath: config.dataDirectory).appendingPathComponent("backups")
    }
}

/// Commands that must run without a configured application: `atelier restore ARCHIVE` (configuring
/// would create and migrate an empty database where the backup's is to go).
public enum OfflineCommands {
    /// Runs the command named by `arguments` if it is one of these; returns false otherwise.
    public static func runIfOffline(_ arguments: [String]) async throws -> Bool {
        guard arguments.first == "restore" else { return false }
        guard arguments.count == 2, !arguments[1].hasPrefix("-") else {
            print("Usage: atelier restore ARCHIVE\nRestores a backup into the empty installation named by DATA_DIR / DATABASE_URL / MEDIA_STORE.")
            throw BackupError("restore needs the archive's path")
        }
        let config = try AppConfig.fromEnvironment()
        do {
            let summary = try await BackupRestore.restore(archive: URL(fileURLWithPath: arguments[1]), config: config)
            print("Restored the \(summary.databaseKind.rawValue) database and \(summary.mediaFiles) media files from \(arguments[1]).")
        } catch {
            FileHandle.standardError.write(Data("restore failed: \(error)\n".utf8))
            throw error
        }
        return true
    }
}
