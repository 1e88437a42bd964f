import Fluent
import Foundation
import NIOConcurrencyHelpers

/// Who besides its uploader may see a private medium attached to another domain's entity (friends a
/// post's photo, members a moment's), and which owners' media belongs to a store or the magazine
/// rather than a person. Each owning domain registers its owner types at start-up (the composition
/// root calls it); Media never names them.
final class MediaOwnerAccess: Sendable {
    /// Whether `viewer` may see the owner `ownerID`. A problem it throws (the owner's own 404) counts as
    /// no; any other error (the database down) goes to the caller, to answer 503 rather than 404.
    typealias Check = @Sendable (_ ownerID: UUID, _ viewer: UUID, _ db: any Database) async throws -> Bool

    private let checks = NIOLockedValueBox<[String: Check]>([:])
    private let shared = NIOLockedValueBox<[String]>([])

    /// Marks media of `ownerType` as a store's or the magazine's, not a person's: it stays when its
    /// uploader's account is deleted (`PersonalMediaDeletion`).
    func registerShared(ownerType: String) {
        shared.withLockedValue { $0.append(ownerType) }
    }

    var sharedOwnerTypes: [String] { shared.withLockedValue { $0 } }

    func register(ownerType: String, _ check: @escaping Check) {
        checks.withLockedValue { $0[ownerType] = check }
    }

    func allows(ownerType: String?, ownerID: UUID?, viewer: UUID, on db: any Database) async throws -> Bool {
        guard let ownerType, let ownerID, let check = checks.withLockedValue({ $0[ownerType] }) else { return false }
        do {
            return try await check(ownerID, viewer, db)
        } catch is Problem {
            return false
        }
    }
}
