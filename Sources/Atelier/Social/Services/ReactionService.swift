import Fluent
import Foundation
import SQLKit

/// Reactions to posts: one per person per post, from a small fixed set. Counts are counted from
/// the rows, so they stay exact however many people react at once.
struct ReactionService {
    enum Kind: String, CaseIterable, Sendable {
        case heart, fire, starstruck, clap, laugh, wow

        var emoji: String {
            switch self {
            case .heart: "❤️"
            case .fire: "🔥"
            case .starstruck: "🤩"
            case .clap: "👏"
            case .laugh: "😂"
            case .wow: "😮"
            }
        }

        static func parse(_ raw: String) throws -> Kind {
            guard let kind = Kind(rawValue: raw) else {
                throw Problem.invalid("kind", "must be one of \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return kind
        }
    }

    struct Summary: Sendable, Equatable {
        var total: Int
        /// Kinds with at least one reaction, most first.
        var counts: [(kind: Kind, count: Int)]
        var mine: Kind?

        static func == (lhs: Summary, rhs: Summary) -> Bool {
            lhs.total == rhs.total && lhs.mine == rhs.mine && lhs.counts.map(\.kind) == rhs.counts.map(\.kind)
                && lhs.counts.map(\.count) == rhs.counts.map(\.count)
        }
    }

    let db: any Database
    let core: CoreServices
    let live: LiveUpdates

    /// Sets the viewer's reaction to `post` (replacing another kind). The author hears of a
    /// person's first reaction only.
    func react(to post: Post, by user: User, kind: Kind) async throws -> Summary {
        let postID = try post.requireID()
        let userID = try user.requireID()
        let now = core.clock.now()
        try await core.writeTransaction(on: db) { tx in
            let sql = tx.sql
            let inserted = try await sql.raw("""
                INSERT INTO \(ident: PostReaction.schema) (id, post_id, user_id, kind, created_at)
                VALUES (\(bind: UUID.v7(at: now)), \(bind: postID), \(bind: userID), \(bind: kind.rawValue), \(bind: now))
                ON CONFLICT (post_id, user_id) DO NOTHING RETURNING id
                """).all()
            if inserted.isEmpty {
                try await sql.raw("""
                    UPDATE \(ident: PostReaction.schema) SET kind = \(bind: kind.rawValue)
                    WHERE post_id = \(bind: postID) AND user_id = \(bind: userID)
                    """).run()
            } else {
                try await InboxService.record(.init(
                    recipientID: post.authorID, kind: .reaction, actorID: userID,
                    message: .reaction(actor: user.displayName, emoji: kind.emoji),
                    link: "atelier://posts/\(postID.idString)", webPath: "/posts/\(postID.idString)"),
                    on: tx, now: now)
            }
        }
        await InboxService.announce(.reaction, to: post.authorID, by: userID, live: live)
        return try await summaries(of: [postID], viewer: userID)[postID] ?? Summary(total: 0, counts: [], mine: nil)
    }

    func unreact(to post: Post, by userID: UUID) async throws -> Summary {
        let postID = try post.requireID()
        try await PostReaction.query(on: db).filter(\.$postID == postID).filter(\.$userID == userID).delete()
        return try await summaries(of: [postID], viewer: userID)[postID] ?? Summary(total: 0, counts: [], mine: nil)
    }

    /// The reaction counts of each post and the viewer's own reaction, in two queries.
    func summaries(of postIDs: [UUID], viewer viewerID: UUID) async throws -> [UUID: Summary] {
        guard !postIDs.isEmpty else { return [:] }
        let sql = db.sql
        let rows = try await sql.select().column("post_id").column("kind").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from(PostReaction.schema).where("post_id", .in, postIDs).groupBy("post_id").groupBy("kind").all()
        var result = Dictionary(uniqueKeysWithValues: postIDs.map { ($0, Summary(total: 0, counts: [], mine: nil)) })
        for row in rows {
            let postID = try row.decode(column: "post_id", as: UUID.self)
            guard let kind = Kind(rawValue: try row.decode(column: "kind", as: String.self)) else { continue }
            let count = try row.decode(column: "n", as: Int.self)
            result[postID, default: Summary(total: 0, counts: [], mine: nil)].counts.append((kind, count))
            result[postID]?.total += count
        }
        for (id, summary) in result {
            result[id]?.counts = summary.counts.sorted {
                $0.count != $1.count ? $0.count > $1.count : Kind.allCases.firstIndex(of: $0.kind)! < Kind.allCases.firstIndex(of: $1.kind)!
            }
        }
        for mine in try await PostReaction.query(on: db).filter(\.$userID == viewerID).filter(\.$postID ~~ postIDs).all() {
            result[mine.postID]?.mine = Kind(rawValue: mine.kind)
        }
        return result
    }
}
