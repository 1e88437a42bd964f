import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/stores…`: public store reads, the store profile, and admin store management.
extension APIHandler {
    func listStores(_ input: Operations.ListStores.Input) async throws -> Operations.ListStores.Output {
        let req = try request()
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let visibility = try await req.storeVisibility(for: req.optionalCaller()?.user)
        let stores = try await StoreService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mailOutbox: services.mailOutbox, mediaLibrary: services.media).list(query: input.query.q, page: page, visibility: visibility)
        let images = try await CatalogImages.load(stores: stores.items, media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media))
        return .ok(.init(body: .json(.init(items: try await storeBodies(stores.items, images, req), nextCursor: stores.nextCursor))))
    }

    func getStore(_ input: Operations.GetStore.Input) async throws -> Operations.GetStore.Output {
        let req = try request()
        let caller = try await req.optionalCaller()
        let store = try await StoreAccess(db: req.db).visibleStore(input.path.storeId, to: caller?.user)
        return .ok(.init(body: .json(try await storeBody(store, req))))
    }

    func createStore(_ input: Operations.CreateStore.Input) async throws -> Operations.CreateStore.Output {
        let req = try request()
        try await req.requireCaller().user.requireAdmin()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let store = try await StoreService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mailOutbox: services.mailOutbox, mediaLibrary: services.media).create(
            .init(name: body.name, slug: body.slug, street: body.street, postalCode: body.postalCode ?? "", city: body.city,
                  lat: body.location.lat, lng: body.location.lng, ownerEmail: body.ownerEmail, timeZone: body.timeZone ?? "UTC"))
        return .created(.init(body: .json(try await storeBody(store, req))))
    }

    func updateStore(_ input: Operations.UpdateStore.Input) async throws -> Operations.UpdateStore.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: user)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        var errors = FieldErrors()
        func uuid(_ raw: String?, _ field: String) -> UUID? {
            guard let raw else { return nil }
            guard let id = UUID(uuidString: raw) else { errors.add(field, "is not an id"); return nil }
            return id
        }
        let update = StoreService.ProfileUpdate(
            name: body.name, about: body.about, phone: body.phone, email: body.email, website: body.website, street: body.street,
            postalCode: body.postalCode, city: body.city, location: body.location.map { ($0.lat, $0.lng) }, timeZone: body.timeZone,
            openingHours: body.openingHours?.map { OpeningHours(weekday: $0.weekday, opens: $0.opens, closes: $0.closes) },
            logoID: uuid(body.logoId, "logoId"), coverID: uuid(body.coverId, "coverId"))
        try errors.throwIfAny()
        let updated = try await StoreService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mailOutbox: services.mailOutbox, mediaLibrary: services.media).update(store, with: update, by: user)
        return .ok(.init(body: .json(try await storeBody(updated, req))))
    }

    func assignStoreOwner(_ input: Operations.AssignStoreOwner.Input) async throws -> Operations.AssignStoreOwner.Output {
        let req = try request()
        let admin = try await req.requireCaller().user
        try admin.requireAdmin()
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: admin)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        guard let user = try await User.query(on: req.db).filter(\.$email == body.email.trimmingCharacters(in: .whitespaces).lowercased()).first()
        else { throw Problem.invalid("email", "belongs to no account") }
        try await StaffService(db: req.db, core: services.core, mailOutbox: services.mailOutbox).addMember(user, to: store, role: .owner)
        return .ok(.init(body: .json(try await storeBody(store, req))))
    }

    func suspendStore(_ input: Operations.SuspendStore.Input) async throws -> Operations.SuspendStore.Output {
        let store = try await setStoreStatus(input.path.storeId, .suspended)
        return .ok(.init(body: .json(store)))
    }

    func reinstateStore(_ input: Operations.ReinstateStore.Input) async throws -> Operations.ReinstateStore.Output {
        let store = try await setStoreStatus(input.path.storeId, .active)
        return .ok(.init(body: .json(store)))
    }

    func listMyStores(_ input: Operations.ListMyStores.Input) async throws -> Operations.ListMyStores.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let memberships = try await StoreAccess(db: req.db).memberships(of: user)
        let images = try await CatalogImages.load(stores: memberships.map(\.0), media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media))
        return .ok(.init(body: .json(.init(items: memberships.map { store, role in
            .init(store: storeBody(store, images), role: role == .owner ? .owner : .staff)
        }))))
    }

    func getStoreStats(_ input: Operations.GetStoreStats.Input) async throws -> Operations.GetStoreStats.Output {
        let req = try request()
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: try await req.requireCaller().user)
        let days = input.query.days ?? 90
        guard (1...365).contains(days) else { throw Problem.invalid("days", "must be between 1 and 365") }
        try await services.catalogCounters.flush(on: req.db)
        let series = try await StoreStatsService(db: req.db, core: services.core).series(storeID: store.requireID(), days: days)
        let open = try await UnavailableReportService(db: req.db, core: services.core).openCount(for: store.requireID())
        return .ok(.init(body: .json(.init(
            days: series.map {
                .init(
                    day: $0.day, follows: $0.follows, likes: $0.likes, views: $0.views, shareVisits: $0.shareVisits, orders: $0.orders,
                    salesMinor: $0.salesMinor, shopClicks: $0.shopClicks)
            },
            openUnavailableReports: open))))
    }

    // MARK: Helpers

    func storeBody(_ store: Store, _ images: CatalogImages) -> Components.Schemas.Store {
        .init(store, images: images, baseURL: services.config.publicBaseURL)
    }

    func storeBody(_ store: Store, _ req: Request) async throws -> Components.Schemas.Store {
        let images = try await CatalogImages.load(stores: [store], media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media))
        return try await storeBodies([store], images, req)[0]
    }

    /// Stores with whether a signed-in caller follows each.
    func storeBodies(_ stores: [Store], _ images: CatalogImages, _ req: Request) async throws -> [Components.Schemas.Store] {
        var bodies = stores.map { storeBody($0, images) }
        try await addViewerState(to: &bodies, req)
        return bodies
    }

    private func setStoreStatus(_ rawID: String, _ status: Store.Status) async throws -> Components.Schemas.Store {
        let req = try request()
        let admin = try await req.requireCaller().user
        try admin.requireAdmin()
        guard let id = UUID(uuidString: rawID), let store = try await Store.find(id, on: req.db) else { throw Problem.notFound("store") }
        let updated = try await StoreService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mailOutbox: services.mailOutbox, mediaLibrary: services.media).setStatus(store, status)
        return try await storeBody(updated, req)
    }
}
