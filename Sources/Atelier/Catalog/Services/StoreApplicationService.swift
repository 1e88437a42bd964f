import Fluent
import Foundation
import SQLKit

/// Applying to open a store, and the admins' decision (issue 51). Each step and its inbox entries
/// commit in one transaction; an approval makes the store, its owner and the decision together.
struct StoreApplicationService {
    struct Input: Sendable {
        var name: String
        var street: String
        var postalCode: String
        var city: String
        var lat: Double
        var lng: Double
        var about: String
    }

    let db: any Database
    let core: CoreServices
    let catalogChanges: CatalogChanges
    let catalogIndexing: any CatalogIndexing
    let live: LiveUpdates
    let mailOutbox: MailOutbox
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }

    func apply(_ input: Input, by applicant: User) async throws -> StoreApplication {
        let applicantID = try applicant.requireID()
        var errors = FieldErrors()
        func text(_ value: String, _ field: String, max: Int, required: Bool = true) -> String {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.count > max { errors.add(field, "must be at most \(max) characters") }
            if required, trimmed.isEmpty { errors.add(field, "is required") }
            return trimmed
        }
        let application = StoreApplication()
        application.name = text(input.name, "name", max: 120)
        application.street = text(input.street, "street", max: 200)
        application.postalCode = text(input.postalCode, "postalCode", max: 20, required: false)
        application.city = text(input.city, "city", max: 120)
        application.about = text(input.about, "about", max: 2000, required: false)
        _ = AccountRules.location(lat: input.lat, lng: input.lng, field: "location", into: &errors)
        for (value, field) in [(input.name, "name"), (input.street, "street"), (input.city, "city"), (input.about, "about")] {
            try PlainText.requireNoNUL(value, field: field)
        }
        try errors.throwIfAny()
        let now = self.now
        application.id = .v7(at: now)
        application.applicantID = applicantID
        application.lat = input.lat
        application.lng = input.lng
        application.status = StoreApplication.Status.pending.rawValue
        application.createdAt = now
        let admins = try await core.writeTransaction(on: db) { tx -> [UUID] in
            let waiting = try await StoreApplication.query(on: tx).filter(\.$applicantID == applicantID)
                .filter(\.$status == StoreApplication.Status.pending.rawValue).count()
            guard waiting == 0 else {
                throw Problem.conflict("You have an application waiting already; an admin answers it first.")
            }
            try await application.create(on: tx)
            return try await InboxService.recordForAdmins(
                .storeApplication, actorID: applicantID,
                text: "\(applicant.displayName) applied to open \(application.name) in \(application.city).",
                link: "atelier://admin/store-applications", webPath: "/admin/store-applications", on: tx, now: now)
        }
        for admin in admins { await InboxService.announce(.storeApplication, to: admin, by: applicantID, live: live) }
        return application
    }

    func mine(_ applicantID: UUID) async throws -> [StoreApplication] {
        try await StoreApplication.query(on: db).filter(\.$applicantID == applicantID).sort(\.$createdAt, .descending).limit(50).all()
    }

    func list(status: StoreApplication.Status?, page: PageRequest) async throws -> Page<StoreApplication> {
        let query = StoreApplication.query(on: db)
        if let status { query.filter(\.$status == status.rawValue) }
        let rows = try await query.newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// Makes the store with the applicant as its owner, and tells them.
    func approve(_ id: UUID, by admin: User) async throws -> (StoreApplication, Store) {
        try admin.requireAdmin()
        let application = try await pending(id)
        let now = self.now
        let store = try await StoreService(db: db, core: core, catalogChanges: catalogChanges, catalogIndexing: catalogIndexing, mailOutbox: mailOutbox, mediaLibrary: mediaLibrary).create(.init(
            name: application.name, street: application.street, postalCode: application.postalCode, city: application.city,
            lat: application.lat, lng: application.lng, ownerID: application.applicantID,
            joining: { store, tx in
                try await Self.decide(
                    application, .approved, storeID: store.requireID(), reason: nil,
                    telling: "\(store.name) is open on Atelier: your application was approved. Add its products in the store portal.",
                    link: "atelier://stores/\(store.id!.idString)", webPath: "/portal/stores/\(store.id!.idString)", on: tx, now: now)
            }))
        await InboxService.announce(.storeApplication, to: application.applicantID, by: nil, live: live)
        application.status = StoreApplication.Status.approved.rawValue
        application.storeID = store.id
        application.decidedAt = now
        return (application, store)
    }

    func decline(_ id: UUID, reason rawReason: String, by admin: User) async throws -> StoreApplication {
        try admin.requireAdmin()
        let reason = rawReason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...500).contains(reason.count) else { throw Problem.invalid("reason", "must be 1 to 500 characters: say why") }
        try PlainText.requireNoNUL(reason, field: "reason")
        let application = try await pending(id)
        let now = self.now
        try await core.writeTransaction(on: db) { tx in
            try await Self.decide(
                application, .declined, storeID: nil, reason: reason,
                telling: "Your application for \(application.name) was declined: \(reason)",
                link: "atelier://store-applications", webPath: "/open-a-store", on: tx, now: now)
        }
        await InboxService.announce(.storeApplication, to: application.applicantID, by: nil, live: live)
        application.status = StoreApplication.Status.declined.rawValue
        application.declineReason = reason
        application.decidedAt = now
        return application
    }

    private func pending(_ id: UUID) async throws -> StoreApplication {
        guard let application = try await StoreApplication.find(id, on: db) else { throw Problem.notFound("application") }
        guard application.status == StoreApplication.Status.pending.rawValue else {
            throw Problem.conflict("This application was \(application.status) already.")
        }
        return application
    }

    /// The decision, only while the application is still pending (two admins deciding at once: the
    /// second finds it decided and its transaction, and store, goes), and the applicant's notice.
    private static func decide(
        _ application: StoreApplication, _ status: StoreApplication.Status, storeID: UUID?, reason: String?,
        telling text: String, link: String, webPath: String, on tx: any Database, now: Date
    ) async throws {
        let id = try application.requireID()
        let sql = tx.sql
        let decided = try await sql.raw("""
            UPDATE \(ident: StoreApplication.schema)
            SET status = \(bind: status.rawValue), store_id = \(bind: storeID), decline_reason = \(bind: reason), decided_at = \(bind: now)
            WHERE id = \(bind: id) AND status = \(bind: StoreApplication.Status.pending.rawValue) RETURNING id
            """).all()
        guard !decided.isEmpty else { throw Problem.conflict("This application was decided already.") }
        try await InboxService.record(
            .init(recipientID: application.applicantID, kind: .storeApplication, actorID: nil, text: text, link: link, webPath: webPath),
            on: tx, now: now)
    }
}
