import AtelierKit
import Fluent
import Foundation
import Testing

@testable import Atelier

@Suite("AtelierKit: invite links and connections")
struct SocialKitTests {
    @Test("a link made in one app signs a new person up connected; another person connects at a moment; both are listed")
    func inviteAndConnect() async throws {
        try await LiveServer.with { server in
            let ana = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await ana.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Ana Kit")
            let link = try await InviteLinks(session: ana).make()
            let ben = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            #expect(try await InviteLinks(session: ben).sender(of: link.token).inviter.displayName == "Ana Kit")
            try await ben.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Ben Kit", inviteToken: link.token)

            // Cara joins Ana's public moment and connects there.
            let cara = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            let caraMe = try await cara.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Cara Kit")
            let now = server.clock.now()
            let moment = try await ana.client.createMoment(body: .json(.init(
                name: "Picnic", startsAt: now.addingTimeInterval(-60), endsAt: now.addingTimeInterval(3600),
                place: .init(name: "Park", lat: 44.44, lng: 26.09, radiusMeters: 100), visibility: ._public))).created.body.json
            _ = try await cara.client.joinMoment(path: .init(momentId: moment.id)).ok
            let anaID = try await ana.client.getMe().ok.body.json.id
            #expect(try await Connections(session: cara).connect(userID: anaID, atMoment: moment.id).relationship == .connected)

            let names = try await Connections(session: ana).all().map(\.displayName)
            #expect(Set(names) == ["Ben Kit", "Cara Kit"])
            try await Connections(session: ana).disconnect(userID: caraMe.id)
            #expect(try await Connections(session: ana).all().map(\.displayName) == ["Ben Kit"])
            await #expect(throws: AtelierError.self) { _ = try await InviteLinks(session: cara).accept(link.token) }
        }
    }

    @Test("the privacy policy without sign-in; feedback signed out needs an address, then reaches the admins")
    func sitePages() async throws {
        try await LiveServer.with { server in
            let visitor = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            #expect(try await SitePages(session: visitor).page(.privacy).html.contains("contact"))
            await #expect {
                try await SitePages(session: visitor).sendFeedback(subject: "Hi", message: "Hello")
            } throws: { error in
                guard case AtelierError.rejected(let problem) = error, problem.status == 422 else { return false }; let fields = problem.fields
                return fields == ["email"]
            }
            try await SitePages(session: visitor).sendFeedback(subject: "Hi", message: "Hello", email: "visitor@example.com")
            #expect(try await FeedbackMessage.query(on: server.app.db).count() == 1)
        }
    }

    @Test("a quick moment at a named spot; an application to open a store, listed as pending")
    func quickMomentAndStoreApplication() async throws {
        try await LiveServer.with { server in
            let ana = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await ana.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Ana Kit")
            let moment = try await QuickMoments(session: ana).start(lat: 44.44, lng: 26.09, at: .named("Garden", radiusMeters: 200))
            #expect(moment.name == "Ana at Garden" && moment.place.radiusMeters == 200 && moment.myState == .checkedIn)
            await #expect(throws: AtelierError.self) { _ = try await QuickMoments(session: ana).start(lat: 44.44, lng: 26.09, at: .named("  ")) }

            let applied = try await StoreApplications(session: ana).apply(.init(
                name: "Kit Shop", street: "Strada 1", city: "Bucharest", location: .init(lat: 44.43, lng: 26.1)))
            #expect(applied.status == .pending)
            #expect(try await StoreApplications(session: ana).mine().map(\.id) == [applied.id])
        }
    }

    @Test("trending needs a place signed out, and answers with one")
    func trending() async throws {
        try await LiveServer.with { server in
            let visitor = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            await #expect {
                _ = try await Trending(session: visitor).products()
            } throws: { error in
                guard case AtelierError.rejected(let problem) = error, problem.status == 422 else { return false }; let fields = problem.fields
                return fields == ["lat"]
            }
            let nearby = try await Trending(session: visitor).products(lat: 57.7, lng: 11.97, radiusKm: 5)
            #expect(nearby.isEmpty)
        }
    }

    @Test("trending posts: signed out is signedOut; signed in, the circle's most reacted posts (none yet)")
    func trendingPosts() async throws {
        try await LiveServer.with { server in
            let visitor = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            await #expect {
                _ = try await Trending(session: visitor).posts()
            } throws: { error in
                guard case AtelierError.signedOut = error else { return false }
                return true
            }
            let ana = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await ana.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Ana Kit")
            #expect(try await Trending(session: ana).posts(limit: 5).isEmpty)
        }
    }

    @Test("outfit likes and trending outfits: typed like state, the liked outfit near its owner's home, 404 and 409 as AtelierError")
    func outfitLikes() async throws {
        try await LiveServer.with { server in
            let ana = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            let anaMe = try await ana.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Ana Outfits")
            let bo = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            _ = try await bo.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Bo Outfits")
            // Ana lives in Bucharest and shows one outfit to everyone, another to nobody.
            let db = server.app.db
            let owner = try #require(try await User.find(UUID(uuidString: anaMe.id), on: db))
            owner.homeLat = 44.4268
            owner.homeLng = 26.1025
            try await owner.save(on: db)
            func outfit(_ visibility: Outfit.Visibility) async throws -> String {
                let outfit = Outfit()
                outfit.id = UUID()
                outfit.ownerID = owner.id!
                outfit.name = "Linen Sunday"
                outfit.visibility = visibility.rawValue
                outfit.favourite = false
                outfit.renderStatus = Outfit.RenderStatus.pending.rawValue
                outfit.renderAttempts = 0
                outfit.renderVersion = 0
                outfit.createdAt = Date()
                outfit.updatedAt = Date()
                try await outfit.create(on: db)
                return outfit.id!.uuidString.lowercased()
            }
            let shown = try await outfit(.public)
            let hidden = try await outfit(.private)

            let liked = try await bo.wardrobe.likeOutfit(outfitId: shown)
            #expect(liked.liked && liked.likeCount == 1)
            #expect(try await bo.wardrobe.likeOutfit(outfitId: shown).likeCount == 1, "liking twice changes nothing")
            let trending = try await Trending(session: bo).outfits(lat: 44.43, lng: 26.10, radiusKm: 10)
            #expect(trending.map(\.id) == [shown])
            #expect(trending.first?.liked == true && trending.first?.likeCount == 1 && trending.first?.owner?.displayName == "Ana Outfits")
            #expect(try await Trending(session: bo).outfits(lat: 46.77, lng: 23.59, radiusKm: 10).isEmpty, "Cluj is not near Bucharest")
            await #expect {
                _ = try await Trending(session: bo).outfits()
            } throws: { error in
                guard let error = error as? AtelierError, case .rejected(let problem) = error else { return false }
                return problem.status == 422 && problem.fields == ["lat"] && problem.detail.contains("home location") && !error.isRetrySafe
            }
            await #expect { _ = try await bo.wardrobe.likeOutfit(outfitId: hidden) } throws: { error in
                guard case AtelierError.rejected(let problem) = error, problem.status == 404 else { return false }
                return true
            }
            await #expect { _ = try await ana.wardrobe.likeOutfit(outfitId: shown) } throws: { error in
                guard case AtelierError.rejected(let problem) = error, problem.status == 409 else { return false }
                return true
            }
            let unliked = try await bo.wardrobe.unlikeOutfit(outfitId: shown)
            #expect(!unliked.liked && unliked.likeCount == 0)
        }
    }
}
