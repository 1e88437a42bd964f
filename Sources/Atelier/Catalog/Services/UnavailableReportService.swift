import Fluent
import Foundation

/// "Not in the store any more": shoppers report, staff resolve.
struct UnavailableReportService {
    let db: any Database
    let core: CoreServices

    private var now: Date { core.clock.now() }

    func report(_ product: Product, by user: User, note raw: String?) async throws -> UnavailableReport {
        let note = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard note.count <= 500 else { throw Problem.invalid("note", "must be at most 500 characters") }
        let productID = try product.requireID()
        if try await UnavailableReport.query(on: db).filter(\.$product.$id == productID)
            .filter(\.$reporterID == user.requireID()).filter(\.$resolvedAt == nil).count() > 0
        {
            throw Problem.conflict("You already reported this; the store will look into it.")
        }
        let report = UnavailableReport()
        report.id = .v7(at: now)
        report.$product.id = productID
        report.storeID = product.$store.id
        report.reporterID = try user.requireID()
        report.note = note
        report.createdAt = now
        try await report.create(on: db)
        return report
    }

    func open(for storeID: UUID, page: PageRequest) async throws -> Page<UnavailableReport> {
        let rows = try await UnavailableReport.query(on: db).filter(\.$storeID == storeID).filter(\.$resolvedAt == nil)
            .with(\.$product).newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    func openCount(for storeID: UUID) async throws -> Int {
        try await UnavailableReport.query(on: db).filter(\.$storeID == storeID).filter(\.$resolvedAt == nil).count()
    }

    func resolve(_ id: UUID, in storeID: UUID) async throws -> UnavailableReport {
        guard let report = try await UnavailableReport.query(on: db).filter(\.$id == id).filter(\.$storeID == storeID)
            .with(\.$product).first()
        else { throw Problem.notFound("report") }
        if report.resolvedAt == nil {
            report.resolvedAt = now
            try await report.save(on: db)
        }
        return report
    }
}
