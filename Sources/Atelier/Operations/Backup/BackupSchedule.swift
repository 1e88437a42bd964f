import Fluent
import Foundation

/// The nightly backup, run by the background workers when `BACKUP_HOUR` is set: once a UTC day,
/// from that hour on, if the folder holds no backup of that day yet (so a restart in between does
/// not take a second one), then only the newest `BACKUP_KEEP` archives are kept.
/// With several instances, set `BACKUP_HOUR` on one of them.
struct BackupSchedule {
    let hour: Int
    let folder: URL
    let keep: Int

    init?(config: AppConfig) {
        guard let hour = config.backupHour else { return nil }
        self.hour = hour
        folder = config.backupDirectory.map { URL(fileURLWithPath: $0) } ?? BackupCommand.defaultFolder(config)
        keep = config.backupKeep
    }

    func isDue(at now: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard calendar.component(.hour, from: now) >= hour else { return false }
        let today = BackupWriter.namePrefix + BackupWriter.stamp(now).prefix(8)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return !names.contains { $0.hasPrefix(today) && $0.hasSuffix(".zip") }
    }

    /// Takes the backup when due; returns its file name, or nil when it was not due.
    func runIfDue(db: any Database, clock: any AppClock, config: AppConfig, media: MediaLibrary) async throws -> String? {
        let now = clock.now()
        guard isDue(at: now) else { return nil }
        let archive = try await BackupWriter(db: db, config: config, media: media, now: now).write(into: folder)
        try BackupWriter.prune(folder, keep: keep)
        return archive.lastPathComponent
    }
}
