import AtelierServerAPI
import Foundation
import Vapor

/// `/me/notifications…`: the in-app inbox.
extension APIHandler {
    func listNotifications(_ input: Operations.ListNotifications.Input) async throws -> Operations.ListNotifications.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let userID = try user.requireID()
        let inbox = InboxService(db: req.db, clock: services.clock)
        let hidden = try await services.inboxPeople.hidden(from: userID, on: req.db)
        let page = try await inbox.list(for: userID, hiding: hidden, page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        let byID = try await services.inboxPeople.cards(page.items.compactMap(\.actorID), for: userID, on: req.db)
        let base = services.config.publicBaseURL
        return .ok(.init(body: .json(.init(
            items: page.items.compactMap { entry in
                guard let kind = Components.Schemas.NotificationKind(rawValue: entry.kind) else { return nil }
                return .init(
                    id: entry.id!.idString, kind: kind, text: entry.text,
                    actor: entry.actorID.flatMap { byID[$0] }, link: entry.link, webUrl: base + entry.webPath,
                    createdAt: entry.createdAt, readAt: entry.readAt)
            },
            nextCursor: page.nextCursor, unreadCount: try await inbox.unreadCount(for: userID, hiding: hidden)))))
    }

    func getUnreadNotificationCount(_ input: Operations.GetUnreadNotificationCount.Input) async throws -> Operations.GetUnreadNotificationCount.Output {
        let req = try request()
        let userID = try await req.requireCaller().user.requireID()
        let hidden = try await services.inboxPeople.hidden(from: userID, on: req.db)
        return .ok(.init(body: .json(.init(count: try await InboxService(db: req.db, clock: services.clock).unreadCount(for: userID, hiding: hidden)))))
    }

    func markNotificationRead(_ input: Operations.MarkNotificationRead.Input) async throws -> Operations.MarkNotificationRead.Output {
        let req = try request()
        let userID = try await req.requireCaller().user.requireID()
        try await InboxService(db: req.db, clock: services.clock)
            .markRead(try PathID.parse(input.path.notificationId, "notification"), for: userID)
        return .noContent(.init())
    }

    func markAllNotificationsRead(_ input: Operations.MarkAllNotificationsRead.Input) async throws -> Operations.MarkAllNotificationsRead.Output {
        let req = try request()
        let userID = try await req.requireCaller().user.requireID()
        try await InboxService(db: req.db, clock: services.clock).markAllRead(for: userID)
        return .noContent(.init())
    }
}
