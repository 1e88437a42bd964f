import Fluent
import Foundation
import SQLKit

/// Creates, changes, pins and deletes outfits, and decides who may see one: the owner always;
/// others per its visibility (friends: friends only), never anyone blocked either way.
struct OutfitService {
    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary
    let wardrobeImages: WakeSignal

    private var now: Date { core.clock.now() }

    func create(_ draft: OutfitDraft, owner: User) async throws -> Outfit {
        let ownerID = try owner.requireID()
        let outfit = Outfit()
        outfit.id = .v7(at: now)
        outfit.ownerID = ownerID
        outfit.name = "Outfit"
        outfit.visibility = Outfit.Visibility.private.rawValue
        outfit.favourite = false
        outfit.renderStatus = Outfit.RenderStatus.pending.rawValue
        outfit.renderAttempts = 0
        outfit.renderVersion = 0
        outfit.createdAt = now
        outfit.updatedAt = now
        guard draft.pieces != nil else { throw Problem.invalid("pieces", "an outfit has 1 to \(OutfitDraft.maxPieces) pieces") }
        let pieces = try await draft.apply(to: outfit, ownerID: ownerID, on: db) ?? []
        try await core.writeTransaction(on: db) { tx in
            try await outfit.create(on: tx)
            try await Self.replacePieces(of: outfit, with: pieces, on: tx, now: outfit.createdAt)
        }
        wardrobeImages.signal()
        return outfit
    }

    func update(_ outfit: Outfit, draft: OutfitDraft) async throws -> Outfit {
        let pieces = try await draft.apply(to: outfit, ownerID: outfit.ownerID, on: db)
        outfit.updatedAt = now
        try await core.writeTransaction(on: db) { tx in
            try await outfit.save(on: tx)
            if let pieces { try await Self.replacePieces(of: outfit, with: pieces, on: tx, now: outfit.updatedAt) }
        }
        wardrobeImages.signal()
        return try await reload(outfit)
    }

    func delete(_ outfit: Outfit) async throws {
        let outfitID = try outfit.requireID()
        try await core.writeTransaction(on: db) { tx in try await outfit.delete(on: tx) }
        try await MediaService(db: db, core: core, mediaLibrary: mediaLibrary).deleteOwned(ownerType: Outfit.mediaOwnerType, ownerID: outfitID)
    }

