import Fluent
import OpenAPIRuntime
import Vapor

/// Moments on the web: my moments with the create forms, the moment page with its live album,
/// the photo page, and the album download.
enum MomentWebPages {
    struct ListPage: WebPageContext {
        var page: PageContext
        var invitations: [InvitationRow]
        var news: [MomentCard]
        var mine: [MomentCard]
        var moreMineURL: String?
        var categories: [String]
        var defaultStart: String
        var defaultEnd: String
    }

    struct InvitationRow: Encodable {
        var moment: MomentCard
        var invitedBy: String
        var state: String
    }

    struct FriendOption: Encodable {
        var id: String
        var displayName: String
        var state: String?
    }

    struct MemberRow: Encodable {
        var person: PersonCard
        var state: String
        var isCreator: Bool
        /// Both are in the moment and not yet connected: the viewer may connect with this person.
        var canConnect: Bool
    }

    struct CommentRow: Encodable {
        var id: String
        var author: PersonCard
        var body: String
        var canDelete: Bool
    }

    struct MomentPage: WebPageContext {
        var page: PageContext
        var moment: MomentCard
        var photos: [AlbumPhotoCard]
        var morePhotosURL: String?
        var members: [MemberRow]
        var friends: [FriendOption]
        var comments: [CommentRow]
        var postingHint: String?
        var canCheckIn: Bool
        var canJoin: Bool
        var canIgnore: Bool
    }

