import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// The stores a caller's lists may show (issue 51): every public store, and the sign-in-to-browse
/// (members-only) ones the caller is an approved trade customer or staff of. Lists, search with its
/// facets, suggestions, nearby and feeds all take one, so a wholesaler's approved bar finds its gin
/// by category, word and place, and nobody else sees a trace of it: not a row, a count or a facet.
/// Share pages and `sitemap.xml` stay public only (`Store.isPublicSQL`).
struct StoreVisibility: Sendable, Hashable, CustomStringConvertible {
    /// Active sign-in-to-browse stores the caller may browse; empty for nearly everyone.
    let membersOnlyStoreIDs: [UUID]

    static let publicOnly = StoreVisibility(membersOnlyStoreIDs: [])

    init(membersOnlyStoreIDs: [UUID]) {
        self.membersOnlyStoreIDs = Array(Set(membersOnlyStoreIDs)).sorted { $0.uuidString < $1.uuidString }
    }

    var isPublicOnly: Bool { membersOnlyStoreIDs.isEmpty }

    /// The condition on stores `alias` (unqualified without one).
    func sql(_ alias: String? = "s") -> SQLQueryString {
        guard !isPublicOnly else { return Store.isPublicSQL(alias) }
        let column = { (name: String) in alias.map { "\($0).\(name)" } ?? name }
        return """
            \(unsafeRaw: column("status")) = \(bind: Store.Status.active.rawValue) AND (\(unsafeRaw: column("members_only")) = \(bind: false) \
            OR \(unsafeRaw: column("id")) IN (\(binds: membersOnlyStoreIDs)))
            """
    }

    /// The same test on a store already read.
    func admits(storeID: UUID, isActive: Bool, membersOnly: Bool) -> Bool {
        isActive && (!membersOnly || membersOnlyStoreIDs.contains(storeID))
    }

    /// Part of a cache key: results for different visibilities must never be shared.
    var description: String { isPublicOnly ? "public" : membersOnlyStoreIDs.map(\.idString).joined(separator: ",") }
}

extension StoreAccess {
    /// What `user`'s lists may show. Costs nothing while no sign-in-to-browse store exists (the
    /// ids of those are kept for a few seconds in `known`); otherwise one statement for a signed-in
    /// caller. Admins see them all, as they may open each.
    func visibility(for user: User?, known: MembersOnlyStores) async throws -> StoreVisibility {
        guard let user, let userID = user.id else { return .publicOnly }
        let membersOnly = try await known.ids(on: db)
        guard !membersOnly.isEmpty else { return .publicOnly }
        if user.isAdmin { return StoreVisibility(membersOnlyStoreIDs: membersOnly) }
        let sql = db.sql
        let rows = try await sql.raw("""
            SELECT store_id FROM \(ident: TradeCustomer.schema)
            WHERE user_id = \(bind: userID) AND status = \(bind: TradeCustomer.Status.approved.rawValue) AND store_id IN (\(binds: membersOnly))
            UNION SELECT store_id FROM \(ident: StoreMember.schema) WHERE user_id = \(bind: userID) AND store_id IN (\(binds: membersOnly))
            """).all()
        return StoreVisibility(membersOnlyStoreIDs: try rows.map { try $0.decode(column: "store_id", as: UUID.self) })
    }
}

/// The ids of the active sign-in-to-browse stores, read again at most every few seconds. A store
/// that turns sign-in-to-browse is left out of everyone's lists at once (the SQL still tests
/// `members_only`); only its customers wait those seconds to see it. `invalidate` is called on
/// every catalogue change on this instance.
final class MembersOnlyStores: Sendable {
    private let lifetime: TimeInterval
    private let state = NIOLockedValueBox<(ids: [UUID], readAt: Date)?>(nil)

    init(lifetime: TimeInterval = 5) {
        self.lifetime = lifetime
    }

    func ids(on db: any Database) async throws -> [UUID] {
        let now = Date()
        if let kept = state.withLockedValue({ $0 }), now.timeIntervalSince(kept.readAt) < lifetime { return kept.ids }
        let ids = try await Store.query(on: db).filter(\.$membersOnly == true).filter(\.$status == Store.Status.active.rawValue).all(\.$id)
        state.withLockedValue { $0 = (ids, now) }
        return ids
    }

    func invalidate() {
        state.withLockedValue { $0 = nil }
    }
}

extension Request {
    private struct VisibilityKey: StorageKey { typealias Value = StoreVisibility }

    /// The stores `user`'s lists may show on this request (worked out once per request).
    func storeVisibility(for user: User?) async throws -> StoreVisibility {
        if let kept = storage[VisibilityKey.self] { return kept }
        let visibility = try await StoreAccess(db: db).visibility(for: user, known: atelier.membersOnlyStores)
        storage[VisibilityKey.self] = visibility
        return visibility
    }
}
