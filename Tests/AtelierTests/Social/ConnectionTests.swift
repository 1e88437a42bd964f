import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Social: connections apart from friendships")
struct ConnectionTests {
    /// Ana hosts an ongoing public moment that Ben joins.
    private func metAtMoment(_ t: TestApp) async throws -> (ana: Session, ben: Session, moment: MomentBody) {
        let ana = try await t.signUp(name: "Ana Host")
        let ben = try await t.signUp(name: "Ben Guest")
        let moment = try await t.createMoment(ana, name: "Wedding", visibility: "public", startIn: -60, endIn: 3600)
        #expect(try await t.join(moment, ben).status == .ok)
        return (ana, ben, moment)
    }

    private func connectionCount(_ t: TestApp, _ people: [Session]) async throws -> Int {
        try await UserConnection.query(on: t.app.db).filter(\.$userID ~~ people.map { UUID(uuidString: $0.user.id)! }).count()
    }

    @Test("connected at a moment: they may invite each other to moments, but outfit posts and friends-only outfits stay closed")
    func connectionIsNotFriendship() async throws {
        try await TestApp.with { t in
            let (ana, ben, moment) = try await metAtMoment(t)
            let connected = try await t.send(.POST, "/api/v1/moments/\(moment.id)/members/\(ana.user.id)/connect", token: ben.accessToken)
            #expect(connected.status == .ok, "\(connected.body.string)")
            #expect(try connected.content.decode(UserSummaryBody.self).relationship == "connected")
            // Again changes nothing.
            #expect(try await t.send(.POST, "/api/v1/moments/\(moment.id)/members/\(ana.user.id)/connect", token: ben.accessToken).status == .ok)
            #expect(try await connectionCount(t, [ana, ben]) == 2)
            let anas = try await t.send(.GET, "/api/v1/me/connections", token: ana.accessToken).content.decode(UserPageBody.self)
            #expect(anas.items.map(\.id) == [ben.user.id] && anas.items[0].relationship == "connected")

            // Ana may now invite Ben to a private moment.
            let dinner = try await t.createMoment(ana, name: "Dinner", startIn: 3600, endIn: 7200)
            let invited = try await t.invite([ben], to: dinner, by: ana)
            #expect(invited.status.code < 300, "\(invited.body.string)")

            // Her outfit post, friends-only outfit and pins are not for a connection.
            let post = try await t.createdPost(ana)
            #expect(try await t.send(.GET, "/api/v1/posts/\(post.id)", token: ben.accessToken).status == .notFound)
            #expect(try await t.friendsFeed(ben).items.isEmpty)
            let profile = try await t.send(.GET, "/api/v1/users/\(ana.user.id)", token: ben.accessToken)
            struct ProfileBody: Decodable { var relationship: String; var pinnedOutfits: [OutfitBody] }
            #expect(try profile.content.decode(ProfileBody.self).relationship == "connected")

            // Friendship is its own step; it opens the post.
            try await t.befriend(ben, ana)
            #expect(try await t.send(.GET, "/api/v1/posts/\(post.id)", token: ben.accessToken).status == .ok)
            // A friend cannot be disconnected; once unfriended the connection stays, then ends.
            #expect(try await t.send(.DELETE, "/api/v1/me/connections/\(ana.user.id)", token: ben.accessToken).status == .conflict)
            #expect(try await t.send(.DELETE, "/api/v1/friends/\(ana.user.id)", token: ben.accessToken).status == .noContent)
            #expect(try await t.send(.GET, "/api/v1/posts/\(post.id)", token: ben.accessToken).status == .notFound)
            let after = try await t.send(.GET, "/api/v1/me/connections", token: ben.accessToken).content.decode(UserPageBody.self)
            #expect(after.items.map(\.relationship) == ["connected"])
            #expect(try await t.send(.DELETE, "/api/v1/me/connections/\(ana.user.id)", token: ben.accessToken).status == .noContent)
            #expect(try await t.send(.DELETE, "/api/v1/me/connections/\(ana.user.id)", token: ben.accessToken).status == .notFound)
            #expect(try await connectionCount(t, [ana, ben]) == 0)
        }
    }

    @Test(
        "bad connections are specific 4xx problems and connect nobody",
        arguments: ["self", "not-in-moment", "caller-not-in-moment", "unknown", "blocked", "garbled"])
    func refusals(kind: String) async throws {
        try await TestApp.with { t in
            let (ana, ben, moment) = try await metAtMoment(t)
            let cara = try await t.signUp(name: "Cara Outside")
            var caller = ben
            var target = ana.user.id
            var expected: (HTTPStatus, String?) = (.ok, nil)
            switch kind {
            case "self": (target, expected) = (ben.user.id, (.unprocessableEntity, "userId"))
            case "not-in-moment": (target, expected) = (cara.user.id, (.unprocessableEntity, "userId"))
            case "caller-not-in-moment": (caller, expected) = (cara, (.conflict, "momentId"))
            case "unknown": (target, expected) = (UUID().uuidString.lowercased(), (.unprocessableEntity, "userId"))
            case "garbled": (target, expected) = ("not-a-person", (.notFound, nil))
            default:
                #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(ben.user.id)", token: ana.accessToken).status.code < 300)
                expected = (.notFound, nil)
            }
            let response = try await t.send(.POST, "/api/v1/moments/\(moment.id)/members/\(target)/connect", token: caller.accessToken)
            #expect(response.status == expected.0, "\(kind): \(response.body.string)")
            if let field = expected.1 { #expect(try response.problem().fields == [field]) }
            #expect(try await connectionCount(t, [ana, ben, cara]) == 0)
        }
    }

    @Test("a block ends the connection; befriending connects; the migration connects every earlier friendship once")
    func blocksFriendsAndMigration() async throws {
        try await TestApp.with { t in
            let (ana, ben, moment) = try await metAtMoment(t)
            #expect(try await t.send(.POST, "/api/v1/moments/\(moment.id)/members/\(ben.user.id)/connect", token: ana.accessToken).status == .ok)
            #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(ana.user.id)", token: ben.accessToken).status.code < 300)
            #expect(try await connectionCount(t, [ana, ben]) == 0)

            let cara = try await t.signUp()
            let dan = try await t.signUp()
            try await t.befriend(cara, dan)
            #expect(try await connectionCount(t, [cara, dan]) == 2)
            // A friendship from before connections existed: its connection rows are missing until the migration runs.
            try await UserConnection.query(on: t.app.db).filter(\.$userID ~~ [UUID(uuidString: cara.user.id)!, UUID(uuidString: dan.user.id)!]).delete()
            try await CreateUserConnections.connectFriends(on: t.app.db)
            try await CreateUserConnections.connectFriends(on: t.app.db)
            #expect(try await connectionCount(t, [cara, dan]) == 2)
            let caras = try await t.send(.GET, "/api/v1/me/connections", token: cara.accessToken).content.decode(UserPageBody.self)
            #expect(caras.items.map(\.id) == [dan.user.id] && caras.items[0].relationship == "friend")
        }
    }
}
