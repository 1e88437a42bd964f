import Fluent
import Foundation
import SQLKit

/// Everything a moment card or album tile shows, loaded for many at once.
struct MomentViews {
    struct View: Sendable {
        var moment: Moment
        var place: Place
        var status: Moment.Status
        var creator: PeopleDirectory.Person
        var cover: Media?
        var myState: MomentMember.State?
        var photoCount: Int
        var memberCount: Int
        var faves: MomentFaves.Summary
        var commentCount: Int
        var canPost: Bool
        var canEdit: Bool
    }

    struct PhotoView: Sendable {
        var photo: MomentPhoto
        var author: PeopleDirectory.Person
        var media: Media
        var faves: MomentFaves.Summary
        var commentCount: Int
        var isCover: Bool
        var canDelete: Bool
    }

    let db: any Database
    let core: CoreServices
    let live: LiveUpdates
    let mediaLibrary: MediaLibrary

    func views(_ moments: [Moment], viewer: UUID) async throws -> [View] {
        guard !moments.isEmpty else { return [] }
        let ids = moments.map { $0.id! }
        let now = core.clock.now()
        let places = Dictionary(try await Place.query(on: db).filter(\.$id ~~ Set(moments.map(\.placeID))).all().map { ($0.id!, $0) },
                                uniquingKeysWith: { a, _ in a })
        let people = try await PeopleDirectory(db: db, core: core, mediaLibrary: mediaLibrary).peopleByID(Array(Set(moments.map(\.creatorID))), viewer: viewer)
        let covers = try await MomentPhotoService(db: db, core: core, live: live, mediaLibrary: mediaLibrary).covers(of: moments)
        let coverMedia = Dictionary(try await Media.query(on: db).filter(\.$id ~~ covers.values.map(\.mediaID)).all().map { ($0.id!, $0) },
                                    uniquingKeysWith: { a, _ in a })
        let mine = Dictionary(try await MomentMember.query(on: db).filter(\.$momentID ~~ ids).filter(\.$userID == viewer).all()
            .map { ($0.momentID, $0.memberState) }, uniquingKeysWith: { a, _ in a })
        let photoCounts = try await counts(MomentPhoto.schema, ids)
        let memberCounts = try await counts(MomentMember.schema, ids, states: [.joined, .checkedIn])
        let faves = try await MomentFaves(db: db, core: core).summaries(of: ids, viewer: viewer)
        let comments = try await MomentComments(db: db, core: core).counts(in: ids, photoIDs: [])
        return moments.compactMap { moment in
            let id = moment.id!
            guard let place = places[moment.placeID], let creator = people[moment.creatorID] else { return nil }
            let status = moment.status(at: now)
            let isCreator = moment.creatorID == viewer
            return View(
                moment: moment, place: place, status: status, creator: creator,
                cover: covers[id].flatMap { coverMedia[$0.mediaID] }, myState: mine[id],
                photoCount: photoCounts[id] ?? 0, memberCount: memberCounts[id] ?? 0,
                faves: faves[id] ?? .init(count: 0, mine: false), commentCount: comments[id] ?? 0,
                canPost: PhotoPostingRule.refusal(isCreator: isCreator, state: mine[id], status: status) == nil,
                canEdit: isCreator)
        }
    }

    func view(_ moment: Moment, viewer: UUID) async throws -> View {
        guard let view = try await views([moment], viewer: viewer).first else { throw Problem.notFound("moment") }
        return view
    }

    func photoViews(_ photos: [MomentPhoto], in moment: Moment, viewer: UUID) async throws -> [PhotoView] {
        guard !photos.isEmpty else { return [] }
        let ids = photos.map { $0.id! }
        let people = try await PeopleDirectory(db: db, core: core, mediaLibrary: mediaLibrary).peopleByID(Array(Set(photos.map(\.authorID))), viewer: viewer)
        let media = Dictionary(try await Media.query(on: db).filter(\.$id ~~ photos.map(\.mediaID)).all().map { ($0.id!, $0) },
                               uniquingKeysWith: { a, _ in a })
        let faves = try await MomentFaves(db: db, core: core).summaries(of: ids, viewer: viewer)
        let comments = try await MomentComments(db: db, core: core).counts(in: [], photoIDs: ids)
        let cover = try await MomentPhotoService(db: db, core: core, live: live, mediaLibrary: mediaLibrary).covers(of: [moment])[moment.id!]?.id
        return photos.compactMap { photo in
            guard let author = people[photo.authorID], let image = media[photo.mediaID] else { return nil }
            return PhotoView(
                photo: photo, author: author, media: image, faves: faves[photo.id!] ?? .init(count: 0, mine: false),
                commentCount: comments[photo.id!] ?? 0, isCover: cover == photo.id,
                canDelete: MomentPhotoService.canDelete(photo, in: moment, by: viewer))
        }
    }

    private func counts(_ table: String, _ momentIDs: [UUID], states: [MomentMember.State] = []) async throws -> [UUID: Int] {
        let query = db.sql.select().column("moment_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from(table).where("moment_id", .in, momentIDs)
        if !states.isEmpty { query.where("state", .in, states.map(\.rawValue)) }
        let rows = try await query.groupBy("moment_id").all()
        return try Dictionary(uniqueKeysWithValues: rows.map {
            (try $0.decode(column: "moment_id", as: UUID.self), try $0.decode(column: "n", as: Int.self))
        })
    }
}
