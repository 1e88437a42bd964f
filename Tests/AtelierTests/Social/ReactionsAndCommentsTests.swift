import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Social: reactions, comments and bad input on posts")
struct ReactionsAndCommentsTests {
    @Test("100 concurrent reactions from 100 users give a count of 100")
    func concurrentReactions() async throws {
        try await TestApp.with { t in
            let author = try await t.signUp(name: "Popular")
            let post = try await t.createdPost(author)
            let fans = try await t.signUpMany(100)
            let authorID = UUID(uuidString: author.user.id)!
            for fan in fans {
                try await FriendService.befriend(authorID, UUID(uuidString: fan.user.id)!, on: t.app.db, now: t.clock.now())
            }
            let kinds = ["heart", "fire", "clap", "wow"]
            let codes = try await withThrowingTaskGroup(of: UInt.self) { group in
                for (index, fan) in fans.enumerated() {
                    group.addTask {
                        try await t.send(.PUT, "/api/v1/posts/\(post.id)/reaction", json: #"{"kind":"\#(kinds[index % 4])"}"#,
                                         token: fan.accessToken).status.code
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(codes.allSatisfy { $0 == 200 }, "\(Set(codes))")
            let stored = try await t.send(.GET, "/api/v1/posts/\(post.id)", token: author.accessToken).content.decode(PostBody.self)
            #expect(stored.reactions.total == 100)
            #expect(stored.reactions.counts.map(\.count) == [25, 25, 25, 25])
            // One per person: reacting again with another kind replaces, never adds.
            let changed = try await t.send(.PUT, "/api/v1/posts/\(post.id)/reaction", json: #"{"kind":"laugh"}"#, token: fans[0].accessToken)
            let summary = try changed.content.decode(ReactionSummaryBody.self)
            #expect(summary.total == 100 && summary.mine == "laugh")
            let removed = try await t.send(.DELETE, "/api/v1/posts/\(post.id)/reaction", token: fans[0].accessToken)
            #expect(try removed.content.decode(ReactionSummaryBody.self).total == 99)
            // The author heard of each first reaction once.
            let inbox = try await InboxEntry.query(on: t.app.db).filter(\.$recipientID == authorID).filter(\.$kind == "reaction").count()
            #expect(inbox == 100)
        }
    }

    @Test("comments: oldest first, paged; their author or the post's author deletes them, nobody else")
    func comments() async throws {
        try await TestApp.with { t in
            let author = try await t.signUp(name: "Author")
            let friend = try await t.signUp(name: "Friend")
            let other = try await t.signUp(name: "Other friend")
            try await t.befriend(author, friend)
            try await t.befriend(author, other)
            let post = try await t.createdPost(author)
            var ids: [String] = []
            for index in 0..<5 {
                t.clock.advance(by: 1)
                let response = try await t.send(.POST, "/api/v1/posts/\(post.id)/comments", json: #"{"body":"  comment \#(index)  "}"#,
                                                token: index % 2 == 0 ? friend.accessToken : other.accessToken)
                #expect(response.status == .created, "\(response.body.string)")
                ids.append(try response.content.decode(CommentBody.self).id)
            }
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await t.send(.GET, "/api/v1/posts/\(post.id)/comments?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""),
                                            token: other.accessToken).content.decode(CommentPageBody.self)
                seen += page.items.map(\.body)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == (0..<5).map { "comment \($0)" })

            // Other may not delete Friend's comment; Friend may; the post's author may delete Other's.
            #expect(try await t.send(.DELETE, "/api/v1/posts/\(post.id)/comments/\(ids[0])", token: other.accessToken).status == .forbidden)
            #expect(try await t.send(.DELETE, "/api/v1/posts/\(post.id)/comments/\(ids[0])", token: friend.accessToken).status == .noContent)
            #expect(try await t.send(.DELETE, "/api/v1/posts/\(post.id)/comments/\(ids[1])", token: author.accessToken).status == .noContent)
            let left = try await t.send(.GET, "/api/v1/posts/\(post.id)/comments", token: author.accessToken).content.decode(CommentPageBody.self)
            #expect(left.items.map(\.body) == ["comment 2", "comment 3", "comment 4"])
            #expect(left.items.allSatisfy { $0.canDelete })
            #expect(try await t.send(.GET, "/api/v1/posts/\(post.id)", token: friend.accessToken).content.decode(PostBody.self).commentCount == 3)
        }
    }

    @Test("bad input: a 501-character caption, a reaction not in the set, a comment on a post one cannot see, editing another's post")
    func badInput() async throws {
        try await TestApp.with { t in
            let author = try await t.signUp(name: "Author")
            let friend = try await t.signUp(name: "Friend")
            let stranger = try await t.signUp(name: "Stranger")
            try await t.befriend(author, friend)

            let long = try await t.post(author, caption: String(repeating: "a", count: 501))
            #expect(long.status == .unprocessableEntity)
            #expect(try long.problem().fields == ["caption"])
            #expect(try await Post.query(on: t.app.db).filter(\.$authorID == UUID(uuidString: author.user.id)!).count() == 0)

            let post = try await t.createdPost(author, caption: String(repeating: "b", count: 500))
            let reaction = try await t.send(.PUT, "/api/v1/posts/\(post.id)/reaction", json: #"{"kind":"thumbsdown"}"#, token: friend.accessToken)
            #expect(reaction.status == .unprocessableEntity)
            #expect(try reaction.problem().fields == ["kind"])

            let comment = try await t.send(.POST, "/api/v1/posts/\(post.id)/comments", json: #"{"body":"hi"}"#, token: stranger.accessToken)
            #expect(comment.status == .notFound)
            let empty = try await t.send(.POST, "/api/v1/posts/\(post.id)/comments", json: #"{"body":"   "}"#, token: friend.accessToken)
            #expect(try empty.problem().fields == ["body"])
            let tooLong = try await t.send(.POST, "/api/v1/posts/\(post.id)/comments",
                                           json: #"{"body":"\#(String(repeating: "c", count: 1001))"}"#, token: friend.accessToken)
            #expect(tooLong.status == .unprocessableEntity)

            let edit = try await t.send(.PATCH, "/api/v1/posts/\(post.id)", json: #"{"caption":"mine now"}"#, token: friend.accessToken)
            #expect(edit.status == .forbidden)
            let ownEdit = try await t.send(.PATCH, "/api/v1/posts/\(post.id)", json: #"{"caption":"  new words "}"#, token: author.accessToken)
            #expect(try ownEdit.content.decode(PostBody.self).caption == "new words")

            // Someone else's photo, or one already used, cannot be posted.
            let theirs = try await t.uploadPhoto(token: friend.accessToken, width: 64, height: 80)
            let foreign = try await t.send(.POST, "/api/v1/posts", json: #"{"mediaId":"\#(theirs)"}"#, token: stranger.accessToken)
            #expect(foreign.status == .notFound)
            let reused = try await t.send(.POST, "/api/v1/posts", json: #"{"mediaId":"\#(post.photo.id)"}"#, token: friend.accessToken)
            #expect(reused.status == .notFound)

            // Deleting the post takes its photo with it.
            #expect(try await t.send(.DELETE, "/api/v1/posts/\(post.id)", token: author.accessToken).status == .noContent)
            #expect(try await Media.find(UUID(uuidString: post.photo.id), on: t.app.db) == nil)
            #expect(try await t.send(.GET, "/api/v1/posts/\(post.id)", token: author.accessToken).status == .notFound)
        }
    }
}
