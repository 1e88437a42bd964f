import AtelierServerAPI
import Foundation
import Vapor

/// `/moments…` and `/places…`: creating, reading, changing and deleting moments; saved places.
extension APIHandler {
    func createMoment(_ input: Operations.CreateMoment.Input) async throws -> Operations.CreateMoment.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let draft = try MomentService.Draft(
            name: body.name, description: body.description, startsAt: body.startsAt, endsAt: body.endsAt, placeId: body.placeId,
            place: body.place, visibility: body.visibility, category: body.category)
        let moment = try await MomentService(db: req.db, core: services.core, mediaLibrary: services.media).create(by: user, draft)
        return .created(.init(body: .json(try await momentBody(moment, viewer: user, req))))
    }

    func createQuickMoment(_ input: Operations.CreateQuickMoment.Input) async throws -> Operations.CreateQuickMoment.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        if body.radiusMeters != nil, body.placeName == nil { throw Problem.invalid("radiusMeters", "goes with placeName") }
        let place: MomentService.QuickPlace
        switch (body.placeId, body.placeName) {
        case (nil, nil): place = .here
        case (let raw?, nil):
            guard let id = UUID(text: raw) else { throw Problem.invalid("placeId", "is not a saved place") }
            place = .saved(id)
        case (nil, let name?): place = .named(name, radiusMeters: body.radiusMeters ?? MomentService.quickRadius)
        case (_?, _?): throw Problem.invalid("placeName", "goes without placeId: pick a place or name one")
        }
        let moment = try await MomentService(db: req.db, core: services.core, mediaLibrary: services.media).createQuick(by: user, lat: body.lat, lng: body.lng, at: place)
        return .created(.init(body: .json(try await momentBody(moment, viewer: user, req))))
    }

    func getMoment(_ input: Operations.GetMoment.Input) async throws -> Operations.GetMoment.Output {
        let (req, user) = try await socialCaller()
        let (moment, _) = try await visibleMoment(input.path.momentId, to: user, req)
        return .ok(.init(body: .json(try await momentBody(moment, viewer: user, req))))
    }

    func updateMoment(_ input: Operations.UpdateMoment.Input) async throws -> Operations.UpdateMoment.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let service = MomentService(db: req.db, core: services.core, mediaLibrary: services.media)
        let moment = try await service.own(try momentID(input.path.momentId), by: user.requireID())
        let draft = try MomentService.Draft(
            name: body.name, description: body.description, startsAt: body.startsAt, endsAt: body.endsAt, placeId: body.placeId,
            place: body.place, visibility: body.visibility, category: body.category)
        let updated = try await service.update(moment, with: draft)
        return .ok(.init(body: .json(try await momentBody(updated, viewer: user, req))))
    }

    func deleteMoment(_ input: Operations.DeleteMoment.Input) async throws -> Operations.DeleteMoment.Output {
        let (req, user) = try await socialCaller()
        let service = MomentService(db: req.db, core: services.core, mediaLibrary: services.media)
        try await service.delete(try await service.own(try momentID(input.path.momentId), by: user.requireID()))
        return .noContent(.init())
    }

    func listNearbyPlaces(_ input: Operations.ListNearbyPlaces.Input) async throws -> Operations.ListNearbyPlaces.Output {
        let (req, user) = try await socialCaller()
        let places = try await PlaceService(db: req.db, core: services.core)
            .nearby(lat: input.query.lat, lng: input.query.lng, radius: input.query.radius ?? 1000, viewer: user.requireID())
        return .ok(.init(body: .json(.init(items: places.map { .init(place: .init($0.place), distanceMeters: $0.distanceMeters.rounded()) }))))
    }

    func createPlace(_ input: Operations.CreatePlace.Input) async throws -> Operations.CreatePlace.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let place = try await PlaceService(db: req.db, core: services.core).create(.init(body), by: user.requireID())
        return .created(.init(body: .json(.init(place))))
    }

    func listMyMoments(_ input: Operations.ListMyMoments.Input) async throws -> Operations.ListMyMoments.Output {
        let (req, user) = try await socialCaller()
        let page = try await MomentLists(db: req.db, core: services.core, mediaLibrary: services.media)
            .mine(user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(try await momentPage(page, viewer: user, req))))
    }

    func searchMoments(_ input: Operations.SearchMoments.Input) async throws -> Operations.SearchMoments.Output {
        let (req, user) = try await socialCaller()
        let page = try await MomentLists(db: req.db, core: services.core, mediaLibrary: services.media)
            .search(input.query.q, viewer: user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(try await momentPage(page, viewer: user, req))))
    }

    func getMomentNews(_ input: Operations.GetMomentNews.Input) async throws -> Operations.GetMomentNews.Output {
        let (req, user) = try await socialCaller()
        let limit = try PageRequest(limit: input.query.limit, cursor: nil).limit
        let moments = try await MomentLists(db: req.db, core: services.core, mediaLibrary: services.media)
            .news(user.requireID(), lat: input.query.lat, lng: input.query.lng, limit: limit)
        return .ok(.init(body: .json(.init(items: try await momentBodies(moments, viewer: user, req), nextCursor: nil))))
    }

    func listMomentsInCommon(_ input: Operations.ListMomentsInCommon.Input) async throws -> Operations.ListMomentsInCommon.Output {
        let (req, user) = try await socialCaller()
        let other = try PathID.parse(input.path.userId, "user")
        let page = try await MomentLists(db: req.db, core: services.core, mediaLibrary: services.media)
            .inCommon(user.requireID(), with: other, page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(try await momentPage(page, viewer: user, req))))
    }

    func getLastSeen(_ input: Operations.GetLastSeen.Input) async throws -> Operations.GetLastSeen.Output {
        let (req, user) = try await socialCaller()
        let other = try PathID.parse(input.path.userId, "user")
        guard let seen = try await MomentLists(db: req.db, core: services.core, mediaLibrary: services.media).lastSeen(user.requireID(), of: other) else {
            return .ok(.init(body: .json(.init())))
        }
        return .ok(.init(body: .json(.init(moment: try await momentBody(seen.moment, viewer: user, req), checkedInAt: seen.checkedInAt))))
    }

    // MARK: Shared by the moments handlers

    func momentID(_ raw: String) throws -> UUID { try PathID.parse(raw, "moment") }

    func visibleMoment(_ raw: String, to user: User, _ req: Request) async throws -> (Moment, MomentMember?) {
        try await MomentService(db: req.db, core: services.core, mediaLibrary: services.media).visible(try momentID(raw), to: user.requireID())
    }

    func momentBodies(_ moments: [Moment], viewer: User, _ req: Request) async throws -> [Components.Schemas.Moment] {
        let views = try await MomentViews(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).views(moments, viewer: viewer.requireID())
        let media = MediaService(db: req.db, core: services.core, mediaLibrary: services.media)
        return views.map { Components.Schemas.Moment($0, media: media) }
    }

    func momentBody(_ moment: Moment, viewer: User, _ req: Request) async throws -> Components.Schemas.Moment {
        guard let body = try await momentBodies([moment], viewer: viewer, req).first else { throw Problem.notFound("moment") }
        return body
    }

    private func momentPage(_ page: Page<Moment>, viewer: User, _ req: Request) async throws -> Components.Schemas.MomentPage {
        .init(items: try await momentBodies(page.items, viewer: viewer, req), nextCursor: page.nextCursor)
    }
}
