import Fluent
import Vapor

/// `/notifications`: the inbox on the web. The entries a page shows count as read once shown.
enum NotificationsWebPage {
    struct Row: Encodable {
        var text: String
        var url: String
        var isoTime: String
        var when: String
        var unread: Bool
    }

    struct Page: WebPageContext {
        var page: PageContext
        var entries: [Row]
        var nextCursor: String?
    }

    static func register(_ web: any RoutesBuilder) {
        web.grouped(RequireWebUser()).get("notifications", use: inbox)
    }

    static func inbox(_ req: Request) async throws -> View {
        let userID = try req.requireWebUser().requireID()
        let inbox = InboxService(db: req.db, clock: req.atelier.clock)
        let hidden = try await req.atelier.inboxPeople.hidden(from: userID, on: req.db)
        let page = try await inbox.list(for: userID, hiding: hidden, page: PageRequest(limit: 30, cursor: req.query[String.self, at: "cursor"]))
        let view = try await req.renderPage("notifications/inbox", Page(
            page: PageContext(req, title: "Notifications"),
            entries: page.items.map {
                Row(text: $0.text, url: $0.webPath, isoTime: ISO8601DateFormatter().string(from: $0.createdAt),
                    when: $0.createdAt.formatted(date: .abbreviated, time: .shortened), unread: $0.readAt == nil)
            },
            nextCursor: page.nextCursor))
        try await inbox.markRead(page.items.compactMap(\.id), for: userID)
        return view
    }
}
