import Fluent
import Foundation
import SQLKit

/// The in-app inbox. Entries are written with `record` on the transaction of the change that
/// causes them, so a change and its notification commit (or vanish) together.
struct InboxService {
    let db: any Database
    let clock: any AppClock

    struct Draft: Sendable {
        var recipientID: UUID
        var kind: InboxEntry.Kind
        var actorID: UUID?
        /// Written in the recipient's language when recorded.
        var message: NotificationMessage?
        /// The text when there is no message (notices to admins).
        var text: String
        var link: String
        var webPath: String
        /// Security, "order ready", "reservation expiring": pushed through quiet hours and push
        /// opt-outs (notifications.md).
        var critical = false

        init(recipientID: UUID, kind: InboxEntry.Kind, actorID: UUID?, text: String, link: String, webPath: String, critical: Bool = false) {
            (self.recipientID, self.kind, self.actorID, self.message, self.text) = (recipientID, kind, actorID, nil, text)
            (self.link, self.webPath, self.critical) = (link, webPath, critical)
        }

        init(recipientID: UUID, kind: InboxEntry.Kind, actorID: UUID?, message: NotificationMessage, link: String, webPath: String, critical: Bool = false) {
            (self.recipientID, self.kind, self.actorID, self.message, self.text) = (recipientID, kind, actorID, message, message.text(in: .en))
            (self.link, self.webPath, self.critical) = (link, webPath, critical)
        }
    }

    /// Writes `draft` on `tx` (the caller's transaction), with its pushes (PushPlanner): the outbox
    /// commits with the change. Nobody is notified of their own doings.
    static func record(_ draft: Draft, on tx: any Database, now: Date) async throws {
        guard draft.actorID != draft.recipientID else { return }
        let entry = InboxEntry()
        entry.id = .v7(at: now)
        entry.recipientID = draft.recipientID
        entry.kind = draft.kind.rawValue
        entry.actorID = draft.actorID
        var text = draft.text
        if let message = draft.message {
            let locale = try await tx.sql.select().column("locale").from(User.schema)
                .where("id", .equal, draft.recipientID).first(decoding: LocaleRow.self)?.locale
            text = message.text(in: NotificationLanguage(locale: locale))
            entry.messageJSON = String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
        }
        entry.text = String(text.prefix(300))
        entry.link = draft.link
        entry.webPath = draft.webPath
        entry.createdAt = now
        try await entry.create(on: tx)
        try await PushPlanner.plan(entry, critical: draft.critical, on: tx, now: now)
        try await EmailPlanner.plan(entry, kind: draft.kind, on: tx, now: now)
    }

    private struct LocaleRow: Decodable { var locale: String }

    /// A notice for every admin (a contact-form message, a store application), on `tx`; returns
    /// the admins, for the caller to `announce` to once the transaction has committed.
    static func recordForAdmins(
        _ kind: InboxEntry.Kind, actorID: UUID?, text: String, link: String, webPath: String, on tx: any Database, now: Date
    ) async throws -> [UUID] {
        let admins = try await User.query(on: tx).filter(\.$isAdmin == true).all(\.$id)
        for admin in admins {
            try await record(.init(recipientID: admin, kind: kind, actorID: actorID, text: text, link: link, webPath: webPath), on: tx, now: now)
        }
        return admins
    }

    /// Tells the recipient's open live sockets that their inbox changed (`notification.created` on
    /// their `inbox` channel). Called after the transaction that recorded the entry committed; an
    /// extra announcement only makes a client refresh its count.
    static func announce(_ kind: InboxEntry.Kind, to recipientID: UUID, by actorID: UUID?, live: LiveUpdates) async {
        guard recipientID != actorID else { return }
        await live.publish(LiveChannel.inbox(recipientID), event: "notification.created", data: ["kind": kind.rawValue])
    }

    /// The user's entries, newest first, leaving out those caused by `hiddenActors` (people the
    /// user and they blocked, one way or the other).
    func list(for userID: UUID, hiding hiddenActors: Set<UUID> = [], page: PageRequest) async throws -> Page<InboxEntry> {
        let rows = try await entries(of: userID, hiding: hiddenActors).newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    func unreadCount(for userID: UUID, hiding hiddenActors: Set<UUID> = []) async throws -> Int {
        try await entries(of: userID, hiding: hiddenActors).filter(\.$readAt == nil).count()
    }

    /// Marks these entries read (the ones a page showed), not any that arrived meanwhile.
    func markRead(_ ids: [UUID], for userID: UUID) async throws {
        guard !ids.isEmpty else { return }
        try await InboxEntry.query(on: db).filter(\.$recipientID == userID).filter(\.$id ~~ ids).filter(\.$readAt == nil)
            .set(\.$readAt, to: clock.now()).update()
    }

    private func entries(of userID: UUID, hiding hiddenActors: Set<UUID>) -> QueryBuilder<InboxEntry> {
        let query = InboxEntry.query(on: db).filter(\.$recipientID == userID)
        if !hiddenActors.isEmpty {
            query.group(.or) { $0.filter(\.$actorID == nil).filter(\.$actorID !~ Array(hiddenActors)) }
        }
        return query
    }

    func markRead(_ id: UUID, for userID: UUID) async throws {
        guard let entry = try await InboxEntry.query(on: db).filter(\.$id == id).filter(\.$recipientID == userID).first()
        else { throw Problem.notFound("notification") }
        guard entry.readAt == nil else { return }
        entry.readAt = clock.now()
        try await entry.update(on: db)
    }

    func markAllRead(for userID: UUID) async throws {
        try await InboxEntry.query(on: db).filter(\.$recipientID == userID).filter(\.$readAt == nil)
            .set(\.$readAt, to: clock.now()).update()
    }
}
