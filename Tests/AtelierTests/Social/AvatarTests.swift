import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct AvatarHistoryBody: Decodable {
    var current: ImageBody?
    var history: [ImageBody]
}

extension TestApp {
    /// Uploads a public photo cropped to a square and makes it the caller's picture.
    func setAvatar(_ session: Session, width: Int = 300, height: Int = 200, crop: String? = "50,0,200,200") async throws -> ImageBody {
        let query = "?visibility=public" + (crop.map { "&crop=\($0)" } ?? "")
        let uploaded = try await upload(try TestImages.png(width: width, height: height), contentType: "image/png", query: query, token: session.accessToken)
        #expect(uploaded.status == .created, "\(uploaded.body.string)")
        let id = try uploaded.content.decode(ImageBody.self).id
        let set = try await send(.PUT, "/api/v1/me/avatar", json: #"{"mediaId":"\#(id)"}"#, token: session.accessToken)
        #expect(set.status == .ok, "\(set.body.string)")
        return try set.content.decode(ImageBody.self)
    }

    func avatarMediaID(_ session: Session) async throws -> UUID? {
        try await User.find(UUID(uuidString: session.user.id), on: app.db)?.avatarMediaID
    }
}

@Suite("Social: profile pictures")
struct AvatarTests {
    @Test("a cropped picture shows on the profile, in a friend's list, on a comment and a moment photo; its file is public")
    func shownEverywhere() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Ana")
            let ben = try await t.signUp(name: "Ben")
            try await t.befriend(ana, ben)
            let picture = try await t.setAvatar(ana)
            #expect(picture.width == 200 && picture.height == 200, "the square the person chose")

            let profile = try await t.send(.GET, "/api/v1/users/\(ana.user.id)", token: ben.accessToken)
            struct ProfileBody: Decodable { var avatar: ImageBody? }
            #expect(try profile.content.decode(ProfileBody.self).avatar?.id == picture.id)
            let friends = try await t.send(.GET, "/api/v1/friends", token: ben.accessToken).content.decode(UserPageBody.self)
            #expect(friends.items.first { $0.id == ana.user.id }?.avatar?.id == picture.id)

            let post = try await t.createdPost(ben)
            let commented = try await t.send(.POST, "/api/v1/posts/\(post.id)/comments", json: #"{"body":"Love it"}"#, token: ana.accessToken)
            #expect(commented.status == .created, "\(commented.body.string)")
            #expect(try commented.content.decode(CommentBody.self).author.avatar?.id == picture.id)
            let comments = try await t.send(.GET, "/api/v1/posts/\(post.id)/comments", token: ben.accessToken).content.decode(CommentPageBody.self)
            #expect(comments.items.first?.author.avatar?.id == picture.id)

            // Anyone may load the picture itself: a stable public URL.
            let url = try #require(picture.variants.first?.url)
            #expect(url.contains("/media/public/"))
            #expect(try await t.fetch(url).status == .ok)
            // Ben has none: his summaries carry no avatar at all.
            #expect(try await t.friendsFeed(ana).items.first?.author.avatar == nil)
        }
    }

    @Test("history: an earlier picture is picked again, removing shows the initial, deleting takes the files")
    func history() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp()
            let first = try await t.setAvatar(ana)
            t.clock.advance(by: 1)
            let second = try await t.setAvatar(ana, width: 400, height: 400, crop: nil)
            var history = try await t.send(.GET, "/api/v1/me/avatar", token: ana.accessToken).content.decode(AvatarHistoryBody.self)
            #expect(history.current?.id == second.id)
            #expect(history.history.map(\.id) == [second.id, first.id])

            t.clock.advance(by: 1)
            #expect(try await t.send(.PUT, "/api/v1/me/avatar", json: #"{"mediaId":"\#(first.id)"}"#, token: ana.accessToken).status == .ok)
            history = try await t.send(.GET, "/api/v1/me/avatar", token: ana.accessToken).content.decode(AvatarHistoryBody.self)
            #expect(history.current?.id == first.id && history.history.map(\.id) == [first.id, second.id])

            #expect(try await t.send(.DELETE, "/api/v1/me/avatar", token: ana.accessToken).status == .noContent)
            history = try await t.send(.GET, "/api/v1/me/avatar", token: ana.accessToken).content.decode(AvatarHistoryBody.self)
            #expect(history.current == nil && history.history.count == 2)
            #expect(try await t.avatarMediaID(ana) == nil)

