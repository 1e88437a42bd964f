import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

@Suite("Wardrobe: outfit likes and trending outfits")
struct OutfitLikeTests {
    struct LikeBody: Decodable { var liked: Bool; var likeCount: Int }
    struct LikedOutfit: Decodable {
        struct Owner: Decodable { var id: String; var displayName: String }
        var id: String; var likeCount: Int; var liked: Bool; var owner: Owner?
    }
    struct TrendingBody: Decodable { var items: [LikedOutfit]; var since: Date }

    /// An outfit row of `owner`'s, without pieces (the likes do not look at them).
    private func outfit(_ t: TestApp, of owner: Session, _ visibility: Outfit.Visibility, name: String = "Linen Sunday") async throws -> String {
        let outfit = Outfit()
        outfit.id = UUID()
        outfit.ownerID = UUID(uuidString: owner.user.id)!
        outfit.name = name
        outfit.visibility = visibility.rawValue
        outfit.favourite = false
        outfit.renderStatus = Outfit.RenderStatus.pending.rawValue
        outfit.renderAttempts = 0
        outfit.renderVersion = 0
        outfit.createdAt = Date()
        outfit.updatedAt = Date()
        try await outfit.create(on: t.app.db)
        return outfit.id!.idString
    }

    private func home(_ t: TestApp, _ person: Session, lat: Double, lng: Double) async throws {
        let user = try #require(try await User.find(UUID(uuidString: person.user.id), on: t.app.db))
        user.homeLat = lat
        user.homeLng = lng
        try await user.save(on: t.app.db)
    }

    private func likeRows(_ t: TestApp) async throws -> Int { try await OutfitLike.query(on: t.app.db).count() }

    @Test("a like is one per person, shown on the outfit to each viewer, reaches the owner's inbox once; what one may not see, one's own outfit and bad ids change nothing")
    func likes() async throws {
        try await TestApp.with { t in
            let owner = try await t.signUp(name: "Owner")
            let fan = try await t.signUp(name: "Fan")
            let friend = try await t.signUp(name: "Friend")
            try await t.befriend(owner, friend)
            let shown = try await outfit(t, of: owner, .public)
            let friendsOnly = try await outfit(t, of: owner, .friends)
            let hidden = try await outfit(t, of: owner, .private)

            for _ in 0..<2 {
                let liked = try await t.send(.PUT, "/api/v1/outfits/\(shown)/like", token: fan.accessToken)
                #expect(liked.status == .ok, "\(liked.body.string)")
                let state = try liked.content.decode(LikeBody.self)
                #expect(state.liked && state.likeCount == 1, "liking twice changes nothing")
            }
            let asFan = try await t.send(.GET, "/api/v1/outfits/\(shown)", token: fan.accessToken).content.decode(LikedOutfit.self)
            #expect(asFan.liked && asFan.likeCount == 1 && asFan.owner?.displayName == "Owner")
            let asOwner = try await t.send(.GET, "/api/v1/outfits/\(shown)", token: owner.accessToken).content.decode(LikedOutfit.self)
            #expect(!asOwner.liked && asOwner.likeCount == 1)
            let inbox = try await InboxEntry.query(on: t.app.db).filter(\.$recipientID == UUID(uuidString: owner.user.id)!)
                .filter(\.$kind == "reaction").all()
            #expect(inbox.count == 1 && inbox.first?.text.contains("Fan") == true, "\(inbox.map(\.text))")

            // Friends-only: the friend may like it, the fan may not even see it.
            #expect(try await t.send(.PUT, "/api/v1/outfits/\(friendsOnly)/like", token: friend.accessToken).status == .ok)
            let before = try await likeRows(t)
            for (id, token, status) in [
                (friendsOnly, fan.accessToken, HTTPStatus.notFound), (hidden, fan.accessToken, .notFound), (hidden, friend.accessToken, .notFound),
                (shown, owner.accessToken, .conflict), (UUID().uuidString.lowercased(), fan.accessToken, .notFound), ("not-an-id", fan.accessToken, .notFound),
            ] {
                let refused = try await t.send(.PUT, "/api/v1/outfits/\(id)/like", token: token)
                #expect(refused.status == status, "\(id): \(refused.body.string)")
                #expect(refused.headers.contentType?.description.contains("problem+json") == true)
            }
            #expect(try await t.send(.PUT, "/api/v1/outfits/\(shown)/like").status == .unauthorized)
            #expect(try await likeRows(t) == before, "nothing written")

            // Blocked: the outfit is gone for the fan, and so is the heart.
            #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(fan.user.id)", token: owner.accessToken).status.code < 300)
            #expect(try await t.send(.DELETE, "/api/v1/outfits/\(shown)/like", token: fan.accessToken).status == .notFound)
            #expect(try await t.send(.DELETE, "/api/v1/me/blocks/\(fan.user.id)", token: owner.accessToken).status.code < 300)
            for _ in 0..<2 {
                let unliked = try await t.send(.DELETE, "/api/v1/outfits/\(shown)/like", token: fan.accessToken)
                #expect(unliked.status == .ok)
                let state = try unliked.content.decode(LikeBody.self)
                #expect(!state.liked && state.likeCount == 0)
            }
            // Deleting the account takes its likes with it.
            #expect(try await t.send(.DELETE, "/api/v1/me", json: #"{"password":"\#(TestApp.password)"}"#, token: friend.accessToken).status.code < 300)
            #expect(try await likeRows(t) == 0)
        }
    }

