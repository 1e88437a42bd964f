import Fluent
import Foundation
import Testing
import VaporTesting
import ZIPFoundation

@testable import Atelier

@Suite("Social: friends, people search and blocking")
struct FriendsAndBlockingTests {
    @Test("request, cancel, decline, accept, crossing requests, lists, common friends, remove")
    func friendships() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Ana Pop")
            let ben = try await t.signUp(name: "Ben Ionescu")
            let cleo = try await t.signUp(name: "Cleo Marin")

            // Ana asks Ben, then takes it back.
            try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(ben.user.id)"}"#, token: ana.accessToken)
            #expect(try await t.send(.GET, "/api/v1/friends/requests/outgoing", token: ana.accessToken).content
                .decode(FriendRequestPageBody.self).items.map(\.user.id) == [ben.user.id.lowercased()])
            #expect(try await t.send(.DELETE, "/api/v1/friends/requests/\(ben.user.id)", token: ana.accessToken).status == .noContent)
            #expect(try await t.send(.DELETE, "/api/v1/friends/requests/\(ben.user.id)", token: ana.accessToken).status == .notFound)
            // Ana asks again; Ben declines.
            try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(ben.user.id)"}"#, token: ana.accessToken)
            let incoming = try await t.send(.GET, "/api/v1/friends/requests/incoming", token: ben.accessToken)
            #expect(try incoming.content.decode(FriendRequestPageBody.self).items.map(\.user.relationship) == ["requestReceived"])
            #expect(try await t.send(.POST, "/api/v1/friends/requests/\(ana.user.id)/decline", token: ben.accessToken).status == .noContent)
            #expect(try await t.send(.POST, "/api/v1/friends/requests/\(ana.user.id)/accept", token: ben.accessToken).status == .notFound)

            // Requests in both directions make a friendship.
            try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(ben.user.id)"}"#, token: ana.accessToken)
            let crossing = try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(ana.user.id)"}"#, token: ben.accessToken)
            struct Result: Decodable { var state: String; var user: UserSummaryBody }
            let result = try crossing.content.decode(Result.self)
            #expect(result.state == "friends" && result.user.relationship == "friend")
            #expect(try await t.send(.GET, "/api/v1/friends/requests/incoming", token: ana.accessToken).content
                .decode(FriendRequestPageBody.self).items.isEmpty)
            let again = try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(ben.user.id)"}"#, token: ana.accessToken)
            #expect(again.status == .conflict)

            // Cleo befriends both; Ana and Ben have Cleo in common.
            try await t.befriend(cleo, ana)
            try await t.befriend(cleo, ben)
            let common = try await t.send(.GET, "/api/v1/users/\(ben.user.id)/common-friends", token: ana.accessToken)
            #expect(try common.content.decode(UserPageBody.self).items.map(\.id) == [cleo.user.id.lowercased()])
            let friends = try await t.send(.GET, "/api/v1/friends", token: cleo.accessToken)
            #expect(Set(try friends.content.decode(UserPageBody.self).items.map(\.id)) == [ana.user.id.lowercased(), ben.user.id.lowercased()])
            struct ProfileBody: Decodable { var friendCount: Int; var commonFriendCount: Int; var relationship: String; var pinnedOutfits: [String] }
            let profile = try await t.send(.GET, "/api/v1/users/\(cleo.user.id)", token: ana.accessToken).content.decode(ProfileBody.self)
            #expect(profile.friendCount == 2 && profile.commonFriendCount == 1 && profile.relationship == "friend")

            // Removing ends it for both.
            #expect(try await t.send(.DELETE, "/api/v1/friends/\(ana.user.id)", token: ben.accessToken).status == .noContent)
            #expect(try await t.send(.GET, "/api/v1/friends", token: ana.accessToken).content.decode(UserPageBody.self)
                .items.map(\.id) == [cleo.user.id.lowercased()])
            #expect(try await t.send(.DELETE, "/api/v1/friends/\(ana.user.id)", token: ben.accessToken).status == .notFound)
        }
    }

    @Test("people search: prefix of any name word or the username, friends first, blocked people hidden")
    func search() async throws {
        try await TestApp.with { t in
            let me = try await t.signUp(name: "Searcher")
            let tag = String(UUID().uuidString.prefix(6)).lowercased()
            let friend = try await t.signUp(name: "Zed \(tag)Friend")
            let stranger = try await t.signUp(name: "\(tag)Stranger Person")
            let blocker = try await t.signUp(name: "\(tag)Blocker")
            try await t.befriend(me, friend)
            try await t.send(.PUT, "/api/v1/me/blocks/\(me.user.id)", token: blocker.accessToken)
            let found = try await t.send(.GET, "/api/v1/users/search?q=\(tag.uppercased())", token: me.accessToken)
            #expect(try found.content.decode(UserPageBody.self).items.map(\.id) == [friend.user.id.lowercased(), stranger.user.id.lowercased()])
            let byUsername = try await t.send(.GET, "/api/v1/users/search?q=\(stranger.user.username.prefix(8))", token: me.accessToken)
            #expect(try byUsername.content.decode(UserPageBody.self).items.map(\.id).contains(stranger.user.id.lowercased()))
            let wildcard = try await t.send(.GET, "/api/v1/users/search?q=%25", token: me.accessToken)
            #expect(try wildcard.content.decode(UserPageBody.self).items.isEmpty)
        }
    }

    @Test("after A blocks B: B gets 404 for A's profile, posts and comments, cannot ask A to be friends, and the friendship is gone")
    func blocking() async throws {
        try await TestApp.with { t in
            let a = try await t.signUp(name: "Alma")
            let b = try await t.signUp(name: "Bogdan")
            let c = try await t.signUp(name: "Cora")
            try await t.befriend(a, b)
            try await t.befriend(c, a)
            try await t.befriend(c, b)
            let aPost = try await t.createdPost(a, caption: "A's outfit")
            let cPost = try await t.createdPost(c, caption: "C's outfit")
            let aComment = try await t.send(.POST, "/api/v1/posts/\(cPost.id)/comments", json: #"{"body":"Love it (A)"}"#, token: a.accessToken)
            let aCommentID = try aComment.content.decode(CommentBody.self).id
            try await t.send(.POST, "/api/v1/posts/\(cPost.id)/comments", json: #"{"body":"Nice (B)"}"#, token: b.accessToken)
            #expect(try await t.send(.GET, "/api/v1/posts/\(aPost.id)", token: b.accessToken).status == .ok)

            #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(b.user.id)", token: a.accessToken).status == .noContent)

            #expect(try await t.send(.GET, "/api/v1/users/\(a.user.id)", token: b.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/posts/\(aPost.id)", token: b.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/media/\(aPost.photo.id)", token: b.accessToken).status == .notFound)
            let comments = try await t.send(.GET, "/api/v1/posts/\(cPost.id)/comments", token: b.accessToken)
            #expect(try comments.content.decode(CommentPageBody.self).items.map(\.body) == ["Nice (B)"])
            #expect(try await t.send(.DELETE, "/api/v1/posts/\(cPost.id)/comments/\(aCommentID)", token: b.accessToken).status == .notFound)
            #expect(try await t.friendsFeed(b).items.allSatisfy { $0.author.id != a.user.id.lowercased() })
            let ask = try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(a.user.id)"}"#, token: b.accessToken)
            #expect(ask.status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/friends", token: b.accessToken).content.decode(UserPageBody.self)
                .items.map(\.id) == [c.user.id.lowercased()])
            #expect(try await t.send(.GET, "/api/v1/users/search?q=Alma", token: b.accessToken).content.decode(UserPageBody.self).items.isEmpty)
            // The blocker sees the block (to undo it) but cannot send requests while it lasts.
            let blocks = try await t.send(.GET, "/api/v1/me/blocks", token: a.accessToken)
            #expect(try blocks.content.decode(UserPageBody.self).items.map(\.relationship) == ["blocked"])
            let aAsks = try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(b.user.id)"}"#, token: a.accessToken)
            #expect(aAsks.status == .conflict)

            // Unblocking restores visibility, not the friendship.
            #expect(try await t.send(.DELETE, "/api/v1/me/blocks/\(b.user.id)", token: a.accessToken).status == .noContent)
            #expect(try await t.send(.GET, "/api/v1/users/\(a.user.id)", token: b.accessToken).status == .ok)
            #expect(try await t.send(.GET, "/api/v1/posts/\(aPost.id)", token: b.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/posts/\(cPost.id)/comments", token: b.accessToken).content
                .decode(CommentPageBody.self).items.count == 2)
        }
    }

    @Test("a stranger gets 404 for a friends-only post and its photo; a friend gets both")
    func strangers() async throws {
        try await TestApp.with { t in
            let author = try await t.signUp(name: "Author")
            let friend = try await t.signUp(name: "Friend")
            let stranger = try await t.signUp(name: "Stranger")
            try await t.befriend(author, friend)
            let post = try await t.createdPost(author)
            #expect(try await t.send(.GET, "/api/v1/posts/\(post.id)", token: stranger.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/media/\(post.photo.id)", token: stranger.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/posts/\(post.id)/comments", token: stranger.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/posts/\(post.id)", token: friend.accessToken).status == .ok)
            #expect(try await t.send(.GET, "/api/v1/media/\(post.photo.id)", token: friend.accessToken).status == .ok)
            // The photo is served only by signed, expiring URLs.
            #expect(post.photo.variants.allSatisfy { $0.url.contains("/media/private/") && $0.url.contains("signature=") })
        }
    }

    @Test("bad input: a request to oneself, unknown people, blocking oneself")
    func badInput() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let toSelf = try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(s.user.id)"}"#, token: s.accessToken)
            #expect(toSelf.status == .unprocessableEntity)
            #expect(try toSelf.problem().fields == ["userId"])
            let unknown = try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(UUID())"}"#, token: s.accessToken)
            #expect(unknown.status == .notFound)
            let garbage = try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"nope"}"#, token: s.accessToken)
            #expect(garbage.status == .unprocessableEntity)
            #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(s.user.id)", token: s.accessToken).status == .unprocessableEntity)
            #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(UUID())", token: s.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/users/search?q=", token: s.accessToken).status.code / 100 == 4)
        }
    }
}