            #expect(try await t.send(.DELETE, "/api/v1/me/avatar/history/\(second.id)", token: ana.accessToken).status == .noContent)
            #expect(try await Media.find(UUID(uuidString: second.id), on: t.app.db) == nil)
            #expect(try await t.fetch(second.variants[0].url).status == .notFound)
            // Somebody else cannot delete or use Ana's picture.
            let ben = try await t.signUp()
            #expect(try await t.send(.DELETE, "/api/v1/me/avatar/history/\(first.id)", token: ben.accessToken).status == .notFound)
            #expect(try await t.send(.PUT, "/api/v1/me/avatar", json: #"{"mediaId":"\#(first.id)"}"#, token: ben.accessToken).status == .notFound)
            #expect(try await t.avatarMediaID(ben) == nil)
        }
    }

    @Test(
        "bad choices are specific 4xx problems and change nothing",
        arguments: ["not-an-id", "missing", "in-a-post", "no-body"])
    func badChoices(kind: String) async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp()
            let kept = try await t.setAvatar(ana)
            let (json, statuses, field): (String, [HTTPStatus], String?) =
                switch kind {
                case "not-an-id": (#"{"mediaId":"../etc"}"#, [.unprocessableEntity], "mediaId")
                case "missing": (#"{"mediaId":"\#(UUID().uuidString.lowercased())"}"#, [.notFound], nil)
                case "in-a-post":
                    (#"{"mediaId":"\#(try await t.createdPost(ana).photo.id)"}"#, [.conflict], "mediaId")
                default: (#"{}"#, [.badRequest, .unprocessableEntity], nil)
                }
            let response = try await t.send(.PUT, "/api/v1/me/avatar", json: json, token: ana.accessToken)
            #expect(statuses.contains(response.status), "\(kind): \(response.body.string)")
            _ = try response.problem()
            if let field { #expect(try response.problem().fields == [field]) }
            #expect(try await t.avatarMediaID(ana)?.idString == kept.id)
        }
    }

    @Test("a blocked person gets no avatar URL, either way round")
    func blockedGetNoAvatar() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp()
            let ben = try await t.signUp()
            _ = try await t.setAvatar(ana)
            _ = try await t.setAvatar(ben)
            #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(ben.user.id)", token: ana.accessToken).status.code < 300)
            let blocked = try await t.send(.GET, "/api/v1/me/blocks", token: ana.accessToken).content.decode(UserPageBody.self)
            #expect(blocked.items.map(\.id) == [ben.user.id])
            #expect(blocked.items[0].avatar == nil)
            // Ben, whom Ana blocked, sees her without a picture wherever she is still named.
            let people = try await PeopleDirectory(db: t.app.db, core: t.app.core, mediaLibrary: t.app.atelier.media)
                .people([UUID(uuidString: ana.user.id)!], viewer: UUID(uuidString: ben.user.id)!)
            #expect(people.count == 1 && people[0].avatar == nil)
            let stranger = try await t.signUp()
            let seen = try await PeopleDirectory(db: t.app.db, core: t.app.core, mediaLibrary: t.app.atelier.media)
                .people([UUID(uuidString: ana.user.id)!], viewer: UUID(uuidString: stranger.user.id)!)
            #expect(seen.first?.avatar != nil)
        }
    }

    @Test("a moment photo as the avatar keeps the earlier picture in the history; deleting the account removes every picture")
    func momentPhotoAndDeletion() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp()
            let first = try await t.setAvatar(ana)
            let moment = try await t.createMoment(ana, name: "Picnic", startIn: -60, endIn: 3600)
            let photo = try await t.momentPhoto(moment, ana)
            let used = try await t.send(.POST, "/api/v1/moments/\(moment.id)/photos/\(photo.id)/avatar", token: ana.accessToken)
            #expect(used.status == .ok, "\(used.body.string)")
            let history = try await t.send(.GET, "/api/v1/me/avatar", token: ana.accessToken).content.decode(AvatarHistoryBody.self)
            #expect(history.history.count == 2 && history.history.contains { $0.id == first.id })
            #expect(history.current?.id == (try used.content.decode(ImageBody.self).id))

            let userID = UUID(uuidString: ana.user.id)!
            let response = try await t.send(.DELETE, "/api/v1/me", json: #"{"password":"\#(TestApp.password)"}"#, token: ana.accessToken)
            #expect(response.status == .noContent, "\(response.body.string)")
            #expect(try await Media.query(on: t.app.db).filter(\.$ownerType == AvatarService.mediaOwnerType).filter(\.$ownerID == userID).count() == 0)
            #expect(try await t.fetch(first.variants[0].url).status == .notFound)
        }
    }
}
