import Fluent
import Foundation

/// Who stands how with whom: friendships, pending requests and blocks, read in batches.
struct SocialGraph {
    /// Strongest first where several hold: blocked, friend, a pending request, connected.
    enum Relationship: String, Sendable { case `self`, friend, requestSent, requestReceived, connected, blocked, none }

    let db: any Database

    func areFriends(_ a: UUID, _ b: UUID) async throws -> Bool {
        try await Friendship.query(on: db).filter(\.$userID == a).filter(\.$friendID == b).count() > 0
    }

    /// True when either blocked the other: then neither sees the other anywhere.
    func blockedEitherWay(_ a: UUID, _ b: UUID) async throws -> Bool {
        try await UserBlock.query(on: db).group(.or) { either in
            either.group(.and) { $0.filter(\.$blockerID == a).filter(\.$blockedID == b) }
            either.group(.and) { $0.filter(\.$blockerID == b).filter(\.$blockedID == a) }
        }.count() > 0
    }

    func hasBlocked(_ blocker: UUID, _ blocked: UUID) async throws -> Bool {
        try await UserBlock.query(on: db).filter(\.$blockerID == blocker).filter(\.$blockedID == blocked).count() > 0
    }

    /// Everyone `userID` blocked or was blocked by.
    func blockedPeople(of userID: UUID) async throws -> Set<UUID> {
        let blocks = try await UserBlock.query(on: db).group(.or) {
            $0.filter(\.$blockerID == userID).filter(\.$blockedID == userID)
        }.all()
        return Set(blocks.map { $0.blockerID == userID ? $0.blockedID : $0.blockerID })
    }

    func areConnected(_ a: UUID, _ b: UUID) async throws -> Bool {
        try await UserConnection.query(on: db).filter(\.$userID == a).filter(\.$otherID == b).count() > 0
    }

    /// Everyone `userID` may invite to a moment: their connections (friends are connected too).
    func connectionIDs(of userID: UUID) async throws -> [UUID] {
        try await UserConnection.query(on: db).filter(\.$userID == userID).all(\.$otherID)
    }

    func friendIDs(of userID: UUID) async throws -> [UUID] {
        try await Friendship.query(on: db).filter(\.$userID == userID).all(\.$friendID)
    }

    func relationship(of viewer: UUID, to other: UUID) async throws -> Relationship {
        try await relationships(of: viewer, to: [other])[other] ?? .none
    }

    /// How `viewer` stands with each of `others`, in four queries whatever their number.
    func relationships(of viewer: UUID, to others: [UUID]) async throws -> [UUID: Relationship] {
        let ids = Array(Set(others).subtracting([viewer]))
        var result: [UUID: Relationship] = others.contains(viewer) ? [viewer: .self] : [:]
        guard !ids.isEmpty else { return result }
        for id in ids { result[id] = Relationship.none }
        for connection in try await UserConnection.query(on: db).filter(\.$userID == viewer).filter(\.$otherID ~~ ids).all() {
            result[connection.otherID] = .connected
        }
        for request in try await FriendRequest.query(on: db).filter(\.$fromID == viewer).filter(\.$toID ~~ ids).all() {
            result[request.toID] = .requestSent
        }
        for request in try await FriendRequest.query(on: db).filter(\.$toID == viewer).filter(\.$fromID ~~ ids).all() {
            result[request.fromID] = .requestReceived
        }
        for friendship in try await Friendship.query(on: db).filter(\.$userID == viewer).filter(\.$friendID ~~ ids).all() {
            result[friendship.friendID] = .friend
        }
        for block in try await UserBlock.query(on: db).filter(\.$blockerID == viewer).filter(\.$blockedID ~~ ids).all() {
            result[block.blockedID] = .blocked
        }
        return result
    }
}
