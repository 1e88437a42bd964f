import Fluent
import Foundation

/// Removes an account and everything personal hanging off it. Sessions, tokens, devices and
/// linked identities go with the user row (foreign keys cascade); domains that keep records
/// for others (orders) anonymise theirs when they arrive.
struct AccountDeletion {
    let db: any Database
    let services: AtelierServices

    func delete(_ user: User) async throws {
        let userID = try user.requireID()
        try await db.transaction { tx in
            try await SessionService(db: tx, services: services).revokeAll(userID: userID, reason: "account deleted")
            try await User.query(on: tx).filter(\.$id == userID).delete()
        }
    }
}
