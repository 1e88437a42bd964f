import Fluent
import Foundation
import SQLKit

/// Catalog's part of an account's deletion (`AccountDeletion`): a store whose only owner this was is
/// suspended and reported to every admin in the transaction (an inbox entry each), and announced to
/// their open inboxes after the commit.
enum OwnerlessStores {
    static func register(in parts: AccountParts, live: LiveUpdates, catalogChanges: CatalogChanges) {
        parts.onDeletion { userID, tx, now in
            let stores = try await storesOnlyOwned(by: userID, on: tx.sql)
            guard !stores.isEmpty else { return .none }
            try await suspend(stores, on: tx, now: now)
            return .init(afterCommit: { db in
                for admin in try await User.query(on: db).filter(\.$isAdmin == true).all(\.$id) {
                    await InboxService.announce(.storeWithoutOwner, to: admin, by: nil, live: live)
                }
                await catalogChanges.announce()
            })
        }
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
