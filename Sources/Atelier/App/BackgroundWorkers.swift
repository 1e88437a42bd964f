import Fluent
import NIOConcurrencyHelpers
import Vapor

/// In-process background loops (the job queue, counters, backups, closet images), started with the app and
/// cancelled on shutdown.
final class BackgroundWorkers: LifecycleHandler {
    private let tasks = NIOLockedValueBox<[Task<Void, Never>]>([])

    func didBootAsync(_ app: Application) async throws {
        let clock = app.atelier.clock
        let db = app.db
        let logger = app.logger
        let services = app.atelier
        // Everything on a timetable or deferred (mail, pushes, housekeeping, re-draws, publishing,
        // expiries, reminders) is a job in the database; woken when a job is committed, else every second.
        let jobs = Task {
            do {
                try await JobQueue(db: db, core: services.core).releaseLeasesOfDeadProcess()
            } catch {
                logger.error("Releasing the jobs of an earlier run failed: \(String(reflecting: error))")
            }
            while !Task.isCancelled {
                do {
                    try await services.recurringJobs.scheduleDue(db: db, now: clock.now())
                    try await services.jobs.drain(db: db, core: services.core, parts: services.parts)
                } catch {
                    logger.error("Running jobs failed: \(String(reflecting: error))")
                }
                await services.jobsWaiting.wait(upTo: .seconds(1))
            }
        }
        let counters = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(10))
                do {
                    try await services.catalogCounters.flush(on: db)
                } catch {
                    logger.error("Writing product view and store like counts failed: \(String(reflecting: error))")
                }
            }
        }
        let schedule = BackupSchedule(config: services.config)
        let backups = Task {
            while !Task.isCancelled, let schedule {
                do {
                    if let name = try await schedule.runIfDue(db: db, clock: services.clock, config: services.config, media: services.media) { logger.info("Nightly backup written: \(name)") }
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
                    try await WardrobeImageQueue(db: db, core: services.core, mediaLibrary: services.media).drain()
                } catch {
                    logger.error("Drawing wardrobe images failed: \(String(reflecting: error))")
                }
                await services.wardrobeImages.wait(upTo: .seconds(30))
            }
        }
        let replicaProbe = Task { if let replica = services.replica { await replica.probe(app) } }
        tasks.withLockedValue { $0 = [jobs, counters, backups, wardrobe, replicaProbe] }
    }

    func shutdownAsync(_ app: Application) async {
        for task in tasks.withLockedValue({ $0 }) {
            task.cancel()
            app.atelier.wardrobeImages.signal()
            app.atelier.jobsWaiting.signal()
            await task.value
        }
        do {
            try await app.atelier.catalogCounters.flush(on: app.db)
        } catch {
            app.logger.error("Writing product view and store like counts at shutdown failed: \(String(reflecting: error))")
        }
    }
}
