import Fluent
import Foundation
import SQLKit

/// Moments' part of an account's deletion (`AccountDeletion`): the moments the person created go with
/// the account (a cascade), and so do the photos others posted to them: their media rows in the
/// transaction, their files after the commit. The person's own photos are Media's part.
enum MomentPhotosDeletion {
    static func register(in parts: AccountParts, core: CoreServices, mediaLibrary: MediaLibrary) {
        parts.onDeletion { userID, tx, _ in
            let ids = try await tx.sql.raw("""
                SELECT id FROM \(ident: Media.schema)
                WHERE owner_type = \(bind: MomentPhoto.mediaOwnerType)
                  AND (uploader_id IS NULL OR uploader_id <> \(bind: userID))
                  AND owner_id IN (
                    SELECT p.id FROM \(ident: MomentPhoto.schema) p JOIN \(ident: Moment.schema) m ON m.id = p.moment_id
                    WHERE m.creator_id = \(bind: userID))
                """).all().map { try $0.decode(column: "id", as: UUID.self) }
            guard !ids.isEmpty else { return .none }
            return PersonalMediaDeletion.deletion(of: try await Media.query(on: tx).filter(\.$id ~~ ids).all(), core: core, mediaLibrary: mediaLibrary)
        }
    }
}
