import Fluent
import Foundation
import SQLKit

/// The one place that says an outfit's picture is out of date: called inside the transaction of
/// every write that changes what an outfit shows (its pieces or layout, an item's cut-out or
/// details, an item's removal), so the queue redraws it after the commit.
enum OutfitRenderMarks {
    static func outfitChanged(_ outfitID: UUID, on tx: any Database, now: Date) async throws {
        try await tx.sql.raw("""
            UPDATE \(ident: Outfit.schema) SET render_status = 'pending', render_attempts = 0, render_claimed_at = NULL,
              render_version = render_version + 1,
              updated_at = \(bind: now)
            WHERE id = \(bind: outfitID)
            """).run()
    }

    static func itemChanged(_ itemID: UUID, on tx: any Database, now: Date) async throws {
        try await tx.sql.raw("""
            UPDATE \(ident: Outfit.schema) SET render_status = 'pending', render_attempts = 0, render_claimed_at = NULL,
              render_version = render_version + 1,
              updated_at = \(bind: now)
            WHERE id IN (SELECT outfit_id FROM \(ident: OutfitPiece.schema) WHERE closet_item_id = \(bind: itemID))
            """).run()
    }
}
