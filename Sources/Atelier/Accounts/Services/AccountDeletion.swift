import Fluent
import Foundation
import SQLKit

/// Removes an account and everything personal hanging off it, in one write transaction:
/// - its likes and follows, with the products' and stores'/brands' counters brought down by
///   exactly what is removed (so `likeCount` and `followerCount` stay equal to the rows);
/// - its personal media (closet, posts, album photos, avatar, unattached uploads), and the
///   photos others posted to moments it created; their files go after the commit, and with the
///   rows gone their signed URLs answer 404;
/// - reactions, comments, memberships, sessions and devices through the foreign keys' cascades.
///
/// What belongs to a store or to the magazine (product photos, logos, covers, PDFs) stays: those
/// media rows lose their uploader (`uploader_id` becomes NULL), not their files. A store whose
/// only owner this was is suspended and reported to every admin, who can give it a new owner.
/// Orders stay with their store without the customer's id; open ones are cancelled first, so
/// the stock they held returns.
struct AccountDeletion {
    let db: any Database
    let services: AtelierServices

    /// `Media.ownerType`s of media that belong to a store or to the magazine, not to a person.
    static let sharedMediaOwners = [ProductService.mediaOwnerType, "store", "brand", "magazine", MagazinePDFs.mediaOwnerType]

    private var now: Date { services.clock.now() }

    func delete(_ user: User) async throws {
        let userID = try user.requireID()
        let now = now
        let (personalMedia, orphanedStores) = try await services.writeTransaction(on: db) { tx in
            let sql = tx.sql
            try await SessionService(db: tx, services: services).revokeAll(userID: userID, reason: "account deleted")
            try await Self.removeLikesAndFollows(of: userID, on: sql)
            let media = try await Self.personalMedia(of: userID, on: tx)
            let stores = try await Self.storesOnlyOwned(by: userID, on: sql)
            try await ClosedAccountOrders.close(of: userID, on: tx, now: now)
            try await ReviewService.removeAll(of: userID, on: tx)
            try await User.query(on: tx).filter(\.$id == userID).delete()
            if !media.isEmpty { try await Media.query(on: tx).filter(\.$id ~~ media.map { $0.id! }).delete() }
            try await Self.suspend(stores, on: tx, now: now)
            return (media, stores)
        }
        let mediaService = MediaService(db: db, services: services)
        for media in personalMedia { try await mediaService.removeFilesOfDeletedRow(media) }
        await services.catalogChanged()
        guard !orphanedStores.isEmpty else { return }
        for admin in try await User.query(on: db).filter(\.$isAdmin == true).all(\.$id) {
            await InboxService.announce(.storeWithoutOwner, to: admin, by: nil, live: services.live)
        }
    }

    /// Deletes the like and follow rows and brings each counter down by the rows it counted.
    private static func removeLikesAndFollows(of userID: UUID, on sql: any SQLDatabase) async throws {
        try await sql.raw("""
            UPDATE \(ident: Product.schema) SET like_count = like_count - 1
            WHERE id IN (SELECT product_id FROM \(ident: ProductLike.schema) WHERE user_id = \(bind: userID))
            """).run()
        try await sql.raw("DELETE FROM \(ident: ProductLike.schema) WHERE user_id = \(bind: userID)").run()
        for (target, table) in [(Follow.Target.store, Store.schema), (.brand, Brand.schema)] {
            try await sql.raw("""
                UPDATE \(ident: table) SET follower_count = follower_count - 1
                WHERE id IN (SELECT target_id FROM \(ident: Follow.schema)
                             WHERE user_id = \(bind: userID) AND target_type = \(bind: target.rawValue))
                """).run()
        }
        try await sql.raw("DELETE FROM \(ident: Follow.schema) WHERE user_id = \(bind: userID)").run()
    }

    /// The person's own media that is not a store's or the magazine's, and the photos others
    /// posted to the moments the person created (those moments go with the account).
    private static func personalMedia(of userID: UUID, on tx: any Database) async throws -> [Media] {
        let sql = tx.sql
        let shared = SQLList(sharedMediaOwners.map { SQLBind($0) })
        let ids = try await sql.raw("""
            SELECT id FROM \(ident: Media.schema)
            WHERE (uploader_id = \(bind: userID) AND (owner_type IS NULL OR owner_type NOT IN (\(shared))))
               OR (owner_type = \(bind: MomentPhoto.mediaOwnerType) AND owner_id IN (
                     SELECT p.id FROM \(ident: MomentPhoto.schema) p JOIN \(ident: Moment.schema) m ON m.id = p.moment_id
                     WHERE m.creator_id = \(bind: userID)))
            """).all().map { try $0.decode(column: "id", as: UUID.self) }
        guard !ids.isEmpty else { return [] }
        return try await Media.query(on: tx).filter(\.$id ~~ ids).all()
    }

    /// Active stores in which this person is an owner and nobody else is.
    private static func storesOnlyOwned(by userID: UUID, on sql: any SQLDatabase) async throws -> [UUID] {
        let owner = StoreMember.Role.owner.rawValue
        return try await sql.raw("""
            SELECT m.store_id FROM \(ident: StoreMember.schema) m JOIN \(ident: Store.schema) s ON s.id = m.store_id
            WHERE m.user_id = \(bind: userID) AND m.role = \(bind: owner) AND s.status = \(bind: Store.Status.active.rawValue)
              AND NOT EXISTS (SELECT 1 FROM \(ident: StoreMember.schema) o
                              WHERE o.store_id = m.store_id AND o.role = \(bind: owner) AND o.user_id <> \(bind: userID))
            """).all().map { try $0.decode(column: "store_id", as: UUID.self) }
    }

    /// Suspends the stores and writes an inbox entry for every admin, in the same transaction.
    private static func suspend(_ storeIDs: [UUID], on tx: any Database, now: Date) async throws {
        guard !storeIDs.isEmpty else { return }
        let admins = try await User.query(on: tx).filter(\.$isAdmin == true).all(\.$id)
        for store in try await Store.query(on: tx).filter(\.$id ~~ storeIDs).all() {
            store.status = Store.Status.suspended.rawValue
            store.updatedAt = now
            try await store.save(on: tx)
            for admin in admins {
                try await InboxService.record(
                    .init(
                        recipientID: admin, kind: .storeWithoutOwner, actorID: nil,
                        text: "\(store.name) has no owner any more: its last owner deleted their account. "
                            + "It is suspended until you give it an owner and activate it again.",
                        link: "atelier://stores/\(store.id!.idString)", webPath: "/admin/stores"),
                    on: tx, now: now)
            }
        }
    }
}