struct FriendRequestPageBody: Decodable {
    struct Item: Decodable { var user: UserSummaryBody }
    var items: [Item]
}

@Suite("Social: blocking reaches boards; accounts with social data can be deleted")
struct SocialEdgesTests {
    @Test("a blocker's public board is a 404 to the person blocked, and to nobody else")
    func blockedBoards() async throws {
        try await TestApp.with { t in
            let owner = try await t.signUp(name: "Board Owner")
            let blocked = try await t.signUp(name: "Blocked One")
            let other = try await t.signUp(name: "Other One")
            let board = try await t.send(.POST, "/api/v1/me/boards", json: #"{"name":"Shared","isPublic":true}"#, token: owner.accessToken)
            struct BoardRef: Decodable { var id: String }
            let id = try board.content.decode(BoardRef.self).id
            try await t.send(.PUT, "/api/v1/me/blocks/\(blocked.user.id)", token: owner.accessToken)
            #expect(try await t.send(.GET, "/api/v1/boards/\(id)", token: blocked.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/boards/\(id)/items", token: blocked.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/boards/\(id)", token: other.accessToken).status == .ok)
            #expect(try await t.send(.GET, "/api/v1/boards/\(id)", token: owner.accessToken).status == .ok)
        }
    }

    @Test("deleting an account takes its posts, reactions, comments, friendships, blocks and inbox with it")
    func deletion() async throws {
        try await TestApp.with { t in
            let leaving = try await t.signUp(name: "Leaving")
            let staying = try await t.signUp(name: "Staying")
            try await t.befriend(leaving, staying)
            let theirPost = try await t.createdPost(leaving)
            let myPost = try await t.createdPost(staying)
            try await t.send(.PUT, "/api/v1/posts/\(myPost.id)/reaction", json: #"{"kind":"heart"}"#, token: leaving.accessToken)
            try await t.send(.POST, "/api/v1/posts/\(myPost.id)/comments", json: #"{"body":"bye"}"#, token: leaving.accessToken)
            try await t.send(.POST, "/api/v1/posts/\(theirPost.id)/comments", json: #"{"body":"see you"}"#, token: staying.accessToken)
            let user = try #require(try await User.find(UUID(uuidString: leaving.user.id), on: t.app.db))
            try await AccountDeletion(db: t.app.db, core: t.app.core, accountParts: t.app.atelier.accountParts).delete(user)

            let mine = try await t.send(.GET, "/api/v1/posts/\(myPost.id)", token: staying.accessToken).content.decode(PostBody.self)
            #expect(mine.reactions.total == 0 && mine.commentCount == 0)
            #expect(try await t.send(.GET, "/api/v1/friends", token: staying.accessToken).content.decode(UserPageBody.self).items.isEmpty)
            #expect(try await Post.find(UUID(uuidString: theirPost.id), on: t.app.db) == nil)
            #expect(try await t.friendsFeed(staying).items.map(\.id) == [myPost.id])
            // Notifications naming the leaver go too.
            #expect(try await t.notifications(staying).items.isEmpty)
        }
    }

    @Test("the data export holds my posts with their original photos, my comments, friends and blocks")
    func export() async throws {
        try await TestApp.with { t in
            let me = try await t.signUp(name: "Exporter")
            let friend = try await t.signUp(name: "Exported Friend")
            try await t.befriend(me, friend)
            let post = try await t.createdPost(me, caption: "Export this coat")
            try await t.send(.POST, "/api/v1/posts/\(post.id)/comments", json: #"{"body":"my own comment"}"#, token: me.accessToken)
            let response = try await t.send(.GET, "/api/v1/me/export", token: me.accessToken)
            #expect(response.status == .ok)
            let archive = try Archive(data: Data(buffer: response.body), accessMode: .read)
            func text(_ name: String) throws -> String {
                let entry = try #require(archive["atelier-export/\(name)"], "\(name) is missing")
                var data = Data()
                _ = try archive.extract(entry) { data.append($0) }
                return String(decoding: data, as: UTF8.self)
            }
            #expect(try text("posts.json").contains("Export this coat"))
            #expect(try text("comments.json").contains("my own comment"))
            #expect(try text("friends.json").contains("Exported Friend"))
            let photo = try #require(archive.first { $0.path.hasPrefix("atelier-export/photos/posts/\(post.day).") })
            var bytes = Data()
            _ = try archive.extract(photo) { bytes.append($0) }
            let media = try #require(try await Media.find(UUID(uuidString: post.photo.id), on: t.app.db))
            #expect(bytes.count == media.byteSize && bytes.count > 0)
        }
    }
}