    @Test("50 people like one outfit at once, then half take it back at once: the count and every person's flag are exact")
    func concurrentLikes() async throws {
        try await TestApp.with { t in
            let owner = try await t.signUp(name: "Owner")
            let shown = try await outfit(t, of: owner, .public)
            let people = try await t.signUpMany(50)
            try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for person in people { group.addTask { try await t.send(.PUT, "/api/v1/outfits/\(shown)/like", token: person.accessToken).status } }
                for try await status in group { #expect(status == .ok) }
            }
            try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for person in people.prefix(25) { group.addTask { try await t.send(.DELETE, "/api/v1/outfits/\(shown)/like", token: person.accessToken).status } }
                for try await status in group { #expect(status == .ok) }
            }
            for (index, person) in people.enumerated() {
                let seen = try await t.send(.GET, "/api/v1/outfits/\(shown)", token: person.accessToken).content.decode(LikedOutfit.self)
                #expect(seen.likeCount == 25 && seen.liked == (index >= 25))
            }
        }
    }

    @Test("trending outfits: this week's likes, owners living within the radius, only what the viewer may see, most liked first; bad places are 4xx")
    func trending() async throws {
        try await TestApp.with { t in
            let viewer = try await t.signUp(name: "Viewer")
            let near = try await t.signUp(name: "Near")          // Bucharest centre
            let nearby = try await t.signUp(name: "Nearby")      // 3 km away
            let far = try await t.signUp(name: "Far")            // Cluj
            let friendOfNear = try await t.signUp(name: "Friend of Near")
            try await home(t, viewer, lat: 44.4268, lng: 26.1025)
            try await home(t, near, lat: 44.4268, lng: 26.1025)
            try await home(t, nearby, lat: 44.4500, lng: 26.0800)
            try await home(t, far, lat: 46.7712, lng: 23.6236)
            try await t.befriend(near, friendOfNear)
            let top = try await outfit(t, of: near, .public, name: "Top")
            let second = try await outfit(t, of: nearby, .public, name: "Second")
            let friendsOnly = try await outfit(t, of: near, .friends, name: "Friends only")
            let faraway = try await outfit(t, of: far, .public, name: "Far away")
            let lastMonth = try await outfit(t, of: nearby, .public, name: "Old news")
            var fans: [Session] = []
            for i in 0..<5 { fans.append(try await t.signUp(name: "Fan \(i)")) }
            func like(_ id: String, by people: some Sequence<Session>) async throws {
                for person in people { #expect(try await t.send(.PUT, "/api/v1/outfits/\(id)/like", token: person.accessToken).status == .ok) }
            }
            try await like(top, by: fans.prefix(3))
            try await like(second, by: fans.prefix(2))
            try await like(friendsOnly, by: [friendOfNear])
            try await like(faraway, by: fans)
            try await like(lastMonth, by: fans)
            let old = Date().addingTimeInterval(-8 * 24 * 3600)
            try await t.app.db.sql.raw("UPDATE outfit_likes SET created_at = \(bind: old) WHERE outfit_id = \(bind: UUID(uuidString: lastMonth)!)").run()

            let atHome = try await t.send(.GET, "/api/v1/outfits/trending", token: viewer.accessToken)
            #expect(atHome.status == .ok, "\(atHome.body.string)")
            #expect(try atHome.content.decode(TrendingBody.self).items.map(\.id) == [top, second])
            let asFriend = try await t.send(.GET, "/api/v1/outfits/trending?lat=44.4268&lng=26.1025&radiusKm=10", token: friendOfNear.accessToken)
            let friendSees = try asFriend.content.decode(TrendingBody.self).items
            #expect(friendSees.map(\.id) == [top, second, friendsOnly], "a friend also sees the friends-only outfit")
            #expect(friendSees.last?.liked == true && friendSees.first?.liked == false)
            let inCluj = try await t.send(.GET, "/api/v1/outfits/trending?lat=46.77&lng=23.62&radiusKm=5&limit=1", token: viewer.accessToken)
            #expect(try inCluj.content.decode(TrendingBody.self).items.map(\.id) == [faraway])
            let oneKm = try await t.send(.GET, "/api/v1/outfits/trending?radiusKm=1", token: viewer.accessToken)
            #expect(try oneKm.content.decode(TrendingBody.self).items.map(\.id) == [top], "Nearby lives 3 km away")

            #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(near.user.id)", token: viewer.accessToken).status.code < 300)
            let blocked = try await t.send(.GET, "/api/v1/outfits/trending", token: viewer.accessToken)
            #expect(try blocked.content.decode(TrendingBody.self).items.map(\.id) == [second], "nothing of someone blocked")

            let nowhere = try await t.signUp(name: "No home")
            let noPlace = try await t.send(.GET, "/api/v1/outfits/trending", token: nowhere.accessToken)
            #expect(noPlace.status == .unprocessableEntity && noPlace.body.string.contains(#""field":"lat""#), "\(noPlace.body.string)")
            for query in ["lat=91&lng=0", "lat=44&lng=26&radiusKm=3", "lat=44&lng=26&limit=0", "lat=44&lng=26&limit=51", "lat=44"] {
                let bad = try await t.send(.GET, "/api/v1/outfits/trending?\(query)", token: viewer.accessToken)
                #expect([400, 422].contains(bad.status.code), "\(query): \(bad.status)")
            }
            #expect(try await t.send(.GET, "/api/v1/outfits/trending").status == .unauthorized)
        }
    }

    @Test("web: a friend opens the outfit from the owner's profile, likes it and sees the count; trending outfits lists it with the heart pressed")
    func web() async throws {
        try await TestApp.with { t in
            let forms = AccountsWebTests()
            let owner = try await t.signUp(name: "Owner")
            let friend = try await t.signUp(name: "Friend")
            try await t.befriend(owner, friend)
            try await home(t, owner, lat: 44.4268, lng: 26.1025)
            try await home(t, friend, lat: 44.4268, lng: 26.1025)
            let shared = try await outfit(t, of: owner, .friends, name: "Garden party")
            let hidden = try await outfit(t, of: owner, .private, name: "Secret")
            #expect(try await t.send(.PUT, "/api/v1/outfits/\(shared)/pin", token: owner.accessToken).status == .ok)
            let cookie = try await CatalogWebTests().webSignIn(t, email: friend.user.email ?? "")

            let profile = try await forms.openForm(t, "/people/\(owner.user.id)", cookie: cookie)
            #expect(profile.html.contains(#"href="/outfits/\#(shared)""#))
            let page = try await forms.openForm(t, "/outfits/\(shared)", cookie: cookie)
            #expect(page.html.contains(#"id="shared-outfit-page""#) && page.html.contains("Garden party") && page.html.contains("0 likes"))
            #expect(!page.html.contains(#"id="plan-form""#), "no owner controls on someone else's outfit")
            let liked = try await forms.post(t, "/outfits/\(shared)/like", form: ["csrfToken": page.csrf, "back": "/outfits/\(shared)"], cookie: page.cookie)
            #expect(liked.status == .seeOther && liked.headers.first(name: .location) == "/outfits/\(shared)")
            let after = try await forms.openForm(t, "/outfits/\(shared)", cookie: page.cookie)
            #expect(after.html.contains("1 like<") && after.html.contains(#"action="/outfits/\#(shared)/unlike""#))
            let trending = try await forms.openForm(t, "/outfits/trending", cookie: page.cookie)
            #expect(trending.html.contains(#"data-outfit="\#(shared)""#) && trending.html.contains(#"aria-pressed="true""#))

            // Without the CSRF token nothing is liked; a private outfit is 404 to the friend.
            let forged = try await forms.post(t, "/outfits/\(shared)/unlike", form: [:], cookie: page.cookie)
            #expect(forged.status == .forbidden)
            #expect(try await OutfitLike.query(on: t.app.db).count() == 1)
            let secret = try await t.send(.GET, "/outfits/\(hidden)", headers: [("Accept", "text/html"), ("Cookie", page.cookie)])
            #expect(secret.status == .notFound)
            // The owner's own page shows the count.
            let ownerCookie = try await CatalogWebTests().webSignIn(t, email: owner.user.email ?? "")
            let own = try await forms.openForm(t, "/outfits/\(shared)", cookie: ownerCookie)
            #expect(own.html.contains(#"id="plan-form""#) && own.html.contains(#"<span id="outfit-like-count">1 like</span>"#))
        }
    }
}
