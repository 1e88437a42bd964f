import Fluent
import OpenAPIRuntime
import Vapor

/// The forms of the moment pages: create, join, ignore, check in, invite, post photos, faves,
/// comments, cover, avatar and deletions. Each runs the same service as the API and redirects.
enum MomentWebActions {
    static func register(_ signedIn: any RoutesBuilder) {
        signedIn.post("moments", use: create)
        signedIn.post("moments", "quick", use: createQuick)
        QuickMomentPlacesPage.register(signedIn)
        signedIn.post("moments", ":momentID", "join", use: join)
        signedIn.post("moments", ":momentID", "ignore", use: ignore)
        signedIn.post("moments", ":momentID", "check-in", use: checkIn)
        signedIn.post("moments", ":momentID", "invite", use: invite)
        signedIn.on(.POST, "moments", ":momentID", "photos", body: .collect(maxSize: "40mb"), use: postPhoto)
        signedIn.post("moments", ":momentID", "fave", use: faveMoment)
        signedIn.post("moments", ":momentID", "comments", use: commentOnMoment)
        signedIn.post("moments", ":momentID", "comments", ":commentID", "delete", use: deleteComment)
        signedIn.post("moments", ":momentID", "delete", use: deleteMoment)
        signedIn.post("moments", ":momentID", "photos", ":photoID", "fave", use: favePhoto)
        signedIn.post("moments", ":momentID", "photos", ":photoID", "comments", use: commentOnPhoto)
        signedIn.post("moments", ":momentID", "photos", ":photoID", "delete", use: deletePhoto)
        signedIn.post("moments", ":momentID", "photos", ":photoID", "cover", use: setCover)
        signedIn.post("moments", ":momentID", "photos", ":photoID", "avatar", use: useAsAvatar)
        signedIn.post("moments", ":momentID", "members", ":userID", "connect", use: connect)
    }

