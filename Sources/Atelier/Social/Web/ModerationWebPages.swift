import Fluent
import Vapor

/// `/admin/reports`: the moderation queue (admins).
enum ModerationWebPages {
    struct Row: Encodable {
        var id: String
        var subjectType: String
        var subjectURL: String?
        /// The reported photo, for posts and photos (admins cannot open friends-only posts).
        var image: WebImage?
        var reason: String
        var excerpt: String?
        var reporter: String
        var subjectAuthor: String?
        var action: String?
    }

    struct Page: WebPageContext {
        var page: PageContext
        var open: Bool
        var reports: [Row]
        var moreURL: String?
    }

    static func register(_ admin: any RoutesBuilder) {
        admin.get("reports", use: queue)
        admin.post("reports", ":id", "resolve", use: resolve)
    }

    static func queue(_ req: Request) async throws -> View {
        let admin = try req.requireWebUser()
        let open = req.query[String.self, at: "status"] != "resolved"
        let page = try await ModerationService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media, moderationTargets: req.atelier.moderationTargets)
            .queue(open: open, page: PageRequest(limit: 50, cursor: req.query[String.self, at: "cursor"]))
        let ids = page.items.flatMap { [$0.reporterID] + ($0.subjectAuthorID.map { [$0] } ?? []) }
        let names = try await PeopleDirectory(db: req.db, core: req.core, mediaLibrary: req.atelier.media).peopleByID(ids, viewer: admin.requireID())
            .mapValues { "\($0.user.displayName) (@\($0.user.username))" }
        let postIDs = page.items.filter { $0.subjectType == "post" || $0.subjectType == "photo" }.map(\.subjectID)
        let posts = postIDs.isEmpty ? [] : try await Post.query(on: req.db).filter(\.$id ~~ postIDs).all()
        let photos = posts.isEmpty ? [] : try await Media.query(on: req.db).filter(\.$id ~~ posts.map(\.mediaID)).all()
        let mediaService = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        var images: [UUID: WebImage] = [:]
        for post in posts {
            images[post.id!] = WebImage(photos.first { $0.id == post.mediaID }, alt: "Reported photo", service: mediaService, preferredWidth: 270)
        }
        return try await req.renderPage("admin/reports", Page(
            page: PageContext(req, title: "Reports"), open: open,
            reports: page.items.map { report in
                let subject = report.subjectID.idString
                return Row(
                    id: report.id!.idString, subjectType: report.subjectType,
                    subjectURL: report.subjectType == "profile" ? "/people/\(subject)" : nil, image: images[report.subjectID],
                    reason: report.reason, excerpt: report.excerpt, reporter: names[report.reporterID] ?? "Someone",
                    subjectAuthor: report.subjectAuthorID.flatMap { names[$0] }, action: report.action)
            },
            moreURL: page.nextCursor.map { "/admin/reports?\(open ? "" : "status=resolved&")cursor=\($0)" }))
    }

    static func resolve(_ req: Request) async throws -> Response {
        try await AdminActions.act(req, back: "/admin/reports") { admin in
            let action = try req.content.get(String.self, at: "action")
            _ = try await ModerationService(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media, moderationTargets: req.atelier.moderationTargets).resolve(try AdminActions.id(req), action: action, by: admin)
            return action == "dismiss" ? "Report dismissed." : action == "hide" ? "Hidden from everyone but its author." : "Account suspended."
        }
    }
}
