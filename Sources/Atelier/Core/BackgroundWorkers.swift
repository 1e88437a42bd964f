import Fluent
import NIOConcurrencyHelpers
import Vapor

/// In-process background loops (mail outbox delivery, clean-up), started with the app and
/// cancelled on shutdown.
final class BackgroundWorkers: LifecycleHandler {
    private let tasks = NIOLockedValueBox<[Task<Void, Never>]>([])

    func didBootAsync(_ app: Application) async throws {
        let outbox = app.atelier.mailOutbox
        let clock = app.atelier.clock
        let db = app.db
        let logger = app.logger
        let delivery = Task {
            while !Task.isCancelled {
                do {
                    try await outbox.deliverAllDue(on: db)
                } catch {
                    logger.error("Mail outbox delivery failed: \(String(reflecting: error))")
                }
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
        let services = app.atelier
        let cleanup = Task {
            while !Task.isCancelled {
                let cutoff = clock.now().addingTimeInterval(-IdempotencyMiddleware.lifetime)
                try? await IdempotencyRecord.query(on: db).filter(\.$createdAt < cutoff).delete()
                do {
                    try await MediaService(db: db, services: services).collectUnattached()
                } catch {
                    logger.error("Collecting unattached media failed: \(String(reflecting: error))")
                }
                try? await Task.sleep(for: .seconds(3600))
            }
        }
        let counters = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(10))
                do {
                    try await services.catalogCounters.flush(on: db)
                } catch {
                    logger.error("Writing product view counts failed: \(String(reflecting: error))")
                }
            }
        }
        let redraw = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(600))
                do {
                    if let count = try await FeedSortKeyRedraw(db: db, services: services).runIfDue() {
                        logger.info("Feed sort keys re-drawn for \(count) products.")
                    }
                } catch {
                    logger.error("Re-drawing feed sort keys failed: \(String(reflecting: error))")
                }
            }
        }
        let magazine = Task {
            while !Task.isCancelled {
                do {
                    try await MagazineEditor(db: db, services: services).publishDue()
                } catch {
                    logger.error("Publishing scheduled magazine issues failed: \(String(reflecting: error))")
                }
                try? await Task.sleep(for: .seconds(30))
            }
        }
        let holds = Task {
            while !Task.isCancelled {
                do {
                    let expired = try await OrderService(db: db, services: services).expireDue()
                    if expired > 0 { logger.info("\(expired) orders expired: their holds passed.") }
                } catch {
                    logger.error("Expiring orders failed: \(String(reflecting: error))")
                }
                try? await Task.sleep(for: .seconds(30))
            }
        }
        let schedule = BackupSchedule(config: services.config)
        let backups = Task {
            while !Task.isCancelled, let schedule {
                do {
                    if let name = try await schedule.runIfDue(db: db, services: services) { logger.info("Nightly backup written: \(name)") }
                } catch {
                    logger.error("The nightly backup failed: \(String(reflecting: error))")
                }
                try? await Task.sleep(for: .seconds(300))
            }
        }
        // Cut-outs and outfit pictures: woken by each write that leaves one to draw, and every
        // 30 s for claims that expired (a crash mid-drawing, another instance that stopped).
        let wardrobe = Task {
            while !Task.isCancelled {
                do {
                    try await WardrobeImageQueue(db: db, services: services).drain()
                } catch {
                    logger.error("Drawing wardrobe images failed: \(String(reflecting: error))")
                }
                await services.wardrobeImages.wait(upTo: .seconds(30))
            }
        }
        let reminders = Task {
            while !Task.isCancelled {
                do {
                    try await OutfitReminders(db: db, services: services).sendDue()
                } catch {
                    logger.error("Sending outfit reminders failed: \(String(reflecting: error))")
                }
                try? await Task.sleep(for: .seconds(60))
            }
        }
        tasks.withLockedValue { $0 = [delivery, cleanup, counters, redraw, magazine, holds, backups, wardrobe, reminders] }
    }

    func shutdownAsync(_ app: Application) async {
        for task in tasks.withLockedValue({ $0 }) {
            task.cancel()
            app.atelier.wardrobeImages.signal()
            await task.value
        }
        try? await app.atelier.catalogCounters.flush(on: app.db)
    }
}
