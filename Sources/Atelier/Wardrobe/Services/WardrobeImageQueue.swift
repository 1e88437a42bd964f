import Fluent
import Foundation
import Logging
import SQLKit

/// Draws what the wardrobe shows: garment cut-outs and outfit pictures. The queue is the rows
/// themselves (`cutout_status` / `render_status` pending), so nothing is lost on a crash: a claim
/// that was not finished expires and the work is taken again. Claims are one guarded UPDATE, so
/// several instances never draw the same thing at once.
struct WardrobeImageQueue {
    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    static let claimLifetime: TimeInterval = 120
    static let maxAttempts = 3
    private static let logger = Logger(label: "atelier.wardrobe")

    private var now: Date { core.clock.now() }

    /// Works until nothing is pending; returns how many cut-outs and renders it finished.
    @discardableResult
    func drain() async throws -> (cutouts: Int, renders: Int) {
        var done = (cutouts: 0, renders: 0)
        while true {
            let cutouts = try await claim(table: ClosetItem.schema, status: "cutout_status", claimedAt: "cutout_claimed_at",
                attempts: "cutout_attempts", order: "created_at")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in cutouts { group.addTask { try await cutOut(id) } }
                try await group.waitForAll()
            }
            // Outfits are drawn after the cut-outs of this round, which they are made of.
            let renders = try await claim(table: Outfit.schema, status: "render_status", claimedAt: "render_claimed_at",
                attempts: "render_attempts", order: "updated_at")
            for id in renders { try await render(id) }
            done.cutouts += cutouts.count
            done.renders += renders.count
            if cutouts.isEmpty && renders.isEmpty { return done }
        }
    }

    private func claim(table: String, status: String, claimedAt: String, attempts: String, order: String) async throws -> [UUID] {
        let stale = now.addingTimeInterval(-Self.claimLifetime)
        let candidates = try await db.sql.raw("""
            SELECT id FROM \(ident: table) WHERE \(ident: status) = 'pending'
              AND (\(ident: claimedAt) IS NULL OR \(ident: claimedAt) < \(bind: stale))
            ORDER BY \(ident: order) LIMIT \(literal: mediaLibrary.imageWorkers.threads * 2)
            """).all().map { try $0.decode(column: "id", as: UUID.self) }
        var claimed: [UUID] = []
        for id in candidates {
            let rows = try await db.sql.raw("""
                UPDATE \(ident: table) SET \(ident: claimedAt) = \(bind: now), \(ident: attempts) = \(ident: attempts) + 1
                WHERE id = \(bind: id) AND \(ident: status) = 'pending' AND (\(ident: claimedAt) IS NULL OR \(ident: claimedAt) < \(bind: stale))
                RETURNING \(ident: attempts)
                """).all()
            guard let row = rows.first else { continue }
            if try row.decode(column: attempts, as: Int.self) > Self.maxAttempts {
                try await db.sql.raw("UPDATE \(ident: table) SET \(ident: status) = 'failed' WHERE id = \(bind: id)").run()
                continue
            }
            claimed.append(id)
        }
        return claimed
    }

    private func cutOut(_ itemID: UUID) async throws {
        guard let item = try await ClosetItem.find(itemID, on: db), let photoID = item.photoMediaID,
            let photo = try await Media.find(photoID, on: db)
        else {
            try await db.sql.raw("UPDATE \(ident: ClosetItem.schema) SET cutout_status = 'none' WHERE id = \(bind: itemID)").run()
            return
        }
        let media = MediaService(db: db, core: core, mediaLibrary: mediaLibrary)
        let work = mediaLibrary.scratch.url.appendingPathComponent("cutout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let photoFile = work.appendingPathComponent("photo")
        try await media.download(key: photo.originalKey, to: photoFile)
        var maskFile: URL?
        if let maskID = item.maskMediaID, let mask = try await Media.find(maskID, on: db) {
            maskFile = work.appendingPathComponent("mask")
            try await media.download(key: mask.originalKey, to: maskFile!)
        }
        let cutout: Cutout
        do {
            let (photoFile, maskFile) = (photoFile, maskFile)
            cutout = try await mediaLibrary.imageWorkers.run { try GarmentCutout.cutOut(photo: photoFile, deviceMask: maskFile) }
        } catch let problem as Problem {
            // The photo itself is the trouble (no garment found): trying again gives the same.
            Self.logger.info("Cut-out of closet item \(itemID) failed: \(problem.detail ?? problem.title)")
            try await db.sql.raw("UPDATE \(ident: ClosetItem.schema) SET cutout_status = 'failed' WHERE id = \(bind: itemID)").run()
            return
        }
        let stored = try await media.ingest(
            .init(uploaderID: item.ownerID, claimed: .png, edits: .init(keepsTransparency: true), visibility: .private), data: cutout.png)
        let previous = item.cutoutMediaID
        let storedID = try stored.requireID()
        let now = self.now
        let kept = try await core.writeTransaction(on: db) { tx -> Bool in
            // Only if the item still waits for this cut-out (it may have been deleted or redone).
            let updated = try await tx.sql.raw("""
                UPDATE \(ident: ClosetItem.schema) SET cutout_status = 'ready', cutout_media_id = \(bind: storedID), cutout_claimed_at = NULL,
                  updated_at = \(bind: now)
                WHERE id = \(bind: itemID) AND cutout_status = 'pending'
                RETURNING id
                """).all()
            guard !updated.isEmpty, let fresh = try await ClosetItem.find(itemID, on: tx) else { return false }
            if !fresh.coloursEdited { fresh.coloursList = cutout.colours.prefix(3).map(\.rawValue).joined(separator: ",") }
            if fresh.typeGuessed && fresh.productID == nil {
                fresh.type = GarmentTypeGuess.from(width: cutout.width, height: cutout.height).rawValue
            }
            try await fresh.save(on: tx)
            try await MediaService(db: tx, core: core, mediaLibrary: mediaLibrary).attach(stored, ownerType: ClosetItem.mediaOwnerType, ownerID: itemID)
            try await OutfitRenderMarks.itemChanged(itemID, on: tx, now: now)
            return true
        }
        if !kept { try await media.delete(stored) }
        if kept, let previous, previous != storedID, let old = try await Media.find(previous, on: db) { try await media.delete(old) }
    }

    private func render(_ outfitID: UUID) async throws {
        guard let outfit = try await Outfit.find(outfitID, on: db) else { return }
        let drawnVersion = outfit.renderVersion
        let media = MediaService(db: db, core: core, mediaLibrary: mediaLibrary)
        let work = mediaLibrary.scratch.url.appendingPathComponent("render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var layers: [OutfitCanvas.Layer] = []
        for (index, piece) in try await OutfitPieces(db: db).pieces(of: outfitID).enumerated() {
            guard let source = try await OutfitPieces(db: db).picture(of: piece) else { continue }
            let file = work.appendingPathComponent("piece\(index)")
            try await media.download(key: source.originalKey, to: file)
            layers.append(.init(file: file, x: piece.x, y: piece.y, scale: piece.scale, rotation: piece.rotation))
        }
        let drawnLayers = layers
        let png = try await mediaLibrary.imageWorkers.run { try OutfitCanvas.render(drawnLayers) }
        let stored = try await media.ingest(.init(uploaderID: outfit.ownerID, claimed: .png, edits: .init(), visibility: .private), data: png)
        let storedID = try stored.requireID()
        let previous = outfit.renderMediaID
        let kept = try await core.writeTransaction(on: db) { tx -> Bool in
            // A change since the drawing began made it pending again: that change's drawing wins.
            let updated = try await tx.sql.raw("""
                UPDATE \(ident: Outfit.schema) SET render_status = 'ready', render_media_id = \(bind: storedID), render_claimed_at = NULL
                WHERE id = \(bind: outfitID) AND render_status = 'pending' AND render_version = \(bind: drawnVersion)
                RETURNING id
                """).all()
            guard !updated.isEmpty else { return false }
            try await MediaService(db: tx, core: core, mediaLibrary: mediaLibrary).attach(stored, ownerType: Outfit.mediaOwnerType, ownerID: outfitID)
            return true
        }
        if !kept { try await media.delete(stored) }
        if kept, let previous, previous != storedID, let old = try await Media.find(previous, on: db) { try await media.delete(old) }
    }
}
