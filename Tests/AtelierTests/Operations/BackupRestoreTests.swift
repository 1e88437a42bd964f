import Crypto
import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import VaporTesting
import ZIPFoundation

@testable import Atelier

/// `atelier backup` under write load, then `atelier restore` into an empty installation (a new
/// data folder on SQLite; the emptied schema on PostgreSQL): the same users, products, likes and
/// photos, and every file as the manifest says. Runs on both databases.
@Suite("Backup and restore")
struct BackupRestoreTests {
    @Test("a backup taken under write load restores with the same users, products, likes and photos")
    func roundTrip() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            var products: [String] = []
            for index in 0..<3 {
                let photo = try await t.uploadPhoto(token: f.ownerA.accessToken, width: 300 + index, height: 360)
                let created = try await t.createProduct(
                    in: f.storeAID, token: f.ownerA.accessToken,
                    json: TestApp.productJSON(title: "Backed up \(index)", category: f.shirts, photos: [photo], status: "active"))
                products.append(try created.content.decode(ProductBody.self).id)
            }
            var shoppers: [Session] = []
            for index in 0..<4 { shoppers.append(try await t.signUp(name: "Shopper \(index)")) }
            for shopper in shoppers.prefix(2) {
                _ = try await t.send(.PUT, "/api/v1/products/\(products[0])/like", token: shopper.accessToken)
            }

            // Likes, unlikes and uploads keep coming while the backup runs.
            let acknowledged = NIOLockedValueBox(0)
            let load = Task { [shoppers, products] in
                var round = 0
                while !Task.isCancelled && round < 200 {
                    let shopper = shoppers[round % shoppers.count]
                    let product = products[round % products.count]
                    let method: HTTPMethod = round % 3 == 2 ? .DELETE : .PUT
                    if (try? await t.send(method, "/api/v1/products/\(product)/like", token: shopper.accessToken))?.status == .ok {
                        acknowledged.withLockedValue { $0 += 1 }
                    }
                    if round % 10 == 0 { _ = try? await t.uploadPhoto(token: shopper.accessToken, width: 200 + round, height: 200) }
                    round += 1
                }
            }
            // The backup starts once the load is under way: on a busy machine the first writes can take
            // a while (a backup started before them ran with no write beside it).
            let started = ContinuousClock.now
            while acknowledged.withLockedValue({ $0 }) == 0, ContinuousClock.now - started < .seconds(60) {
                try await Task.sleep(for: .milliseconds(20))
            }
            try #require(acknowledged.withLockedValue { $0 } > 0, "no write was acknowledged within 60 s")
            let folder = URL(fileURLWithPath: t.dataDirectory).appendingPathComponent("backups")
            let archiveURL = try await BackupWriter(
                db: t.app.db, config: t.app.atelier.config, media: t.app.atelier.media, now: t.clock.now()
            ).write(into: folder)
            load.cancel()
            _ = await load.value

            // Every file in the archive is what the manifest says.
            let manifest = try Self.checkArchive(archiveURL)
            #expect(manifest.media.count >= 3 * 2)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [archiveURL.lastPathComponent])

