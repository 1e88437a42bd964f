import Fluent
import Foundation
import SQLKit

/// Media's part of an account's deletion (`AccountDeletion`): the person's own media rows go in the
/// transaction and their files after the commit. Media owned by a store or the magazine (the owner types
/// registered as shared with `MediaOwnerAccess.registerShared`) stays and only loses its uploader.
enum PersonalMediaDeletion {
    static func register(in parts: AccountParts, core: CoreServices, mediaLibrary: MediaLibrary) {
        parts.onDeletion { userID, tx, _ in
            let media = try await personalMedia(of: userID, sharedOwners: mediaLibrary.owners.sharedOwnerTypes, on: tx)
            return deletion(of: media, core: core, mediaLibrary: mediaLibrary)
        }
    }

    /// The rows go once the account's row has (posts and photos that referenced them went with it),
    /// their files after the commit.
    static func deletion(of media: [Media], core: CoreServices, mediaLibrary: MediaLibrary) -> AccountParts.DeletionSteps {
        guard !media.isEmpty else { return .none }
        return .init(
            onceAccountRowIsGone: { tx in try await Media.query(on: tx).filter(\.$id ~~ media.map { $0.id! }).delete() },
            afterCommit: { db in
                let service = MediaService(db: db, core: core, mediaLibrary: mediaLibrary)
                for row in media { try await service.removeFilesOfDeletedRow(row) }
            })
    }

    /// The person's own media that is not a store's or the magazine's.
    private static func personalMedia(of userID: UUID, sharedOwners: [String], on tx: any Database) async throws -> [Media] {
        let sql = tx.sql
        let shared = SQLList(sharedOwners.map { SQLBind($0) })
        let ids = try await sql.raw("""
            SELECT id FROM \(ident: Media.schema)
            WHERE uploader_id = \(bind: userID) AND (owner_type IS NULL OR owner_type NOT IN (\(shared)))
            """).all().map { try $0.decode(column: "id", as: UUID.self) }
        guard !ids.isEmpty else { return [] }
        return try await Media.query(on: tx).filter(\.$id ~~ ids).all()
    }
}