    static func connect(_ req: Request) async throws -> Response {
        try await momentAction(req, anchor: "#members") { user, moment, _ in
            let otherID = try req.pathID("userID", "person")
            try await MembershipService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).connect(otherID, at: moment, by: user)
            return "Connected. You can invite each other to moments; outfit posts stay for friends."
        }
    }

    static func create(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        struct Form: Content {
            var name: String?; var description: String?; var startsAt: String?; var endsAt: String?
            var placeName: String?; var lat: Double?; var lng: Double?; var radius: Int?
            var visibility: String?; var category: String?
        }
        var created: Moment?
        let response = try await req.formAction(redirectTo: "/moments") {
            let form = try req.content.decode(Form.self)
            let zone = LocalDay.zone(user.timeZone)
            guard let lat = form.lat, let lng = form.lng else { throw Problem.invalid("place", "needs a position: use “My position” or type lat and lng") }
            created = try await MomentService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).create(by: user, .init(
                name: form.name, description: form.description,
                startsAt: try DateTimeLocalField.parse(form.startsAt, field: "startsAt", zone: zone),
                endsAt: try DateTimeLocalField.parse(form.endsAt, field: "endsAt", zone: zone),
                place: .init(name: form.placeName ?? "", lat: lat, lng: lng, radiusMeters: form.radius ?? 100),
                visibility: form.visibility.flatMap(Moment.Visibility.init(rawValue:)),
                category: form.category.flatMap(Moment.Category.init(rawValue:))))
            return "Moment created. Invite your friends."
        }
        return created.map { req.redirect(to: "/moments/\($0.id!.idString)") } ?? response
    }

    static func createQuick(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        struct Form: Content { var lat: Double?; var lng: Double?; var placeId: String?; var placeName: String?; var radius: Int? }
        var created: Moment?
        let response = try await req.formAction(redirectTo: "/moments") {
            let form = try req.content.decode(Form.self)
            guard let lat = form.lat, let lng = form.lng else {
                throw Problem.invalid("position", "is unknown: allow the browser to use your location")
            }
            let place: MomentService.QuickPlace
            if let raw = form.placeId, !raw.isEmpty {
                guard let id = UUID(text: raw) else { throw Problem.invalid("placeId", "is not a saved place") }
                place = .saved(id)
            } else if let name = form.placeName {
                place = .named(name, radiusMeters: form.radius ?? MomentService.quickRadius)
            } else {
                place = .here
            }
            created = try await MomentService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).createQuick(by: user, lat: lat, lng: lng, at: place)
            return "Your moment is on for the next two hours. Invite your friends."
        }
        return created.map { req.redirect(to: "/moments/\($0.id!.idString)") } ?? response
    }

    static func join(_ req: Request) async throws -> Response {
        try await momentAction(req) { user, moment, member in
            _ = try await MembershipService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).join(moment, member: member, userID: user.requireID())
            return "You joined."
        }
    }

    static func ignore(_ req: Request) async throws -> Response {
        try await momentAction(req) { _, moment, member in
            _ = try await MembershipService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).ignore(moment, member: member)
            return "Invitation ignored."
        }
    }

    static func checkIn(_ req: Request) async throws -> Response {
        struct Form: Content { var lat: Double?; var lng: Double?; var accuracy: Double? }
        return try await momentAction(req) { user, moment, member in
            let form = try req.content.decode(Form.self)
            guard let lat = form.lat, let lng = form.lng else {
                throw Problem.invalid("position", "is unknown: allow the browser to use your location")
            }
            _ = try await MembershipService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media)
                .checkIn(moment, member: member, userID: user.requireID(), lat: lat, lng: lng, accuracy: form.accuracy)
            return "Checked in. Add your photos!"
        }
    }

    static func invite(_ req: Request) async throws -> Response {
        struct Form: Content { var userIds: [String]? }
        return try await momentAction(req) { user, moment, _ in
            guard moment.creatorID == user.id else { throw Problem(.forbidden, detail: "Only the moment's creator may invite people.") }
            let ids = (try req.content.decode(Form.self).userIds ?? []).compactMap(UUID.init(uuidString:))
            guard !ids.isEmpty else { throw Problem.invalid("friends", "none chosen; tick the friends to invite") }
            let invited = try await MembershipService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).invite(ids, to: moment, by: user)
            return invited.count == 1 ? "Invited one friend." : "Invited \(invited.count) friends."
        }
    }

    static func postPhoto(_ req: Request) async throws -> Response {
        struct Form: Content { var photo: File?; var caption: String? }
        return try await momentAction(req) { user, moment, member in
            let form = try req.content.decode(Form.self)
            guard let file = form.photo, file.data.readableBytes > 0 else { throw Problem.invalid("photo", "is missing; choose a photo") }
            if let refusal = PhotoPostingRule.refusal(
                isCreator: moment.creatorID == user.id, state: member?.memberState, status: moment.status(at: req.atelier.clock.now())) {
                throw Problem(.forbidden, detail: refusal)
            }
            let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
            let stored = try await media.ingest(.init(
                uploaderID: try user.requireID(), claimed: ImageFormat.claimed(mediaType: file.contentType?.description, filename: file.filename),
                edits: ImageEdits(crop: nil, rotate: 0, whiteBackground: false), visibility: .private),
                body: HTTPBody(Array(file.data.readableBytesView)))
            let photo: MomentPhoto
            do {
                photo = try await MomentPhotoService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media)
                    .post(stored.requireID(), caption: form.caption, to: moment, member: member, by: user)
            } catch {
                try? await media.delete(stored)
                throw error
            }
            let views = try await MomentViews(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).photoViews([photo], in: moment, viewer: user.requireID())
            if let view = views.first {
                await MomentLive(core: req.core, live: req.atelier.live).photoAdded(.init(view, media: media), momentID: moment.id!)
            }
            return "Photo added to the album."
        }
    }

    static func faveMoment(_ req: Request) async throws -> Response {
        try await momentAction(req) { user, moment, _ in
            try await toggleFave(moment.id!, in: moment, user: user, req: req)
            return nil
        }
    }

    static func commentOnMoment(_ req: Request) async throws -> Response {
        struct Form: Content { var body: String? }
        return try await momentAction(req, anchor: "#comments") { user, moment, _ in
            let comment = try await MomentComments(db: req.db, core: req.core)
                .add(to: moment, photo: nil, by: user, body: try req.content.decode(Form.self).body ?? "")
            try await publish(comment, in: moment, user: user, req: req)
            return nil
        }
    }

    static func deleteComment(_ req: Request) async throws -> Response {
        try await momentAction(req, anchor: "#comments") { user, moment, _ in
            let comments = MomentComments(db: req.db, core: req.core)
            let comment = try await comments.comment(try req.pathID("commentID", "comment"), in: moment.id!, viewer: user.requireID())
            try await comments.delete(comment, in: moment, by: user.requireID())
            return "Comment deleted."
        }
    }

    static func deleteMoment(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        return try await req.formAction(redirectTo: "/moments") {
            let service = MomentService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
            try await service.delete(try await service.own(try req.pathID("momentID", "moment"), by: user.requireID()))
            return "Moment deleted with its album."
        }
    }

    static func favePhoto(_ req: Request) async throws -> Response {
        try await photoAction(req) { user, moment, photo in
            try await toggleFave(photo.id!, in: moment, user: user, req: req)
            return nil
        }
    }

    static func commentOnPhoto(_ req: Request) async throws -> Response {
        struct Form: Content { var body: String? }
        return try await photoAction(req, anchor: "#comments") { user, moment, photo in
            let comment = try await MomentComments(db: req.db, core: req.core)
                .add(to: moment, photo: photo, by: user, body: try req.content.decode(Form.self).body ?? "")
            try await publish(comment, in: moment, user: user, req: req)
            return nil
        }
    }

    static func deletePhoto(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let momentPath = req.pathSegment("momentID")
        return try await req.formAction(redirectTo: "/moments/\(momentPath)") {
            let (moment, _) = try await MomentWebPages.visible(req, user: user)
            let photo = try await MomentPhotoService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).photo(try req.pathID("photoID", "photo"), in: moment, viewer: user.requireID())
            try await MomentPhotoService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).delete(photo, in: moment, by: user.requireID())
            await MomentLive(core: req.core, live: req.atelier.live).photoDeleted(photo.id!, momentID: moment.id!)
            return "Photo deleted."
        }
    }

    static func setCover(_ req: Request) async throws -> Response {
        try await photoAction(req) { user, moment, photo in
            guard moment.creatorID == user.id else { throw Problem(.forbidden, detail: "Only the moment's creator may choose its cover.") }
            try await MomentPhotoService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).setCover(photo, of: moment)
            return "This photo is the cover now."
        }
    }

    static func useAsAvatar(_ req: Request) async throws -> Response {
        try await photoAction(req) { user, _, photo in
            _ = try await MomentPhotoService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).useAsAvatar(photo, for: user)
            return "This photo is your avatar now."
        }
    }

    // MARK: Shared

    private static func momentAction(
        _ req: Request, anchor: String = "", _ body: (User, Moment, MomentMember?) async throws -> String?
    ) async throws -> Response {
        let user = try req.requireWebUser()
        let momentPath = req.pathSegment("momentID")
        return try await req.formAction(redirectTo: "/moments/\(momentPath)\(anchor)") {
            let (moment, member) = try await MomentWebPages.visible(req, user: user)
            return try await body(user, moment, member)
        }
    }

    private static func photoAction(
        _ req: Request, anchor: String = "", _ body: (User, Moment, MomentPhoto) async throws -> String?
    ) async throws -> Response {
        let user = try req.requireWebUser()
        let path = "/moments/\(req.pathSegment("momentID"))/photos/\(req.pathSegment("photoID"))"
        return try await req.formAction(redirectTo: path + anchor) {
            let (moment, _) = try await MomentWebPages.visible(req, user: user)
            let photo = try await MomentPhotoService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).photo(try req.pathID("photoID", "photo"), in: moment, viewer: user.requireID())
            return try await body(user, moment, photo)
        }
    }

    private static func toggleFave(_ target: UUID, in moment: Moment, user: User, req: Request) async throws {
        let faves = MomentFaves(db: req.db, core: req.core)
        let userID = try user.requireID()
        let current = try await faves.summaries(of: [target], viewer: userID)[target]!
        let summary = current.mine ? try await faves.unfave(target, by: userID) : try await faves.fave(target, in: moment.id!, by: userID)
        await MomentLive(core: req.core, live: req.atelier.live).favesChanged(target: target, momentID: moment.id!, count: summary.count)
    }

    private static func publish(_ comment: MomentComment, in moment: Moment, user: User, req: Request) async throws {
        guard let author = try await PeopleDirectory(db: req.db, core: req.core, mediaLibrary: req.atelier.media).person(user.requireID(), viewer: user.requireID()) else { return }
        await MomentLive(core: req.core, live: req.atelier.live).commentAdded(.init(comment, author: author, canDelete: false), momentID: moment.id!)
    }
}
