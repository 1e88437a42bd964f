import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Social: trending posts in a person's circle")
struct TrendingPostsTests {
    @Test("the week's most reacted posts a person may see, most first; strangers' posts and older reactions are not counted; a bad limit is a 422 naming it")
    func trending() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Ana"), ben = try await t.signUp(name: "Ben"), cleo = try await t.signUp(name: "Cleo")
            let stranger = try await t.signUp(name: "Stranger"), dan = try await t.signUp(name: "Dan")
            try await t.befriend(ana, ben)
            try await t.befriend(ana, cleo)
            try await t.befriend(ben, cleo)
            try await t.befriend(stranger, dan)
            let benPost = try await t.createdPost(ben, caption: "Ben's fit")
            let cleoPost = try await t.createdPost(cleo, caption: "Cleo's fit")
            let strangerPost = try await t.createdPost(stranger, caption: "Stranger's fit")
            t.clock.advance(by: 1)
            let anaPost = try await t.createdPost(ana, caption: "Ana's fit")
            func react(_ post: PostBody, by people: [Session]) async throws {
                for person in people {
                    #expect(try await t.send(.PUT, "/api/v1/posts/\(post.id)/reaction", json: #"{"kind":"heart"}"#, token: person.accessToken).status == .ok)
                }
            }
            try await react(cleoPost, by: [ana, ben])
            try await react(benPost, by: [ana])
            try await react(strangerPost, by: [dan])
            let captions = { (session: Session) in
                try t.object(try await t.send(.GET, "/api/v1/posts/trending", token: session.accessToken))["items"] as? [[String: Any]] ?? []
            }
            #expect(try await captions(ana).map { $0["caption"] as? String } == ["Cleo's fit", "Ben's fit"])
            #expect(try await captions(stranger).map { $0["caption"] as? String } == ["Stranger's fit"])
            // A tie is broken by the newer post.
            try await react(anaPost, by: [ben, cleo])
            #expect(try await captions(ana).map { $0["caption"] as? String } == ["Ana's fit", "Cleo's fit", "Ben's fit"])
            let bad = try await t.send(.GET, "/api/v1/posts/trending?limit=0", token: ana.accessToken)
            #expect(bad.status == .unprocessableEntity, "\(bad.status) \(bad.body.string)")
            #expect(try bad.problem().fields == ["limit"])
            // Reactions older than seven days are not counted (a new sign-in: access tokens last minutes).
            t.clock.advance(by: 8 * 24 * 3600)
            let later = try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(ana.user.email ?? "")","password":"\#(TestApp.password)"}"#)
            let fresh = try #require(try t.object(later)["accessToken"] as? String)
            let weekLater = try t.object(try await t.send(.GET, "/api/v1/posts/trending", token: fresh))["items"] as? [[String: Any]]
            #expect(weekLater?.isEmpty == true)
            #expect(try await t.send(.GET, "/api/v1/posts/trending").status == .unauthorized)
        }
    }
}
