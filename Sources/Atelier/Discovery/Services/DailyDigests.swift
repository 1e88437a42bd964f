import Fluent
import Foundation
import SQLKit

/// The two daily digests, at 18:00 in each person's zone: new pieces from the stores they follow
/// since their last digest ("12 new pieces from 3 stores you follow"), and wishlist items back in
/// stock or cheaper than when they last heard ("3 pieces on your wishlist…"). One inbox entry each,
/// never one per product; the person's preferences send them on by push and email. Discovery's, as follows
/// and the wishlist are.
struct DailyDigests {
    let db: any Database
    let core: CoreServices

    static let hour = 18


    private struct Zone: Decodable { var time_zone: String }
    private struct Person: Decodable { var id: UUID }
    private struct Counts: Decodable { var products: Int; var stores: Int }
    private struct Watched: Decodable {
        var id: UUID
        var price_minor: Int
        var seen_price_minor: Int?
        var seen_available: Bool?
        var available: Int
    }

    /// Sends the digests of everyone whose 18:00 hour this is; returns how many were written.
    @discardableResult
    func sendDue() async throws -> Int {
        let now = core.clock.now()
        let zones = try await db.sql.raw("SELECT DISTINCT time_zone FROM \(ident: User.schema)").all(decoding: Zone.self).map(\.time_zone).filter { zone in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
            return calendar.component(.hour, from: now) == Self.hour
        }
        guard !zones.isEmpty else { return 0 }
        var written = 0
        let followers = try await db.sql.raw("""
            SELECT DISTINCT u.id FROM \(ident: User.schema) u JOIN \(ident: Follow.schema) f ON f.user_id = u.id AND f.target_type = \(bind: Follow.Target.store.rawValue)
            WHERE u.time_zone IN (\(binds: zones)) AND u.suspended_at IS NULL
            """).all(decoding: Person.self)
        for person in followers where try await followedStores(person.id, now: now) { written += 1 }
        let wishers = try await db.sql.raw("""
            SELECT DISTINCT u.id FROM \(ident: User.schema) u JOIN \(ident: WishlistItem.schema) w ON w.user_id = u.id
            WHERE u.time_zone IN (\(binds: zones)) AND u.suspended_at IS NULL
            """).all(decoding: Person.self)
        for person in wishers where try await wishlist(person.id, now: now) { written += 1 }
        return written
    }

    /// New active products of followed stores since the last such digest (a day at most).
    private func followedStores(_ userID: UUID, now: Date) async throws -> Bool {
        let kind = InboxEntry.Kind.newFromFollowedStores
        let last = try await InboxEntry.query(on: db).filter(\.$recipientID == userID).filter(\.$kind == kind.rawValue)
            .sort(\.$createdAt, .descending).first()?.createdAt
        let since = max(last ?? .distantPast, now.addingTimeInterval(-86_400))
        guard let counts = try await db.sql.raw("""
            SELECT COUNT(*) AS products, COUNT(DISTINCT p.store_id) AS stores FROM \(ident: Product.schema) p
            JOIN \(ident: Follow.schema) f ON f.target_id = p.store_id AND f.target_type = \(bind: Follow.Target.store.rawValue) AND f.user_id = \(bind: userID)
            WHERE p.status = \(bind: Product.Status.active.rawValue) AND p.created_at > \(bind: since) AND p.created_at <= \(bind: now)
            """).first(decoding: Counts.self), counts.products > 0
        else { return false }
        try await core.writeTransaction(on: db) { tx in
            try await InboxService.record(.init(
                recipientID: userID, kind: kind, actorID: nil, message: .newFromFollowedStores(products: counts.products, stores: counts.stores),
                link: "atelier://feed/following", webPath: "/feed"), on: tx, now: now)
        }
        return true
    }

    /// Wishlist items cheaper than, or back in stock since, what the person last heard; what they
    /// hear now becomes the new mark. Items never heard of are marked silently.
    private func wishlist(_ userID: UUID, now: Date) async throws -> Bool {
        let items = try await db.sql.raw("""
            SELECT w.id, p.price_minor, w.seen_price_minor, w.seen_available,
                COALESCE((SELECT SUM(CASE WHEN v.stock - v.held - v.allocated > 0 THEN 1 ELSE 0 END) FROM \(ident: ProductVariant.schema) v WHERE v.product_id = p.id), 0) AS available
            FROM \(ident: WishlistItem.schema) w JOIN \(ident: Product.schema) p ON p.id = w.product_id
            WHERE w.user_id = \(bind: userID) AND p.status = \(bind: Product.Status.active.rawValue)
            """).all(decoding: Watched.self)
        let changed = items.filter { item in
            let cheaper = item.seen_price_minor.map { item.price_minor < $0 } ?? false
            let backInStock = item.seen_available == false && item.available > 0
            return cheaper || backInStock
        }
        try await core.writeTransaction(on: db) { tx in
            for item in items where item.seen_price_minor != item.price_minor || item.seen_available != (item.available > 0) {
                try await tx.sql.update(WishlistItem.schema)
                    .set("seen_price_minor", to: item.price_minor).set("seen_available", to: item.available > 0)
                    .where("id", .equal, item.id).run()
            }
            if !changed.isEmpty {
                try await InboxService.record(.init(
                    recipientID: userID, kind: .wishlistChanges, actorID: nil, message: .wishlistChanges(items: changed.count),
                    link: "atelier://wishlist", webPath: "/wishlist"), on: tx, now: now)
            }
        }
        return !changed.isEmpty
    }
}

/// What a wishlist's owner last heard of each item (the daily digest compares against it).
struct AddWishlistMarks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WishlistItem.schema).field("seen_price_minor", .int).update()
        try await database.schema(WishlistItem.schema).field("seen_available", .bool).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WishlistItem.schema).deleteField("seen_available").update()
        try await database.schema(WishlistItem.schema).deleteField("seen_price_minor").update()
    }
}

struct DailyDigestJob: JobKind {
    static let name = "notifications.digests"
    static let maxAttempts = 3
    static let lease: TimeInterval = 1800

    func run(_ payload: RecurringSlot, context: JobContext) async throws {
        try await DailyDigests(db: context.db, core: context.core).sendDue()
    }
}
