import Fluent
import Foundation
import SQLKit

/// People as others see them: who is visible to whom, short summaries in batches, search by
/// name or username, and profiles.
struct PeopleDirectory {
    struct Person: Sendable {
        var user: User
        var relationship: SocialGraph.Relationship
        /// The profile picture, unless there is none or a block stands between the two (social.md).
        var avatar: LinkedImage? = nil
    }

    struct Profile: Sendable {
        var person: Person
        var friendCount: Int
        var postCount: Int
        var commonFriendCount: Int
    }

    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    private var graph: SocialGraph { SocialGraph(db: db) }

    /// The user, unless unknown, suspended, or they blocked the viewer (all 404: a blocked person
    /// cannot tell a block from a missing account). The viewer's own blocks stay visible to them,
    /// so they can undo them.
    func visibleUser(_ id: UUID, to viewerID: UUID) async throws -> User {
        guard let user = try await User.find(id, on: db), user.suspendedAt == nil || id == viewerID,
            try await !graph.hasBlocked(id, viewerID)
        else { throw Problem.notFound("user") }
        return user
    }

    /// Summaries of `ids` (in that order) as `viewerID` sees them; unknown ids are left out.
    func people(_ ids: [UUID], viewer viewerID: UUID) async throws -> [Person] {
        guard !ids.isEmpty else { return [] }
        let users = try await User.query(on: db).filter(\.$id ~~ Set(ids)).all()
        let byID = Dictionary(users.map { ($0.id!, $0) }, uniquingKeysWith: { a, _ in a })
        let relationships = try await graph.relationships(of: viewerID, to: Array(byID.keys))
        let avatars = try await avatars(of: users, viewer: viewerID, relationships: relationships)
        return ids.compactMap { id in
            byID[id].map { Person(user: $0, relationship: relationships[id] ?? .none, avatar: avatars[id]) }
        }
    }

    /// The pictures of those of `users` who have one, for lists that name people without a
    /// relationship (reviews, readable signed out). Blocks either way still hide a picture.
    func avatars(of users: [User], viewer viewerID: UUID?) async throws -> [UUID: LinkedImage] {
        guard let viewerID else { return try await avatars(of: users, viewer: nil, relationships: [:]) }
        let ids = users.compactMap { $0.avatarMediaID == nil ? nil : $0.id }
        let relationships = ids.isEmpty ? [:] : try await graph.relationships(of: viewerID, to: ids)
        return try await avatars(of: users, viewer: viewerID, relationships: relationships)
    }

    /// The pictures of those of `users` who have one, leaving out anyone the viewer blocked or who
    /// blocked the viewer. One query for the pictures, and one for blocks only when there are any.
    private func avatars(
        of users: [User], viewer viewerID: UUID?, relationships: [UUID: SocialGraph.Relationship]
    ) async throws -> [UUID: LinkedImage] {
        var owners: [UUID: UUID] = [:]
        for user in users where relationships[user.id!] != .blocked {
            if let media = user.avatarMediaID { owners[media] = user.id! }
        }
        guard !owners.isEmpty else { return [:] }
        let blockedViewer = viewerID == nil ? [] : Set(try await UserBlock.query(on: db).filter(\.$blockedID == viewerID!)
            .filter(\.$blockerID ~~ Set(owners.values)).all(\.$blockerID))
        let service = MediaService(db: db, core: core, mediaLibrary: mediaLibrary)
        var result: [UUID: LinkedImage] = [:]
        for media in try await Media.query(on: db).filter(\.$id ~~ Set(owners.keys)).all() {
            guard let owner = owners[media.id!], !blockedViewer.contains(owner) else { continue }
            result[owner] = service.linked(media)
        }
        return result
    }

    /// The same, keyed by id, for building lists that refer to people.
    func peopleByID(_ ids: [UUID], viewer viewerID: UUID) async throws -> [UUID: Person] {
        Dictionary(try await people(ids, viewer: viewerID).map { ($0.user.id!, $0) }, uniquingKeysWith: { a, _ in a })
    }

    func person(_ id: UUID, viewer viewerID: UUID) async throws -> Person? {
        try await people([id], viewer: viewerID).first
    }

    /// People whose name has a word starting with `text`, or whose username does; friends first.
    /// Suspended accounts and anyone blocked either way are left out.
    func search(_ text: String, viewer viewerID: UUID, limit: Int) async throws -> [Person] {
        let query = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard (1...100).contains(query.count) else { throw Problem.invalid("q", "must be 1 to 100 characters") }
        try PlainText.requireNoNUL(query, field: "q")
        let escaped = query.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        let sql = db.sql
        let rows = try await sql.raw("""
            SELECT id FROM \(ident: User.schema)
            WHERE suspended_at IS NULL AND id <> \(bind: viewerID)
              AND (lower(display_name) LIKE \(bind: escaped + "%") ESCAPE '\\'
                   OR lower(display_name) LIKE \(bind: "% " + escaped + "%") ESCAPE '\\'
                   OR lower(username) LIKE \(bind: escaped + "%") ESCAPE '\\')
              AND id NOT IN (SELECT blocked_id FROM \(ident: UserBlock.schema) WHERE blocker_id = \(bind: viewerID))
              AND id NOT IN (SELECT blocker_id FROM \(ident: UserBlock.schema) WHERE blocked_id = \(bind: viewerID))
            ORDER BY display_name LIMIT 200
            """).all()
        let ids = try rows.map { try $0.decode(column: "id", as: UUID.self) }
        let found = try await people(ids, viewer: viewerID)
        func rank(_ person: Person) -> (Int, Int, String) {
            let exact = person.user.username == query ? 0 : 1
            let closeness = person.relationship == .friend ? 0 : 1
            return (exact, closeness, person.user.displayName.lowercased())
        }
        return Array(found.sorted { rank($0) < rank($1) }.prefix(limit))
    }

    func profile(_ id: UUID, viewer viewerID: UUID) async throws -> Profile {
        let user = try await visibleUser(id, to: viewerID)
        let relationship = try await graph.relationship(of: viewerID, to: id)
        let friendCount = try await Friendship.query(on: db).filter(\.$userID == id).count()
        let postCount = try await Post.query(on: db).filter(\.$authorID == id).filter(\.$hiddenAt == nil).count()
        let common = id == viewerID ? 0 : try await commonFriendCount(viewerID, id)
        let avatar = try await avatars(of: [user], viewer: viewerID, relationships: [id: relationship])[id]
        return Profile(
            person: Person(user: user, relationship: relationship, avatar: avatar), friendCount: friendCount, postCount: postCount,
            commonFriendCount: common)
    }

    private func commonFriendCount(_ a: UUID, _ b: UUID) async throws -> Int {
        let theirs = try await graph.friendIDs(of: b)
        guard !theirs.isEmpty else { return 0 }
        return try await Friendship.query(on: db).filter(\.$userID == a).filter(\.$friendID ~~ theirs).count()
    }
}
