import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct MagazineArticleBody: Decodable, Equatable {
    var id: String
    var issueId: String
    var title: String
    var html: String
    var language: String
    var publishedAt: String
}

struct MagazineIssueBody: Decodable {
    var id: String
    var number: Int
    var label: String
    var language: String
    var publishedAt: String?
    var articles: [MagazineArticleBody]?
}

struct MagazineChangesBody: Decodable {
    struct Deleted: Decodable, Equatable { var type: String; var id: String }
    var issues: [MagazineIssueBody]
    var articles: [MagazineArticleBody]
    var authors: [MagazineAuthorBody]
    var deleted: [Deleted]
    var nextCursor: String
}

struct MagazineAuthorBody: Decodable {
    var id: String
    var name: String
    var bio: String
    var language: String
}

extension TestApp {
    var editor: MagazineEditor { MagazineEditor(db: app.db, core: app.core, mediaLibrary: app.atelier.media) }

    /// An issue with published articles, one per title, in English (and Romanian where given).
    func publishedIssue(_ number: Int, titles: [(en: String, ro: String?)], by author: MagazineAuthor) async throws -> (MagazineIssue, [MagazineArticle]) {
        let issue = try await editor.createIssue(number: number, labels: ["en": "Issue \(number)", "ro": "Numărul \(number)"])
        var articles: [MagazineArticle] = []
        for (position, title) in titles.enumerated() {
            let article = try await editor.createArticle(in: issue, position: position, authors: [author.id!])
            try await editor.setText(.init(slug: "", title: title.en, summary: "", markdown: "Text of \(title.en)."), lang: "en", of: article)
            if let ro = title.ro {
                try await editor.setText(.init(slug: "", title: ro, summary: "", markdown: "Textul: \(ro)."), lang: "ro", of: article)
            }
            try await editor.setPublished(true, article)
            articles.append(article)
        }
        try await editor.publish(issue)
        return (issue, articles)
    }

    func sync(since cursor: String?, lang: String = "en") async throws -> MagazineChangesBody {
        let query = cursor.map { "?since=\($0)&lang=\(lang)" } ?? "?lang=\(lang)"
        let response = try await send(.GET, "/api/v1/magazine/changes\(query)")
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.content.decode(MagazineChangesBody.self)
    }
}

