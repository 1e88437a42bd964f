import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: friends, outfit posts, moderation")
struct SocialWebTests {
    let web = CatalogWebTests()
    let forms = AccountsWebTests()

    @Test("post pages: the author's friends see them; strangers and the blocked get 404; the gate shows on the feed")
    func postPages() async throws {
        try await TestApp.with { t in
            let emails = (uniqueEmail("author"), uniqueEmail("friend"), uniqueEmail("stranger"))
            let author = try await t.signUp(email: emails.0, name: "Author Web")
            let friend = try await t.signUp(email: emails.1, name: "Friend Web")
            _ = try await t.signUp(email: emails.2, name: "Stranger Web")
            try await t.befriend(author, friend)
            let post = try await t.createdPost(author, caption: "Tweed <b>jacket</b>")

            let friendCookie = try await web.webSignIn(t, email: emails.1)
            let feed = try await web.get(t, "/ootd", cookie: friendCookie)
            #expect(feed.body.string.contains("id=\"ootd-gate\"") && !feed.body.string.contains(post.id))
            let page = try await web.get(t, "/posts/\(post.id)", cookie: friendCookie)
            #expect(page.status == .ok)
            #expect(page.body.string.contains("Tweed &lt;b&gt;jacket&lt;/b&gt;"), "captions are escaped")

            let strangerCookie = try await web.webSignIn(t, email: emails.2)
            #expect(try await web.get(t, "/posts/\(post.id)", cookie: strangerCookie).status == .notFound)

            try await t.send(.PUT, "/api/v1/me/blocks/\(friend.user.id)", token: author.accessToken)
            #expect(try await web.get(t, "/posts/\(post.id)", cookie: friendCookie).status == .notFound)
            #expect(try await web.get(t, "/people/\(author.user.id)", cookie: friendCookie).status == .notFound)

            // Signed out, the pages ask to sign in.
            let signedOut = try await web.get(t, "/ootd")
            #expect(signedOut.status == .seeOther && signedOut.headers.first(name: .location)?.hasPrefix("/signin") == true)
        }
    }

    @Test("reacting and commenting through the forms notify the author, who sees it on the notifications page")
    func formsNotify() async throws {
        try await TestApp.with { t in
            let emails = (uniqueEmail("author"), uniqueEmail("friend"))
            let author = try await t.signUp(email: emails.0, name: "Author Forms")
            let friend = try await t.signUp(email: emails.1, name: "Friend Forms")
            try await t.befriend(author, friend)
            let post = try await t.createdPost(author)
            let cookie = try await web.webSignIn(t, email: emails.1)
            let page = try await forms.openForm(t, "/posts/\(post.id)", cookie: cookie)
            let react = try await forms.post(t, "/posts/\(post.id)/react", form: ["kind": "fire", "csrfToken": page.csrf], cookie: cookie)
            #expect(react.status == .seeOther)
            let bad = try await forms.post(t, "/posts/\(post.id)/comments", form: ["body": " ", "csrfToken": page.csrf], cookie: cookie)
            #expect(bad.status == .seeOther)
            let comment = try await forms.post(t, "/posts/\(post.id)/comments", form: ["body": "So sharp", "csrfToken": page.csrf], cookie: cookie)
            #expect(comment.status == .seeOther)

            let authorCookie = try await web.webSignIn(t, email: emails.0)
            let inbox = try await web.get(t, "/notifications", cookie: authorCookie).body.string
            #expect(inbox.contains("Friend Forms reacted 🔥") && inbox.contains("So sharp"))
            #expect(try await t.notifications(author).unreadCount == 0, "opening the page reads them")
            let stored = try await t.send(.GET, "/api/v1/posts/\(post.id)", token: author.accessToken).content.decode(PostBody.self)
            #expect(stored.reactions.total == 1 && stored.commentCount == 1)
        }
    }
}
