import Fluent
import Foundation
import SQLKit

/// Comments on a moment (no photo) or on one of its photos: oldest first; deleted by their
/// author or the moment's creator. Comments of people blocked either way are not shown.
struct MomentComments {
    static let maxLength = 1000

    let db: any Database
    let core: CoreServices

    func add(to moment: Moment, photo: MomentPhoto?, by author: User, body raw: String) async throws -> MomentComment {
        let body = try PlainText.comment(raw, maxLength: Self.maxLength)
        let now = core.clock.now()
        let comment = MomentComment()
        comment.id = .v7(at: now)
        comment.momentID = try moment.requireID()
        comment.photoID = try photo?.requireID()
        comment.authorID = try author.requireID()
        comment.body = body
        comment.createdAt = now
        try await comment.create(on: db)
        return comment
    }

    func list(on momentID: UUID, photoID: UUID?, viewer viewerID: UUID, page: PageRequest) async throws -> Page<MomentComment> {
        let hidden = try await SocialGraph(db: db).blockedPeople(of: viewerID)
        let query = MomentComment.query(on: db).filter(\.$momentID == momentID).filter(\.$photoID == photoID)
        if !hidden.isEmpty { query.filter(\.$authorID !~ Array(hidden)) }
        if let cursor = page.cursor { query.filter(\.$id > cursor.id) }
        let rows = try await query.sort(\.$id, .ascending).limit(page.limit + 1).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    func comment(_ id: UUID, in momentID: UUID, viewer viewerID: UUID) async throws -> MomentComment {
        guard let comment = try await MomentComment.query(on: db).filter(\.$id == id).filter(\.$momentID == momentID).first()
        else { throw Problem.notFound("comment") }
        if comment.authorID != viewerID, try await SocialGraph(db: db).blockedEitherWay(viewerID, comment.authorID) {
            throw Problem.notFound("comment")
        }
        return comment
    }

    static func canDelete(_ comment: MomentComment, in moment: Moment, by userID: UUID) -> Bool {
        comment.authorID == userID || moment.creatorID == userID
    }

    func delete(_ comment: MomentComment, in moment: Moment, by userID: UUID) async throws {
        guard Self.canDelete(comment, in: moment, by: userID) else {
            throw Problem(.forbidden, detail: "Only its author or the moment's creator may delete a comment.")
        }
        try await comment.delete(on: db)
    }

    /// Comments per photo (or, keyed by the moment's id, on the moment itself).
    func counts(in momentIDs: [UUID], photoIDs: [UUID]) async throws -> [UUID: Int] {
        var result: [UUID: Int] = [:]
        let sql = db.sql
        if !photoIDs.isEmpty {
            for row in try await sql.select().column("photo_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from(MomentComment.schema).where("photo_id", .in, photoIDs).groupBy("photo_id").all() {
                result[try row.decode(column: "photo_id", as: UUID.self)] = try row.decode(column: "n", as: Int.self)
            }
        }
        if !momentIDs.isEmpty {
            for row in try await sql.select().column("moment_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from(MomentComment.schema).where("moment_id", .in, momentIDs).where("photo_id", .is, SQLLiteral.null)
                .groupBy("moment_id").all() {
                result[try row.decode(column: "moment_id", as: UUID.self)] = try row.decode(column: "n", as: Int.self)
            }
        }
        return result
    }
}
