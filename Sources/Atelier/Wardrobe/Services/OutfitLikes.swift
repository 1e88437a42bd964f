import Fluent
import Foundation
import SQLKit

/// Likes of outfits: a person likes an outfit they may see, never their own. The owner hears of
/// each new like in their inbox; liking again changes nothing and is not news.
struct OutfitLikes {
    struct State: Sendable, Equatable {
        var liked: Bool
        var count: Int
    }

    let db: any Database
    let core: CoreServices
    let live: LiveUpdates

    /// `outfit` must be one `user` may see (`OutfitService.visible`).
    func like(_ outfit: Outfit, by user: User) async throws -> State {
        let outfitID = try outfit.requireID()
        let userID = try user.requireID()
        guard outfit.ownerID != userID else { throw Problem.conflict("You cannot like your own outfit.", field: "outfitId") }
        let now = core.clock.now()
        let inserted = try await core.writeTransaction(on: db) { tx in
            let rows = try await tx.sql.raw("""
                INSERT INTO \(ident: OutfitLike.schema) (id, outfit_id, user_id, created_at)
                VALUES (\(bind: UUID.v7(at: now)), \(bind: outfitID), \(bind: userID), \(bind: now))
                ON CONFLICT (outfit_id, user_id) DO NOTHING RETURNING id
                """).all()
            guard !rows.isEmpty else { return false }
            try await InboxService.record(.init(
                recipientID: outfit.ownerID, kind: .reaction, actorID: userID,
                message: .reaction(actor: user.displayName, emoji: "❤️"),
                link: "atelier://outfits/\(outfitID.idString)", webPath: "/outfits/\(outfitID.idString)"),
                on: tx, now: now)
            return true
        }
        if inserted { await InboxService.announce(.reaction, to: outfit.ownerID, by: userID, live: live) }
        return try await states(of: [outfitID], viewer: userID)[outfitID] ?? State(liked: false, count: 0)
    }

    func unlike(_ outfit: Outfit, by userID: UUID) async throws -> State {
        let outfitID = try outfit.requireID()
        try await core.writeTransaction(on: db) { tx in
            try await OutfitLike.query(on: tx).filter(\.$outfitID == outfitID).filter(\.$userID == userID).delete()
        }
        return try await states(of: [outfitID], viewer: userID)[outfitID] ?? State(liked: false, count: 0)
    }

    /// Each outfit's like count and whether the viewer likes it, in two queries for the whole list.
    func states(of outfitIDs: [UUID], viewer viewerID: UUID) async throws -> [UUID: State] {
        guard !outfitIDs.isEmpty else { return [:] }
        var result = Dictionary(uniqueKeysWithValues: Set(outfitIDs).map { ($0, State(liked: false, count: 0)) })
        let rows = try await db.sql.select().column("outfit_id")
            .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from(OutfitLike.schema).where("outfit_id", .in, Array(Set(outfitIDs))).groupBy("outfit_id").all()
        for row in rows {
            result[try row.decode(column: "outfit_id", as: UUID.self)]?.count = try row.decode(column: "n", as: Int.self)
        }
        for mine in try await OutfitLike.query(on: db).filter(\.$userID == viewerID).filter(\.$outfitID ~~ Array(Set(outfitIDs))).all(\.$outfitID) {
            result[mine]?.liked = true
        }
        return result
    }
}
