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

    /// Posts the picture form as a browser does: multipart, the file and the crop box's fields.
    private func postPicture(_ t: TestApp, _ data: Data, crop: String, csrf: String, cookie: String) async throws -> TestingHTTPResponse {
        var form = MultipartForm()
        form.add("csrfToken", csrf)
        form.add("crops[]", crop)
        form.add("rotations[]", "0")
        form.add("photo", filename: "me.png", data)
        return try await form.post(t, "/settings/picture", cookie: cookie)
    }

    @Test("signed in by username, a person uploads a cropped picture; it shows on their profile, in a friend's list and on their comment")
    func profilePicture() async throws {
        try await TestApp.with { t in
            let emails = (uniqueEmail("face"), uniqueEmail("friend"))
            let face = try await t.signUp(email: emails.0, name: "Face Web")
            let friend = try await t.signUp(email: emails.1, name: "Friend Web")
            try await t.befriend(face, friend)
            let post = try await t.createdPost(friend)
            let cookie = try await web.webSignIn(t, email: face.user.username)
            let page = try await forms.openForm(t, "/settings/picture", cookie: cookie)
            #expect(page.html.contains("data-crop-square") && page.html.contains("data-has-picture=\"no\""))

            // Not a photo: a message, and nothing stored.
            let refused = try await postPicture(t, Data("plain text".utf8), crop: "", csrf: page.csrf, cookie: cookie)
            #expect(refused.status == .seeOther)
            #expect(try await t.avatarMediaID(face) == nil)
            #expect(try await t.mediaCount(uploader: face.user.id) == 0)
            let uploaded = try await postPicture(
                t, try TestImages.png(width: 300, height: 200), crop: "100,0,200,200", csrf: page.csrf, cookie: cookie)
            #expect(uploaded.status == .seeOther)
            let mediaID = try #require(try await t.avatarMediaID(face))
            let stored = try #require(try await Media.find(mediaID, on: t.app.db))
            #expect(stored.width == 200 && stored.height == 200 && stored.visibility == "public")
            let src = "/media/public/\(MediaKeys.folder(stored.contentHash))"

            let mine = try await web.get(t, "/settings/picture", cookie: cookie).body.string
            #expect(mine.contains("data-has-picture=\"yes\"") && mine.contains(src))
            #expect(try await web.get(t, "/people/\(face.user.id)", cookie: cookie).body.string.contains(src))
            let comment = try await forms.post(t, "/posts/\(post.id)/comments", form: ["body": "Sharp", "csrfToken": page.csrf], cookie: cookie)
            #expect(comment.status == .seeOther)

            let friendCookie = try await web.webSignIn(t, email: emails.1)
            #expect(try await web.get(t, "/friends", cookie: friendCookie).body.string.contains(src))
            let postPage = try await web.get(t, "/posts/\(post.id)", cookie: friendCookie).body.string
            #expect(postPage.contains("Sharp") && postPage.contains(src))
        }
    }
}
