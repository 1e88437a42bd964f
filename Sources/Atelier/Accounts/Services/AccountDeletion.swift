import Fluent
import Foundation

/// Removes an account and everything personal hanging off it, in one write transaction. Each domain's
/// part (registered through the composition root, `AccountParts`) runs inside it before the account's
/// row goes, in this order:
/// - Discovery: likes and follows, with the products' and stores'/brands' counters brought down by
///   exactly what is removed (so `likeCount` and `followerCount` stay equal to the rows);
/// - Media: the person's media (closet, posts, album photos, avatar, unattached uploads), but not what
///   belongs to a store or to the magazine (product photos, logos, covers, PDFs): those rows lose their
///   uploader (`uploader_id` becomes NULL), not their files;
/// - Moments: the photos others posted to moments the person created (those moments go with the account);
/// - Catalog: a store whose only owner this was is suspended and reported to every admin, who can give it
///   a new owner;
/// - Commerce: orders stay with their store without the customer's id, open ones cancelled first so the
///   stock they held returns; the person's reviews go, and the ratings with them.
/// Reactions, comments, memberships, sessions and devices go through the foreign keys' cascades; media
/// rows go once the account's row has (the posts that referenced them went with it). Files go after the
/// commit, and with the rows gone their signed URLs answer 404.
struct AccountDeletion {
    let db: any Database
    let core: CoreServices
    let accountParts: AccountParts

    func delete(_ user: User) async throws {
        let userID = try user.requireID()
        let now = core.clock.now()
        let parts = accountParts.deletionParts
        let afterCommit = try await core.writeTransaction(on: db) { tx in
            try await SessionService(db: tx, core: core).revokeAll(userID: userID, reason: "account deleted")
            var steps: [AccountParts.DeletionSteps] = []
            for part in parts { steps.append(try await part(userID, tx, now)) }
            try await User.query(on: tx).filter(\.$id == userID).delete()
            for step in steps { try await step.onceAccountRowIsGone?(tx) }
            return steps.compactMap(\.afterCommit)
        }
        for step in afterCommit { try await step(db) }
    }
}
