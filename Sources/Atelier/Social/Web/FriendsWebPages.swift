import Fluent
import Vapor

/// Friends on the web: finding people, requests, the friends list, blocking and reports (a profile,
/// which shows pinned outfits, is `PersonProfilePage`).
enum FriendsWebPages {
    struct FriendsPage: WebPageContext {
        var page: PageContext
        /// Where the person buttons return to.
        var back: String
        var query: String
        var results: [PersonCard]?
        var incoming: [PersonCard]
        var outgoing: [PersonCard]
        var friends: [PersonCard]
        var moreFriendsURL: String?
        /// Connected, not friends: met at a moment.
        var connections: [PersonCard]
    }

    struct BlockedPage: WebPageContext {
        var page: PageContext
        var back = "/friends/blocked"
        var people: [PersonCard]
    }

    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.get("friends", use: friendsPage)
        signedIn.get("friends", "blocked", use: blockedPage)
        signedIn.post("people", ":userID", "friend", use: requestFriend)
        signedIn.post("people", ":userID", "accept", use: accept)
        signedIn.post("people", ":userID", "decline", use: decline)
        signedIn.post("people", ":userID", "cancel", use: cancel)
        signedIn.post("people", ":userID", "unfriend", use: unfriend)
        signedIn.post("people", ":userID", "block", use: block)
        signedIn.post("people", ":userID", "unblock", use: unblock)
        signedIn.post("people", ":userID", "disconnect", use: disconnect)
        signedIn.post("reports", use: report)
    }

    static func friendsPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let userID = try user.requireID()
        let directory = PeopleDirectory(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let friends = FriendService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media)
        let query = (req.query[String.self, at: "q"] ?? "").trimmingCharacters(in: .whitespaces)
        var results: [PersonCard]?
        if !query.isEmpty {
            results = (try? await directory.search(String(query.prefix(100)), viewer: userID, limit: 20))?.map(PersonCard.init) ?? []
        }
        let incoming = try await friends.incoming(to: userID, page: PageRequest(limit: 50, cursor: nil))
        let outgoing = try await friends.outgoing(from: userID, page: PageRequest(limit: 50, cursor: nil))
        let list = try await friends.friends(of: userID, page: PageRequest(limit: 60, cursor: req.query[String.self, at: "cursor"]))
        let connected = try await ConnectionService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).connections(of: userID, page: PageRequest(limit: 100, cursor: nil))
        return try await req.renderPage("social/friends", FriendsPage(
            page: PageContext(req, title: "Friends"),
            back: query.isEmpty ? "/friends" : "/friends?q=\(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
            query: query, results: results,
            incoming: try await directory.people(incoming.items.map(\.fromID), viewer: userID).map(PersonCard.init),
            outgoing: try await directory.people(outgoing.items.map(\.toID), viewer: userID).map(PersonCard.init),
            friends: try await directory.people(list.items, viewer: userID).map(PersonCard.init),
            moreFriendsURL: list.nextCursor.map { "/friends?cursor=\($0)" },
            connections: try await directory.people(connected.items, viewer: userID).filter { $0.relationship == .connected }.map(PersonCard.init)))
    }

    static func blockedPage(_ req: Request) async throws -> View {
        let userID = try req.requireWebUser().requireID()
        let ids = try await BlockService(db: req.db, core: req.core).blocked(by: userID, page: PageRequest(limit: 100, cursor: nil))
        let people = try await PeopleDirectory(db: req.db, core: req.core, mediaLibrary: req.atelier.media).people(ids.items, viewer: userID)
        return try await req.renderPage("social/blocked", BlockedPage(page: PageContext(req, title: "Blocked people"), people: people.map(PersonCard.init)))
    }

    /// Runs an action on the person in the path and returns to the page the form came from.
    private static func act(
        _ req: Request, back: String? = nil, _ action: @escaping (User, UUID, Request) async throws -> String
    ) async throws -> Response {
        let user = try req.requireWebUser()
        let otherID = try personID(req)
        return try await req.formAction(redirectTo: back ?? returnPath(req, otherID)) { try await action(user, otherID, req) }
    }

    static func requestFriend(_ req: Request) async throws -> Response {
        try await act(req) { user, otherID, req in
            switch try await FriendService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).sendRequest(from: user, to: otherID) {
            case .friends: "You are friends now."
            case .requested: "Friend request sent."
            }
        }
    }

    static func disconnect(_ req: Request) async throws -> Response {
        try await act(req) { user, otherID, req in
            try await ConnectionService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).disconnect(otherID, from: user.requireID())
            return "No longer connected."
        }
    }

    static func accept(_ req: Request) async throws -> Response {
        try await act(req) { user, otherID, req in
            try await FriendService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).accept(from: otherID, by: user)
            return "You are friends now."
        }
    }

    static func decline(_ req: Request) async throws -> Response {
        try await act(req) { user, otherID, req in
            try await FriendService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).decline(from: otherID, by: user.requireID())
            return "Request declined."
        }
    }

    static func cancel(_ req: Request) async throws -> Response {
        try await act(req) { user, otherID, req in
            try await FriendService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).cancelRequest(from: user.requireID(), to: otherID)
            return "Request withdrawn."
        }
    }

    static func unfriend(_ req: Request) async throws -> Response {
        try await act(req) { user, otherID, req in
            try await FriendService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).remove(otherID, of: user.requireID())
            return "Removed from your friends."
        }
    }

    static func block(_ req: Request) async throws -> Response {
        try await act(req, back: "/friends/blocked") { user, otherID, req in
            try await BlockService(db: req.db, core: req.core).block(otherID, by: user)
            return "Blocked. You will not see each other any more."
        }
    }

    static func unblock(_ req: Request) async throws -> Response {
        try await act(req) { user, otherID, req in
            try await BlockService(db: req.db, core: req.core).unblock(otherID, by: user.requireID())
            return "Unblocked."
        }
    }

    static func report(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        struct Form: Content { var subjectType: String; var subjectID: String; var reason: String; var back: String? }
        let form = try req.content.decode(Form.self)
        let back = AccountsWebRoutes.safeNext(form.back) ?? "/ootd"
        return try await req.formAction(redirectTo: back) {
            guard let id = UUID(uuidString: form.subjectID) else { throw Problem.notFound("subject") }
            _ = try await ModerationService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media, moderationTargets: req.atelier.moderationTargets)
                .report(by: user, subjectType: form.subjectType, subjectID: id, reason: form.reason)
            return "Thank you. An admin will look at it."
        }
    }

    static func personID(_ req: Request) throws -> UUID {
        guard let id = req.parameters.get("userID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("user") }
        return id
    }

    /// Where a person action returns: the page the form names (the friends list), else the profile.
    private static func returnPath(_ req: Request, _ id: UUID) -> String {
        AccountsWebRoutes.safeNext(try? req.content.get(String.self, at: "back")) ?? "/people/\(id.idString)"
    }
}
