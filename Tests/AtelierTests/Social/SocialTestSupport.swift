import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct UserSummaryBody: Decodable {
    var id: String
    var displayName: String
    var username: String
    var relationship: String
    var avatar: ImageBody?
}

struct UserPageBody: Decodable {
    var items: [UserSummaryBody]
    var nextCursor: String?
}

struct ReactionSummaryBody: Decodable {
    struct Count: Decodable { var kind: String; var count: Int }
    var total: Int
    var counts: [Count]
    var mine: String?
}

struct PostBody: Decodable {
    var id: String
    var author: UserSummaryBody
    var photo: ImageBody
    var caption: String
    var day: String
    var timeZone: String
    var reactions: ReactionSummaryBody
    var commentCount: Int
    var hidden: Bool
    var canEdit: Bool
}

struct FriendsFeedBody: Decodable {
    var items: [PostBody]
    var nextCursor: String?
    var today: String
    var postedToday: Bool
    var hiddenToday: Int
}

struct CommentBody: Decodable {
    var id: String
    var body: String
    var author: UserSummaryBody
    var canDelete: Bool
}

struct CommentPageBody: Decodable {
    var items: [CommentBody]
    var nextCursor: String?
}

struct NotificationBody: Decodable {
    var id: String
    var kind: String
    var text: String
    var link: String
    var webUrl: String?
    var actor: UserSummaryBody?
    var readAt: String?
}

struct NotificationPageBody: Decodable {
    var items: [NotificationBody]
    var nextCursor: String?
    var unreadCount: Int
}

extension TestApp {
    /// Makes `a` and `b` friends through the API (a asks, b accepts).
    func befriend(_ a: Session, _ b: Session) async throws {
        let asked = try await send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(b.user.id)"}"#, token: a.accessToken)
        #expect(asked.status == .created, "\(asked.body.string)")
        let accepted = try await send(.POST, "/api/v1/friends/requests/\(a.user.id)/accept", token: b.accessToken)
        #expect(accepted.status == .ok, "\(accepted.body.string)")
    }

    /// A post with a freshly uploaded photo; returns the response for the caller to check.
    func post(_ session: Session, caption: String = "Today's fit") async throws -> TestingHTTPResponse {
        let photo = try await uploadPhoto(token: session.accessToken, width: 64, height: 80)
        let json = try String(decoding: JSONEncoder().encode(["mediaId": photo, "caption": caption]), as: UTF8.self)
        return try await send(.POST, "/api/v1/posts", json: json, token: session.accessToken)
    }

    func createdPost(_ session: Session, caption: String = "Today's fit") async throws -> PostBody {
        let response = try await post(session, caption: caption)
        #expect(response.status == .created, "\(response.body.string)")
        return try response.content.decode(PostBody.self)
    }

    func setTimeZone(_ zone: String, for session: Session) async throws {
        let response = try await send(.PATCH, "/api/v1/me", json: #"{"timeZone":"\#(zone)"}"#, token: session.accessToken)
        #expect(response.status == .ok, "\(response.body.string)")
    }

    /// A new access token for `session`'s user, for tests that move the clock past token expiry.
    func refreshed(_ session: Session) async throws -> Session {
        guard let user = try await User.find(UUID(uuidString: session.user.id), on: app.db) else { throw Problem.notFound("user") }
        let issued = try await SessionService(db: app.db, core: app.core).issue(for: user)
        var fresh = session
        fresh.accessToken = issued.accessToken
        fresh.refreshToken = issued.refreshToken
        return fresh
    }

    func friendsFeed(_ session: Session) async throws -> FriendsFeedBody {
        let response = try await send(.GET, "/api/v1/feed/friends?limit=50", token: session.accessToken)
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.content.decode(FriendsFeedBody.self)
    }

    func notifications(_ session: Session) async throws -> NotificationPageBody {
        let response = try await send(.GET, "/api/v1/me/notifications", token: session.accessToken)
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.content.decode(NotificationPageBody.self)
    }

    func makeAdmin(_ session: Session) async throws {
        let user = try #require(try await User.find(UUID(uuidString: session.user.id), on: app.db))
        user.isAdmin = true
        try await user.save(on: app.db)
    }
}
