import Fluent
import Foundation
import SQLKit

/// Faves on a moment or one of its photos: one per person and target.
struct MomentFaves {
    struct Summary: Sendable, Encodable {
        var count: Int
        var mine: Bool
    }

    let db: any Database
    let core: CoreServices

    func fave(_ targetID: UUID, in momentID: UUID, by userID: UUID) async throws -> Summary {
        let fave = MomentFave()
        let now = core.clock.now()
        fave.id = .v7(at: now)
        fave.momentID = momentID
        fave.targetID = targetID
        fave.userID = userID
        fave.createdAt = now
        do {
            try await fave.create(on: db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // Faved already (a double tap): nothing changes.
        }
        return try await summaries(of: [targetID], viewer: userID)[targetID]!
    }

    func unfave(_ targetID: UUID, by userID: UUID) async throws -> Summary {
        try await MomentFave.query(on: db).filter(\.$targetID == targetID).filter(\.$userID == userID).delete()
        return try await summaries(of: [targetID], viewer: userID)[targetID]!
    }

    func summaries(of targetIDs: [UUID], viewer: UUID) async throws -> [UUID: Summary] {
        var result = Dictionary(uniqueKeysWithValues: targetIDs.map { ($0, Summary(count: 0, mine: false)) })
        guard !targetIDs.isEmpty else { return result }
        let rows = try await db.sql.select().column("target_id")
            .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(MomentFave.schema)
            .where("target_id", .in, targetIDs).groupBy("target_id").all()
        for row in rows {
            result[try row.decode(column: "target_id", as: UUID.self)]?.count = try row.decode(column: "n", as: Int.self)
        }
        for id in try await MomentFave.query(on: db).filter(\.$targetID ~~ targetIDs).filter(\.$userID == viewer).all(\.$targetID) {
            result[id]?.mine = true
        }
        return result
    }
}