            var config = AppConfig.testing(dataDirectory: NSTemporaryDirectory() + "atelier-restore-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(atPath: config.dataDirectory) }
            if case .postgres = config.database {
                // The empty database: the test's schema dropped; the restore makes it again.
                config.databaseSchema = t.app.atelier.config.databaseSchema
                try await DatabaseSetup.dropSchema(t.app)
            }
            let summary = try await BackupRestore.restore(archive: archiveURL, config: config)
            #expect(summary.mediaFiles == manifest.media.count)
            // A second restore into the now full installation is refused and changes nothing.
            if case .sqliteFile = config.database {
                await #expect(throws: BackupError.self) { try await BackupRestore.restore(archive: archiveURL, config: config) }
            }

            let restored = try await TestApp.make { $0 = config }
            do {
                try await Self.checkRestored(restored, owner: f.ownerA, products: products, shoppers: shoppers)
            } catch {
                try? await restored.app.asyncShutdown()
                throw error
            }
            try await restored.app.asyncShutdown()
        }
    }

    @Test("prune keeps the newest backups")
    func prune() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("prune-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = (1...5).map { "atelier-backup-2026110\($0)T020000Z.zip" }
        for name in names + ["notes.txt"] { try Data().write(to: folder.appendingPathComponent(name)) }
        #expect(try BackupWriter.prune(folder, keep: 2) == Array(names.prefix(3).reversed()))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == Array(names.suffix(2)) + ["notes.txt"])
    }

    private static func checkArchive(_ url: URL) throws -> BackupManifest {
        let archive = try Archive(url: url, accessMode: .read)
        var data = Data()
        _ = try archive.extract(try #require(archive[BackupManifest.entryName])) { data.append($0) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let manifest = try decoder.decode(BackupManifest.self, from: data)
        for file in [manifest.database] + manifest.media {
            var bytes = Data()
            _ = try archive.extract(try #require(archive[file.path], "\(file.path)")) { bytes.append($0) }
            let sha = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            #expect(sha == file.sha256 && Int64(bytes.count) == file.bytes, "\(file.path)")
        }
        return manifest
    }

    private static func checkRestored(_ t: TestApp, owner: Session, products: [String], shoppers: [Session]) async throws {
        // The same people sign in with their passwords.
        for email in ([owner] + shoppers).compactMap(\.user.email) {
            let login = try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"\#(TestApp.password)"}"#)
            #expect(login.status == .ok, "\(email): \(login.body.string)")
        }
        for id in products {
            let read = try await t.send(.GET, "/api/v1/products/\(id)")
            #expect(read.status == .ok)
            let product = try read.content.decode(ProductBody.self)
            for variant in product.photos.flatMap(\.variants) {
                #expect(try await t.fetch(variant.url).status == .ok, "\(variant.url)")
            }
            // The counter agrees with the rows the snapshot holds.
            let likes = try await ProductLike.query(on: t.app.db).filter(\.$product.$id == UUID(uuidString: id)!).count()
            #expect(try await Product.find(UUID(uuidString: id), on: t.app.db)?.likeCount == likes)
        }
        // Every photo the restored database names has its files.
        for media in try await Media.query(on: t.app.db).all() {
            for key in [media.originalKey] + media.variants.map(\.key) {
                #expect(try await t.app.atelier.media.store.exists(key: key), "\(key)")
            }
        }
    }
}

@Suite("Backup schedule")
struct BackupScheduleTests {
    @Test("the nightly backup is due once a UTC day, from BACKUP_HOUR on, and keeps BACKUP_KEEP archives")
    func nightly() async throws {
        try await TestApp.with(adjust: { $0.backupHour = 2; $0.backupKeep = 2 }) { t in
            let schedule = try #require(BackupSchedule(config: t.app.atelier.config))
            _ = try await t.signUp()
            // ManualClock starts at 2027-01-15T08:00:00Z.
            let start = t.clock.now()
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let midnight = calendar.startOfDay(for: start)
            t.clock.set(midnight.addingTimeInterval(3600))  // 01:00, before the hour
            #expect(try await schedule.runIfDue(db: t.app.db, clock: t.app.core.clock, config: t.app.core.config, media: t.app.atelier.media) == nil)
            var written: [String] = []
            for day in 0..<3 {
                t.clock.set(midnight.addingTimeInterval(Double(day) * 86_400 + 2.5 * 3600))
                written.append(try #require(try await schedule.runIfDue(db: t.app.db, clock: t.app.core.clock, config: t.app.core.config, media: t.app.atelier.media)))
                #expect(try await schedule.runIfDue(db: t.app.db, clock: t.app.core.clock, config: t.app.core.config, media: t.app.atelier.media) == nil, "a second one the same day")
            }
            let kept = try FileManager.default.contentsOfDirectory(atPath: schedule.folder.path).filter { $0.hasSuffix(".zip") }.sorted()
            #expect(kept == Array(written.suffix(2)))
        }
    }
}
