import AtelierServerAPI
import Foundation
import Vapor

/// `/me/store-applications`, `/admin/store-applications…`: applying to open a store, and deciding.
extension APIHandler {
    func applyForStore(_ input: Operations.ApplyForStore.Input) async throws -> Operations.ApplyForStore.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let application = try await StoreApplicationService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, live: services.live, mailOutbox: services.mailOutbox, mediaLibrary: services.media).apply(.init(
            name: body.name, street: body.street, postalCode: body.postalCode ?? "", city: body.city,
            lat: body.location.lat, lng: body.location.lng, about: body.about ?? ""), by: user)
        return .created(.init(body: .json(.init(application))))
    }

    func listMyStoreApplications(_ input: Operations.ListMyStoreApplications.Input) async throws -> Operations.ListMyStoreApplications.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let items = try await StoreApplicationService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, live: services.live, mailOutbox: services.mailOutbox, mediaLibrary: services.media).mine(user.requireID())
        return .ok(.init(body: .json(.init(items: items.map(Components.Schemas.StoreApplication.init)))))
    }

    func listStoreApplications(_ input: Operations.ListStoreApplications.Input) async throws -> Operations.ListStoreApplications.Output {
        let req = try request()
        try await req.requireCaller().user.requireAdmin()
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let status = input.query.status.flatMap { StoreApplication.Status(rawValue: $0.rawValue) }
        let rows = try await StoreApplicationService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, live: services.live, mailOutbox: services.mailOutbox, mediaLibrary: services.media).list(status: status, page: page)
        return .ok(.init(body: .json(.init(items: rows.items.map(Components.Schemas.StoreApplication.init), nextCursor: rows.nextCursor))))
    }

    func approveStoreApplication(_ input: Operations.ApproveStoreApplication.Input) async throws -> Operations.ApproveStoreApplication.Output {
        let req = try request()
        let admin = try await req.requireCaller().user
        let id = try PathID.parse(input.path.applicationId, "application")
        let (application, _) = try await StoreApplicationService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, live: services.live, mailOutbox: services.mailOutbox, mediaLibrary: services.media).approve(id, by: admin)
        return .ok(.init(body: .json(.init(application))))
    }

    func declineStoreApplication(_ input: Operations.DeclineStoreApplication.Input) async throws -> Operations.DeclineStoreApplication.Output {
        let req = try request()
        let admin = try await req.requireCaller().user
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let id = try PathID.parse(input.path.applicationId, "application")
        let application = try await StoreApplicationService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, live: services.live, mailOutbox: services.mailOutbox, mediaLibrary: services.media).decline(id, reason: body.reason, by: admin)
        return .ok(.init(body: .json(.init(application))))
    }
}

extension Components.Schemas.StoreApplication {
    init(_ application: StoreApplication) {
        self.init(
            id: application.id!.idString, applicantId: application.applicantID.idString, name: application.name,
            street: application.street, postalCode: application.postalCode, city: application.city,
            location: .init(lat: application.lat, lng: application.lng), about: application.about,
            status: .init(rawValue: application.status) ?? .pending, declineReason: application.declineReason,
            storeId: application.storeID?.idString, createdAt: application.createdAt, decidedAt: application.decidedAt)
    }
}
