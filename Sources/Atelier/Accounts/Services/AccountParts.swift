import Fluent
import Foundation
import Logging
import NIOConcurrencyHelpers

/// What each domain does when an account is signed up, deleted or exported, registered at start-up
/// through the composition root (`DomainHooks`, docs/architecture.md); Accounts never names the domains.
final class AccountParts: Sendable {
    /// Runs inside the deletion's one write transaction, before the account's row goes, in the order
    /// registered. What it returns runs later (see `DeletionSteps`). A part that throws rolls the whole
    /// deletion back.
    typealias Deletion = @Sendable (_ userID: UUID, _ tx: any Database, _ now: Date) async throws -> DeletionSteps
    /// Runs after the deletion committed, on the database the deletion was asked on.
    typealias AfterDeletion = @Sendable (_ db: any Database) async throws -> Void

    struct DeletionSteps: Sendable {
        /// Still in the transaction, once the account's row and what cascades from it are gone (rows
        /// that were referenced by those: the media of the person's posts).
        var onceAccountRowIsGone: (@Sendable (_ tx: any Database) async throws -> Void)?
        /// After the commit: files to remove, notices to send, caches to clear.
        var afterCommit: AfterDeletion?

        static let none = DeletionSteps()
    }
    /// A domain's files for the export archive, and the originals of its photos to copy in.
    typealias Export = @Sendable (_ userID: UUID, _ encoder: JSONEncoder, _ db: any Database) async throws -> ExportedPart
    /// Copies the stored original `key` into the file at `to` (the media store's, given by the root).
    typealias OriginalCopier = @Sendable (_ key: String, _ to: URL) async throws -> Void

    struct ExportedPart: Sendable {
        var files: [(String, Data)] = []
        var photos: [ExportedPhoto] = []
    }

    /// An original photo to copy into the archive, at `path` inside it.
    struct ExportedPhoto: Sendable {
        var path: String
        var key: String
    }

    /// Sign-up with an invite link: what to do with the new account inside the sign-up's transaction
    /// (Social connects it with the inviter, or throws the problem that names `inviteToken`).
    typealias InviteRedemption = @Sendable (_ token: String) -> @Sendable (User, any Database) async throws -> Void
    /// A picture the sign-in provider gave for a new account, to take as its profile picture.
    typealias PictureImport = @Sendable (_ url: URL, _ user: User, _ db: any Database, _ logger: Logger) async -> Void

    private let invites = NIOLockedValueBox<InviteRedemption?>(nil)
    private let pictures = NIOLockedValueBox<PictureImport?>(nil)
    private let deletions = NIOLockedValueBox<[Deletion]>([])
    private let exports = NIOLockedValueBox<[Export]>([])
    private let copier = NIOLockedValueBox<OriginalCopier?>(nil)

    func redeemInvites(with redemption: @escaping InviteRedemption) { invites.withLockedValue { $0 = redemption } }
    func importProviderPictures(with importer: @escaping PictureImport) { pictures.withLockedValue { $0 = importer } }

    /// The sign-up step for an invite `token`; without a registered redemption the token is refused.
    func joining(invite token: String) -> @Sendable (User, any Database) async throws -> Void {
        if let redemption = invites.withLockedValue({ $0 }) { return redemption(token) }
        return { _, _ in throw Problem.invalid("inviteToken", "invite links are not accepted on this server") }
    }

    func importProviderPicture(from url: URL, for user: User, on db: any Database, logger: Logger) async {
        await pictures.withLockedValue({ $0 })?(url, user, db, logger)
    }

    func onDeletion(_ part: @escaping Deletion) { deletions.withLockedValue { $0.append(part) } }
    func onExport(_ part: @escaping Export) { exports.withLockedValue { $0.append(part) } }
    func copyOriginals(with copier: @escaping OriginalCopier) { self.copier.withLockedValue { $0 = copier } }

    var deletionParts: [Deletion] { deletions.withLockedValue { $0 } }
    var exportParts: [Export] { exports.withLockedValue { $0 } }

    func copyOriginal(_ key: String, to url: URL) async throws {
        guard let copier = copier.withLockedValue({ $0 }) else {
            throw MediaStoreUnavailable(what: "Photo storage", cause: "no original copier is registered")
        }
        try await copier(key, url)
    }
}