@Suite("Magazine: reading, languages, safe Markdown, scheduling and the changes feed")
struct MagazineTests {
    @Test("a client syncs; an article changes, another is unpublished, a new issue is published; the next sync has exactly those, and the copy matches the server")
    func deltaSync() async throws {
        try await TestApp.with { t in
            let author = try await t.editor.createAuthor(name: "Ioana Marin", bios: ["en": "Editor.", "ro": "Editor."])
            let (first, articles) = try await t.publishedIssue(1, titles: [("Wool", "Lână"), ("Hems", nil)], by: author)
            t.clock.advance(by: 5)

            // The first sync brings everything; the client keeps it.
            let initial = try await t.sync(since: nil)
            #expect(initial.issues.map(\.number) == [1] && initial.articles.count == 2 && initial.deleted.isEmpty)
            var copy = Dictionary(initial.articles.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var issues = Set(initial.issues.map(\.id))

            // The editor changes one article, unpublishes the other, publishes issue 2 with one article.
            try await t.editor.setText(.init(slug: "wool", title: "Wool, revised", summary: "", markdown: "New text."), lang: "en", of: articles[0])
            try await t.editor.setPublished(false, articles[1])
            let (second, newArticles) = try await t.publishedIssue(2, titles: [("Boots", "Ghete")], by: author)
            t.clock.advance(by: 5)

            let delta = try await t.sync(since: initial.nextCursor)
            #expect(delta.issues.map(\.id) == [second.id!.uuidString.lowercased()])
            #expect(Set(delta.articles.map(\.id)) == Set([articles[0].id!, newArticles[0].id!].map { $0.uuidString.lowercased() }))
            #expect(delta.deleted == [.init(type: "article", id: articles[1].id!.uuidString.lowercased())])
            #expect(delta.authors.isEmpty)
            #expect(delta.articles.first { $0.id == articles[0].id!.uuidString.lowercased() }?.title == "Wool, revised")

            for article in delta.articles { copy[article.id] = article }
            for deleted in delta.deleted where deleted.type == "article" { copy[deleted.id] = nil }
            for issue in delta.issues { issues.insert(issue.id) }

            // The copy equals what the server publishes now.
            let list = try await t.send(.GET, "/api/v1/magazine/issues?lang=en").content.decode([String: [MagazineIssueBody]].self)["items"] ?? []
            #expect(Set(list.map(\.id)) == issues)
            var published: [String: MagazineArticleBody] = [:]
            for issue in list {
                let full = try await t.send(.GET, "/api/v1/magazine/issues/\(issue.id)?lang=en").content.decode(MagazineIssueBody.self)
                for article in full.articles ?? [] { published[article.id] = article }
            }
            #expect(published == copy)
            // A sync with nothing new is empty.
            let quiet = try await t.sync(since: delta.nextCursor)
            #expect(quiet.issues.isEmpty && quiet.articles.isEmpty && quiet.deleted.isEmpty)
            _ = first
        }
    }

    @Test("?lang=ro for an article without a Romanian version serves the English one and says language: en")
    func languageFallback() async throws {
        try await TestApp.with { t in
            let author = try await t.editor.createAuthor(name: "Erik Sand", bios: ["en": "Tailor."])
            let (_, articles) = try await t.publishedIssue(1, titles: [("Hems", nil), ("Wool", "Lână")], by: author)
            let hems = try await t.send(.GET, "/api/v1/magazine/articles/\(articles[0].id!)?lang=ro").content.decode(MagazineArticleBody.self)
            #expect(hems.language == "en" && hems.title == "Hems")
            // An article carries its issue's publication time; the web page shows the date.
            let issueBody = try await t.send(.GET, "/api/v1/magazine/issues/\(hems.issueId)").content.decode(MagazineIssueBody.self)
            #expect(hems.publishedAt == issueBody.publishedAt)
            let page = try await t.send(.GET, "/magazine/articles/\(articles[0].id!)", headers: [("Accept", "text/html")]).body.string
            #expect(page.contains(#"<time datetime="\#(hems.publishedAt)" id="article-published">"#))
            let wool = try await t.send(.GET, "/api/v1/magazine/articles/\(articles[1].id!)?lang=ro").content.decode(MagazineArticleBody.self)
            #expect(wool.language == "ro" && wool.title == "Lână")
            let header = try await t.send(.GET, "/api/v1/magazine/articles/\(articles[1].id!)", headers: [("Accept-Language", "ro-RO,ro;q=0.9,en;q=0.5")])
            #expect(try header.content.decode(MagazineArticleBody.self).language == "ro")
            let unknown = try await t.send(.GET, "/api/v1/magazine/articles/\(articles[1].id!)?lang=xx").content.decode(MagazineArticleBody.self)
            #expect(unknown.language == "en")
            let bio = try await t.send(.GET, "/api/v1/magazine/authors/\(author.id!)?lang=ro").content.decode(MagazineAuthorBody.self)
            #expect(bio.language == "en" && bio.bio == "Tailor.")
            let issue = try await t.send(.GET, "/api/v1/magazine/issues?lang=ro")
            #expect(issue.body.string.contains("Numărul 1"))
            // Reads are cached with ETags: the same tag answers 304, another language is another tag.
            let first = try await t.send(.GET, "/api/v1/magazine/articles/\(articles[1].id!)?lang=ro")
            let tag = try #require(first.headers.first(name: .eTag))
            #expect(try await t.send(.GET, "/api/v1/magazine/articles/\(articles[1].id!)?lang=ro", headers: [("If-None-Match", tag)]).status == .notModified)
            #expect(try await t.send(.GET, "/api/v1/magazine/articles/\(articles[1].id!)?lang=en", headers: [("If-None-Match", tag)]).status == .ok)
        }
    }

    @Test("a draft or scheduled issue is invisible until its time, then in the list and in the changes")
    func scheduling() async throws {
        try await TestApp.with { t in
            let author = try await t.editor.createAuthor(name: "Lena Berg", bios: ["en": "Photographer."])
            let issue = try await t.editor.createIssue(number: 7, labels: ["en": "Issue 7"])
            let article = try await t.editor.createArticle(in: issue, position: 0, authors: [author.id!])
            try await t.editor.setText(.init(slug: "", title: "Snow", summary: "", markdown: "Cold."), lang: "en", of: article)
            try await t.editor.setPublished(true, article)
            t.clock.advance(by: 5)
            let before = try await t.sync(since: nil)
            // A draft is nowhere.
            #expect(try await t.send(.GET, "/api/v1/magazine/issues/\(issue.id!)").status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/magazine/articles/\(article.id!)").status == .notFound)

            let publishAt = t.clock.now().addingTimeInterval(3600)
            try await t.editor.publish(issue, at: publishAt)
            #expect(issue.status == "scheduled")
            t.clock.advance(by: 1800)
            #expect(try await t.send(.GET, "/api/v1/magazine/issues/\(issue.id!)").status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/magazine/issues").body.string.contains(issue.id!.uuidString.lowercased()) == false)
            let early = try await t.sync(since: before.nextCursor)
            #expect(early.issues.isEmpty && early.articles.isEmpty && early.deleted.isEmpty)

            t.clock.set(publishAt.addingTimeInterval(5))
            #expect(try await t.send(.GET, "/api/v1/magazine/issues/\(issue.id!)").status == .ok)
            #expect(try await t.send(.GET, "/api/v1/magazine/issues").body.string.contains(issue.id!.uuidString.lowercased()))
            let due = try await t.sync(since: early.nextCursor)
            #expect(due.issues.map(\.number) == [7] && due.articles.map(\.title) == ["Snow"])
            // The job runner marks it published (readers saw it from its time on either way).
            #expect(try await MagazineEditor(db: t.app.db, core: t.app.core, mediaLibrary: t.app.atelier.media).publishDue() == 1)
            #expect(try await MagazineIssue.find(issue.id, on: t.app.db)?.status == "published")
        }
    }

    @Test("Markdown with <script>, javascript: links and event handlers renders without any of them")
    func safeMarkdown() {
        let attacks = [
            "<script>alert(1)</script>",
            "Hello <img src=x onerror=alert(1)> there",
            "<div onclick=\"alert(1)\">click</div>",
            "[click](javascript:alert(1))",
            "[click](JaVaScRiPt:alert(1))",
            "[click](java\tscript:alert(1))",
            "[x](https://ok.example/\" onmouseover=\"alert(1))",
            "![x\" onerror=\"alert(1)](https://img.example/a.png)",
            "![x](javascript:alert(1))",
            "```js\" onmouseover=\"alert(1)\ncode\n```",
            "[ref][1]\n\n[1]: javascript:alert(1)",
            "<a href=\"javascript:alert(1)\">x</a>",
            "<iframe src=\"https://evil.example\"></iframe>",
            "<svg onload=alert(1)>",
        ]
        let allowedTags: Set<String> = ["p", "a", "img", "em", "strong", "code", "pre", "br", "ul", "ol", "li", "h1", "h2", "h3",
                                        "h4", "h5", "h6", "blockquote", "hr", "table", "thead", "tbody", "tr", "th", "td", "del"]
        for markdown in attacks {
            let html = MarkdownRenderer.html(markdown)
            // Every real tag (text never holds a raw "<"), with its attributes (values never hold a raw quote).
            for tag in html.matches(of: /<\/?([a-zA-Z0-9]+)((?:\s+[a-zA-Z-]+="[^"]*")*)\s*\/?>/) {
                let name = String(tag.output.1).lowercased()
                #expect(allowedTags.contains(name), "\(markdown) → \(html)")
                for attribute in String(tag.output.2).matches(of: /([a-zA-Z-]+)="([^"]*)"/) {
                    let key = attribute.output.1.lowercased(), value = attribute.output.2.lowercased()
                    #expect(!key.hasPrefix("on"), "\(markdown) → \(html)")
                    if key == "href" || key == "src" {
                        #expect(value.hasPrefix("https:") || value.hasPrefix("http:") || value.hasPrefix("mailto:") || value.hasPrefix("/") || value.hasPrefix("#"),
                                "\(markdown) → \(html)")
                    }
                }
            }
            // Nothing that looks like a tag is left unparsed: any other "<" is escaped text.
            let stripped = html.replacing(/<\/?([a-zA-Z0-9]+)((?:\s+[a-zA-Z-]+="[^"]*")*)\s*\/?>/, with: "")
            #expect(!stripped.contains("<") && !stripped.contains(">"), "\(markdown) → \(html)")
        }
        // Ordinary Markdown still works.
        let html = MarkdownRenderer.html("## Title\n\nSome **bold**, a [link](https://atelier.example/a?b=1&c=2) and ![pic](/media/public/x.jpg).")
        #expect(html.contains("<h2>Title</h2>") && html.contains("<strong>bold</strong>"))
        #expect(html.contains(#"<a href="https://atelier.example/a?b=1&amp;c=2" rel="nofollow noopener">link</a>"#), "\(html)")
        #expect(html.contains(#"<img src="/media/public/x.jpg" alt="pic" loading="lazy">"#), "\(html)")
    }

    @Test("the web reader: issue list, issue page and an article page with Open Graph tags and a language switch")
    func webReader() async throws {
        try await TestApp.with { t in
            let author = try await t.editor.createAuthor(name: "Ioana Marin", bios: ["en": "Editor."])
            let (issue, articles) = try await t.publishedIssue(3, titles: [("Wool", "Lână"), ("Hems", nil)], by: author)
            let list = try await t.send(.GET, "/magazine?lang=ro")
            #expect(list.status == .ok && list.body.string.contains("Numărul 3"))
            let page = try await t.send(.GET, "/magazine/issues/\(issue.id!)?lang=en")
            #expect(page.body.string.contains("Wool") && page.body.string.contains("Hems"))
            #expect(page.body.string.contains(#"href="/magazine/issues/\#(issue.id!.uuidString.lowercased())?lang=ro""#))
            let article = try await t.send(.GET, "/magazine/articles/\(articles[0].id!)?lang=ro")
            let html = article.body.string
            #expect(html.contains(#"<meta property="og:title" content="Lână">"#), "\(html)")
            #expect(html.contains("Textul: Lână.") && html.contains(#"href="/magazine/articles/\#(articles[0].id!.uuidString.lowercased())?lang=en""#))
            let fallback = try await t.send(.GET, "/magazine/articles/\(articles[1].id!)?lang=ro").body.string
            #expect(fallback.contains("translation-note") && fallback.contains("Text of Hems."))
            #expect(try await t.send(.GET, "/magazine/articles/\(UUID())").status == .notFound)
        }
    }
}
