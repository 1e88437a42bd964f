import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/magazine/articles/{id}/bookmark|rating|comments` and `/me/magazine…`: what signed-in readers do.
extension APIHandler {
    func bookmarkMagazineArticle(_ input: Operations.BookmarkMagazineArticle.Input) async throws -> Operations.BookmarkMagazineArticle.Output {
        let (readers, user) = try await magazineReader()
        let article = try await readers.visibleArticle(try PathID.parse(input.path.articleId, "article"))
        try await readers.bookmark(article, for: user.requireID())
        return .noContent(.init())
    }

    func unbookmarkMagazineArticle(_ input: Operations.UnbookmarkMagazineArticle.Input) async throws -> Operations.UnbookmarkMagazineArticle.Output {
        let (readers, user) = try await magazineReader()
        try await readers.removeBookmark(try PathID.parse(input.path.articleId, "article"), for: user.requireID())
        return .noContent(.init())
    }

    func listMagazineBookmarks(_ input: Operations.ListMagazineBookmarks.Input) async throws -> Operations.ListMagazineBookmarks.Output {
        let (readers, user) = try await magazineReader()
        let req = try request()
        let (page, articles) = try await readers.bookmarks(of: user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        let catalog = MagazineCatalog(db: req.db, core: services.core)
        let lang = catalog.languages.requested(query: input.query.lang, acceptLanguage: req.headers.first(name: .acceptLanguage))
        let issues = Dictionary(try await MagazineIssue.query(on: req.db).filter(\.$id ~~ Set(articles.map(\.issueID))).all().map { ($0.id!, $0) },
                                uniquingKeysWith: { a, _ in a })
        let views = try await catalog.articleViews(articles, issues: issues, lang: lang)
        let media = MagazineMedia(
            byID: Dictionary(try await Media.query(on: req.db).filter(\.$id ~~ views.compactMap(\.article.leadMediaID)).all().map { ($0.id!, $0) },
                             uniquingKeysWith: { a, _ in a }),
            service: MediaService(db: req.db, core: services.core, mediaLibrary: services.media))
        return .ok(.init(body: .json(.init(items: views.map { .init($0, media: media) }, nextCursor: page.nextCursor))))
    }

    func getMagazineArticleRating(_ input: Operations.GetMagazineArticleRating.Input) async throws -> Operations.GetMagazineArticleRating.Output {
        let (readers, user) = try await magazineReader()
        let article = try await readers.visibleArticle(try PathID.parse(input.path.articleId, "article"))
        return .ok(.init(body: .json(.init(try await readers.rating(of: article.requireID(), viewer: user.requireID())))))
    }

    func rateMagazineArticle(_ input: Operations.RateMagazineArticle.Input) async throws -> Operations.RateMagazineArticle.Output {
        let (readers, user) = try await magazineReader()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let article = try await readers.visibleArticle(try PathID.parse(input.path.articleId, "article"))
        return .ok(.init(body: .json(.init(try await readers.rate(article, stars: body.stars, by: user.requireID())))))
    }

    func unrateMagazineArticle(_ input: Operations.UnrateMagazineArticle.Input) async throws -> Operations.UnrateMagazineArticle.Output {
        let (readers, user) = try await magazineReader()
        let article = try await readers.visibleArticle(try PathID.parse(input.path.articleId, "article"))
        return .ok(.init(body: .json(.init(try await readers.unrate(article.requireID(), by: user.requireID())))))
    }

    func listMagazineComments(_ input: Operations.ListMagazineComments.Input) async throws -> Operations.ListMagazineComments.Output {
        let (readers, user) = try await magazineReader()
        let article = try await readers.visibleArticle(try PathID.parse(input.path.articleId, "article"))
        let page = try await readers.comments(on: article.requireID(), viewer: user.requireID(),
                                              page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(.init(items: try await magazineCommentBodies(page.items, viewer: user), nextCursor: page.nextCursor))))
    }

    func commentOnMagazineArticle(_ input: Operations.CommentOnMagazineArticle.Input) async throws -> Operations.CommentOnMagazineArticle.Output {
        let (readers, user) = try await magazineReader()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let article = try await readers.visibleArticle(try PathID.parse(input.path.articleId, "article"))
        let comment = try await readers.comment(on: article, by: user, body: body.body)
        guard let created = try await magazineCommentBodies([comment], viewer: user).first else { throw Problem.notFound("comment") }
        return .created(.init(body: .json(created)))
    }

    func deleteMagazineComment(_ input: Operations.DeleteMagazineComment.Input) async throws -> Operations.DeleteMagazineComment.Output {
        let (readers, user) = try await magazineReader()
        try await readers.deleteComment(
            try PathID.parse(input.path.commentId, "comment"), on: try PathID.parse(input.path.articleId, "article"), by: user)
        return .noContent(.init())
    }

    func getMagazineSubscription(_ input: Operations.GetMagazineSubscription.Input) async throws -> Operations.GetMagazineSubscription.Output {
        let (readers, user) = try await magazineReader()
        return .ok(.init(body: .json(.init(subscribed: try await readers.isSubscribed(user.requireID())))))
    }

    func subscribeToMagazine(_ input: Operations.SubscribeToMagazine.Input) async throws -> Operations.SubscribeToMagazine.Output {
        let (readers, user) = try await magazineReader()
        try await readers.setSubscribed(true, userID: user.requireID())
        return .ok(.init(body: .json(.init(subscribed: true))))
    }

    func unsubscribeFromMagazine(_ input: Operations.UnsubscribeFromMagazine.Input) async throws -> Operations.UnsubscribeFromMagazine.Output {
        let (readers, user) = try await magazineReader()
        try await readers.setSubscribed(false, userID: user.requireID())
        return .ok(.init(body: .json(.init(subscribed: false))))
    }

    private func magazineReader() async throws -> (MagazineReaders, User) {
        let (req, user) = try await socialCaller()
        return (MagazineReaders(db: req.db, core: services.core), user)
    }

    private func magazineCommentBodies(_ comments: [MagazineComment], viewer: User) async throws -> [Components.Schemas.MagazineComment] {
        let req = try request()
        let people = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).peopleByID(comments.map(\.authorID), viewer: viewer.requireID())
        return comments.compactMap { comment in
            people[comment.authorID].map {
                .init(id: comment.id!.idString, articleId: comment.articleID.idString, author: .init($0),
                      body: comment.body, createdAt: comment.createdAt, canDelete: MagazineReaders.canDelete(comment, by: viewer))
            }
        }
    }
}

extension Components.Schemas.MagazineRating {
    init(_ summary: MagazineReaders.RatingSummary) {
        self.init(average: summary.average, count: summary.count, mine: summary.mine)
    }
}