    struct PhotoPage: WebPageContext {
        var page: PageContext
        var moment: MomentCard
        var photo: AlbumPhotoCard
        var comments: [CommentRow]
        var originalURL: String
    }

    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.get("moments", use: listPage)
        signedIn.get("moments", ":momentID", use: momentPage)
        signedIn.get("moments", ":momentID", "photos", ":photoID", use: photoPage)
        signedIn.get("moments", ":momentID", "album.zip", use: album)
        MomentWebActions.register(signedIn)
    }

    static func listPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let userID = try user.requireID()
        let lists = MomentLists(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let invitations = try await lists.invitations(userID, page: PageRequest(limit: 20, cursor: nil))
        let news = try await lists.news(userID, lat: user.homeLat, lng: user.homeLng, limit: 10)
        let mine = try await lists.mine(userID, page: PageRequest(limit: 24, cursor: req.query[String.self, at: "cursor"]))
        let cards = try await Self.cards(invitations.items.map(\.moment) + news + mine.items, viewer: user, req: req)
        let inviters = try await PeopleDirectory(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
            .peopleByID(invitations.items.compactMap(\.member.invitedBy), viewer: userID)
        let zone = LocalDay.zone(user.timeZone)
        let now = req.atelier.clock.now()
        return try await req.renderPage("moments/list", ListPage(
            page: PageContext(req, title: "Moments"),
            invitations: invitations.items.filter { $0.member.memberState == .invited }.compactMap { invitation in
                cards[invitation.moment.id!].map {
                    InvitationRow(moment: $0, invitedBy: invitation.member.invitedBy.flatMap { inviters[$0]?.user.displayName } ?? "Someone",
                                  state: invitation.member.state)
                }
            },
            news: news.compactMap { cards[$0.id!] }, mine: mine.items.compactMap { cards[$0.id!] },
            moreMineURL: mine.nextCursor.map { "/moments?cursor=\($0)" },
            categories: Moment.Category.allCases.map(\.rawValue),
            defaultStart: DateTimeLocalField.localInput(now.addingTimeInterval(3600), zone: zone),
            defaultEnd: DateTimeLocalField.localInput(now.addingTimeInterval(4 * 3600), zone: zone)))
    }

    static func momentPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let userID = try user.requireID()
        let (moment, member) = try await visible(req, user: user)
        guard let card = try await cards([moment], viewer: user, req: req)[moment.id!] else { throw Problem.notFound("moment") }
        let photos = try await MomentPhotoService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media)
            .list(in: moment, viewer: userID, page: PageRequest(limit: 60, cursor: req.query[String.self, at: "cursor"]))
        let photoCards = try await photoCards(photos.items, in: moment, viewer: user, req: req)
        let members = try await MomentMember.query(on: req.db).filter(\.$momentID == moment.requireID()).sort(\.$id).limit(200).all()
        let directory = PeopleDirectory(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let hidden = try await SocialGraph(db: req.db).blockedPeople(of: userID)
        let people = try await directory.peopleByID(members.map(\.userID).filter { !hidden.contains($0) }, viewer: userID)
        var friends: [FriendOption] = []
        if moment.creatorID == userID {
            let states = Dictionary(members.map { ($0.userID, $0.state) }, uniquingKeysWith: { a, _ in a })
            let connectionIDs = try await SocialGraph(db: req.db).connectionIDs(of: userID)
            friends = try await directory.people(connectionIDs, viewer: userID)
                .map { FriendOption(id: $0.user.id!.idString, displayName: $0.user.displayName, state: states[$0.user.id!]) }
                .sorted { $0.displayName.localizedCaseInsensitiveCompare($1.displayName) == .orderedAscending }
        }
        let comments = try await commentRows(moment, photoID: nil, viewer: user, req: req)
        let status = moment.status(at: req.atelier.clock.now())
        let state = member?.memberState
        let isCreator = moment.creatorID == userID
        let viewerIsIn = isCreator || state == .joined || state == .checkedIn
        func isIn(_ row: MomentMember) -> Bool { row.userID == moment.creatorID || MomentLists.activeStates.contains(row.state) }
        return try await req.renderPage("moments/moment", MomentPage(
            page: PageContext(req, title: moment.name), moment: card, photos: photoCards,
            morePhotosURL: photos.nextCursor.map { "/moments/\(card.id)?cursor=\($0)" },
            members: members.compactMap { row in
                people[row.userID].map {
                    MemberRow(
                        person: PersonCard($0), state: row.state, isCreator: row.userID == moment.creatorID,
                        canConnect: viewerIsIn && isIn(row) && $0.relationship == .none)
                }
            },
            friends: friends, comments: comments,
            postingHint: PhotoPostingRule.refusal(isCreator: isCreator, state: state, status: status),
            canCheckIn: status == .ongoing && state != .checkedIn && (member != nil || moment.isPublic),
            canJoin: !isCreator && (state == nil || state == .invited || state == .ignored) && status != .ended,
            canIgnore: !isCreator && state == .invited))
    }

    static func photoPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let (moment, _) = try await visible(req, user: user)
        let photo = try await MomentPhotoService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).photo(try req.pathID("photoID", "photo"), in: moment, viewer: user.requireID())
        guard let card = try await cards([moment], viewer: user, req: req)[moment.id!],
            let photoCard = try await photoCards([photo], in: moment, viewer: user, req: req).first
        else { throw Problem.notFound("photo") }
        let original = try await MomentPhotoService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).originalURL(photo)
        return try await req.renderPage("moments/photo", PhotoPage(
            page: PageContext(req, title: "Photo · \(moment.name)"), moment: card, photo: photoCard,
            comments: try await commentRows(moment, photoID: photo.id, viewer: user, req: req), originalURL: original.url))
    }

    static func album(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let (moment, _) = try await visible(req, user: user)
        let bytes = try await AlbumArchive(db: req.db, core: req.core, mediaLibrary: req.atelier.media).stream(moment, viewer: user.requireID())
        let response = Response(status: .ok, body: .init(asyncStream: { writer in
            do {
                for try await chunk in bytes { try await writer.write(.buffer(ByteBuffer(bytes: chunk))) }
                try await writer.write(.end)
            } catch {
                try? await writer.write(.error(error))
            }
        }))
        response.headers.contentType = HTTPMediaType(type: "application", subType: "zip")
        response.headers.replaceOrAdd(name: .contentDisposition, value: ContentDisposition.attachment(fileName: AlbumArchive.fileName(for: moment)))
        return response
    }

    // MARK: Shared

    static func visible(_ req: Request, user: User) async throws -> (Moment, MomentMember?) {
        try await MomentService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).visible(try req.pathID("momentID", "moment"), to: user.requireID())
    }

    static func cards(_ moments: [Moment], viewer: User, req: Request) async throws -> [UUID: MomentCard] {
        var seen = Set<UUID>()
        let unique = moments.filter { seen.insert($0.id!).inserted }
        let views = try await MomentViews(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).views(unique, viewer: viewer.requireID())
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let zone = LocalDay.zone(viewer.timeZone)
        return Dictionary(views.map { ($0.moment.id!, MomentCard($0, zone: zone, media: media)) }, uniquingKeysWith: { a, _ in a })
    }

    static func photoCards(_ photos: [MomentPhoto], in moment: Moment, viewer: User, req: Request) async throws -> [AlbumPhotoCard] {
        let views = try await MomentViews(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).photoViews(photos, in: moment, viewer: viewer.requireID())
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let zone = LocalDay.zone(viewer.timeZone)
        return views.map { AlbumPhotoCard($0, zone: zone, media: media) }
    }

    static func commentRows(_ moment: Moment, photoID: UUID?, viewer: User, req: Request) async throws -> [CommentRow] {
        let viewerID = try viewer.requireID()
        let page = try await MomentComments(db: req.db, core: req.core)
            .list(on: moment.requireID(), photoID: photoID, viewer: viewerID, page: PageRequest(limit: 100, cursor: nil))
        let people = try await PeopleDirectory(db: req.db, core: req.core, mediaLibrary: req.atelier.media).peopleByID(page.items.map(\.authorID), viewer: viewerID)
        return page.items.compactMap { comment in
            people[comment.authorID].map {
                CommentRow(id: comment.id!.idString, author: PersonCard($0), body: comment.body,
                           canDelete: MomentComments.canDelete(comment, in: moment, by: viewerID))
            }
        }
    }
}
