import AtelierServerAPI
import Foundation
import Vapor

/// `/reports` and `/admin/reports…`: reporting content and the admins' queue.
extension APIHandler {
    func createReport(_ input: Operations.CreateReport.Input) async throws -> Operations.CreateReport.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        guard let subjectID = UUID(uuidString: body.subjectId) else { throw Problem.invalid("subjectId", "is not an id") }
        let report = try await ModerationService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media, moderationTargets: services.moderationTargets)
            .report(by: user, subjectType: body.subjectType, subjectID: subjectID, reason: body.reason)
        return .created(.init(body: .json(try await reportBody(report, req))))
    }

    func listReports(_ input: Operations.ListReports.Input) async throws -> Operations.ListReports.Output {
        let (req, user) = try await socialCaller()
        try user.requireAdmin()
        let page = try await ModerationService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media, moderationTargets: services.moderationTargets)
            .queue(open: input.query.status != .resolved, page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(.init(items: try await reportBodies(page.items, req), nextCursor: page.nextCursor))))
    }

    func resolveReport(_ input: Operations.ResolveReport.Input) async throws -> Operations.ResolveReport.Output {
        let (req, admin) = try await socialCaller()
        try admin.requireAdmin()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let report = try await ModerationService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media, moderationTargets: services.moderationTargets)
            .resolve(try PathID.parse(input.path.reportId, "report"), action: body.action, by: admin)
        return .ok(.init(body: .json(try await reportBody(report, req))))
    }

    private func reportBody(_ report: Report, _ req: Request) async throws -> Components.Schemas.Report {
        guard let body = try await reportBodies([report], req).first else { throw Problem.notFound("report") }
        return body
    }

    private func reportBodies(_ reports: [Report], _ req: Request) async throws -> [Components.Schemas.Report] {
        let viewerID = try await req.requireCaller().user.requireID()
        let ids = reports.flatMap { [$0.reporterID] + ($0.subjectAuthorID.map { [$0] } ?? []) }
        let byID = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).peopleByID(ids, viewer: viewerID)
        return reports.compactMap { report in
            guard let reporter = byID[report.reporterID], let subject = Components.Schemas.ReportSubject(rawValue: report.subjectType)
            else { return nil }
            return .init(
                id: report.id!.idString, subjectType: subject, subjectId: report.subjectID.idString,
                reason: report.reason, status: report.resolvedAt == nil ? .open : .resolved, action: report.action,
                reporter: .init(reporter), subjectAuthor: report.subjectAuthorID.flatMap { byID[$0] }.map { .init($0) },
                excerpt: report.excerpt, createdAt: report.createdAt, resolvedAt: report.resolvedAt)
        }
    }
}
