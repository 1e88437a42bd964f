import Fluent
import Vapor

/// `/admin/jobs`: the queue as admins see it (due, running, failed, with each failure's reason and
/// a retry).
enum AdminJobsPages {
    static func register(_ admin: any RoutesBuilder) {
        admin.get("jobs", use: jobs)
        admin.post("jobs", ":id", "retry") { req in
            try await AdminActions.act(req, back: "/admin/jobs?status=failed") { _ in
                guard try await JobQueue(db: req.db, core: req.core).retry(try AdminActions.id(req)) else { throw Problem.notFound("failed job") }
                req.atelier.jobsWaiting.signal()
                return "The job will run again."
            }
        }
    }

    struct JobsPage: WebPageContext {
        var page: PageContext
        var status: String
        var counts: [Count]
        var jobs: [JobRow]
    }

    struct Count: Encodable {
        var status: String
        var label: String
        var count: Int
        var current: Bool
    }

    struct JobRow: Encodable {
        var id: String
        var kind: String
        var key: String
        var runAt: String
        var attempts: Int
        var maxAttempts: Int
        var leaseUntil: String?
        var lastError: String?
        var failed: Bool
    }

    static func jobs(_ req: Request) async throws -> View {
        let now = req.atelier.clock.now()
        let status = ["due", "running", "failed", "waiting"].contains(req.query[String.self, at: "status"] ?? "") ? req.query[String.self, at: "status"]! : "due"
        func query(_ status: String) -> QueryBuilder<Job> {
            let query = Job.query(on: req.db)
            switch status {
            case "due": return query.filter(\.$status == Job.Status.queued.rawValue).filter(\.$runAt <= now)
            case "waiting": return query.filter(\.$status == Job.Status.queued.rawValue).filter(\.$runAt > now)
            case "running": return query.filter(\.$status == Job.Status.running.rawValue)
            default: return query.filter(\.$status == Job.Status.failed.rawValue)
            }
        }
        var counts: [Count] = []
        for (key, label) in [("due", "Due"), ("running", "Running"), ("failed", "Failed"), ("waiting", "Scheduled")] {
            counts.append(Count(status: key, label: label, count: try await query(key).count(), current: key == status))
        }
        let rows = try await query(status).sort(status == "failed" ? \.$updatedAt : \.$runAt, status == "failed" ? .descending : .ascending)
            .limit(100).all()
        return try await req.renderPage("admin/jobs", JobsPage(
            page: PageContext(req, title: "Jobs"), status: status, counts: counts,
            jobs: rows.map {
                JobRow(id: $0.id!.idString, kind: $0.kind, key: $0.key, runAt: AdminActions.time($0.runAt), attempts: $0.attempts, maxAttempts: $0.maxAttempts,
                       leaseUntil: $0.leaseUntil.map(AdminActions.time), lastError: $0.lastError, failed: $0.status == Job.Status.failed.rawValue)
            }))
    }
}