    /// Pins to the profile at the end of the row, or unpins and closes the gap.
    func setPinned(_ outfit: Outfit, _ pinned: Bool) async throws -> Outfit {
        let outfitID = try outfit.requireID()
        let ownerID = outfit.ownerID
        try await core.writeTransaction(on: db) { tx in
            let sql = tx.sql
            guard let fresh = try await Outfit.find(outfitID, on: tx) else { throw Problem.notFound("outfit") }
            if pinned {
                guard fresh.pinnedPosition == nil else { return }
                let count = try await Outfit.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$pinnedPosition != nil).count()
                guard count < Outfit.maxPinned else {
                    throw Problem.conflict("At most \(Outfit.maxPinned) outfits can be pinned; unpin one first.", field: "pinned")
                }
                try await sql.raw("UPDATE \(ident: Outfit.schema) SET pinned_position = \(bind: count + 1) WHERE id = \(bind: outfitID)").run()
            } else if let position = fresh.pinnedPosition {
                try await sql.raw("UPDATE \(ident: Outfit.schema) SET pinned_position = NULL WHERE id = \(bind: outfitID)").run()
                // One by one, upwards, so the unique (owner, position) index never sees two at once.
                let later = try await Outfit.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$pinnedPosition > position)
                    .sort(\.$pinnedPosition).all()
                for other in later {
                    try await sql.raw("UPDATE \(ident: Outfit.schema) SET pinned_position = pinned_position - 1 WHERE id = \(bind: other.requireID())").run()
                }
            }
        }
        return try await reload(outfit)
    }

    func own(_ id: UUID, of ownerID: UUID) async throws -> Outfit {
        guard let outfit = try await Outfit.find(id, on: db), outfit.ownerID == ownerID else { throw Problem.notFound("outfit") }
        return outfit
    }

    /// The outfit if `viewerID` may see it; 404 otherwise (a private outfit does not exist for others).
    func visible(_ id: UUID, to viewerID: UUID) async throws -> Outfit {
        guard let outfit = try await Outfit.find(id, on: db), try await canSee(outfit, viewerID) else { throw Problem.notFound("outfit") }
        return outfit
    }

    func canSee(_ outfit: Outfit, _ viewerID: UUID) async throws -> Bool {
        if outfit.ownerID == viewerID { return true }
        let graph = SocialGraph(db: db)
        switch Outfit.Visibility(rawValue: outfit.visibility) ?? .private {
        case .private: return false
        case .friends:
            guard try await graph.areFriends(outfit.ownerID, viewerID) else { return false }
            return try await !graph.blockedEitherWay(outfit.ownerID, viewerID)
        case .public: return try await !graph.blockedEitherWay(outfit.ownerID, viewerID)
        }
    }

    /// A person's pinned outfits that `viewerID` may see, in pin order.
    func pinned(of ownerID: UUID, viewer viewerID: UUID) async throws -> [Outfit] {
        let outfits = try await Outfit.query(on: db).filter(\.$ownerID == ownerID).filter(\.$pinnedPosition != nil).sort(\.$pinnedPosition).all()
        guard ownerID != viewerID, !outfits.isEmpty else { return outfits }
        // One look at the relationship for all of them, not two queries per outfit.
        let graph = SocialGraph(db: db)
        guard try await !graph.blockedEitherWay(ownerID, viewerID) else { return [] }
        let friends = try await graph.areFriends(ownerID, viewerID)
        return outfits.filter { $0.visibility == Outfit.Visibility.public.rawValue || (friends && $0.visibility == Outfit.Visibility.friends.rawValue) }
    }

    func list(of ownerID: UUID, page: PageRequest) async throws -> Page<Outfit> {
        var query = Outfit.query(on: db).filter(\.$ownerID == ownerID).sort(\.$id, .descending).limit(page.limit + 1)
        if let cursor = page.cursor { query = query.filter(\.$id < cursor.id) }
        return Page(fetched: try await query.all(), limit: page.limit) { PageCursor(id: $0.id!) }
    }

    private func reload(_ outfit: Outfit) async throws -> Outfit {
        guard let fresh = try await Outfit.find(try outfit.requireID(), on: db) else { throw Problem.notFound("outfit") }
        return fresh
    }

    static func replacePieces(of outfit: Outfit, with pieces: [OutfitPiece], on tx: any Database, now: Date) async throws {
        let outfitID = try outfit.requireID()
        try await OutfitPiece.query(on: tx).filter(\.$outfitID == outfitID).delete()
        for piece in pieces {
            piece.id = UUID()
            piece.outfitID = outfitID
            try await piece.create(on: tx)
        }
        try await OutfitRenderMarks.outfitChanged(outfitID, on: tx, now: now)
    }
}

/// Reading an outfit's pieces and the pictures they are drawn from.
struct OutfitPieces {
    let db: any Database

    func pieces(of outfitID: UUID) async throws -> [OutfitPiece] {
        try await OutfitPiece.query(on: db).filter(\.$outfitID == outfitID).sort(\.$z).sort(\.$position).all()
    }

    func pieces(of outfitIDs: [UUID]) async throws -> [UUID: [OutfitPiece]] {
        guard !outfitIDs.isEmpty else { return [:] }
        let all = try await OutfitPiece.query(on: db).filter(\.$outfitID ~~ outfitIDs).sort(\.$position).all()
        return Dictionary(grouping: all, by: \.outfitID)
    }

    /// A closet item's cut-out (its photo until the cut-out is ready); a product's first photo.
    func picture(of piece: OutfitPiece) async throws -> Media? {
        if let itemID = piece.closetItemID {
            guard let item = try await ClosetItem.find(itemID, on: db), let mediaID = item.cutoutMediaID ?? item.photoMediaID else { return nil }
            return try await Media.find(mediaID, on: db)
        }
        if let productID = piece.productID,
            let photo = try await ProductPhoto.query(on: db).filter(\.$product.$id == productID).sort(\.$position).first() {
            return try await Media.find(photo.$media.id, on: db)
        }
        return nil
    }
}
