import AtelierAPI
import Foundation
import Observation

/// TSM's reader: one article from the phone's copy (offline) or the server, its lead image's
/// bytes when kept offline, and the bookmark.
@MainActor
@Observable
public final class ReaderScreen {
    public let articleID: String
    public private(set) var article: MagazineLibrary.Article?
    /// The lead image kept offline; nil when there is none or it was not kept (use its URL then).
    public private(set) var leadImageData: Data?
    public private(set) var isFromCopy = false
    public let activity = ScreenActivity()
    private let session: AtelierSession
    private let library: MagazineLibrary

    public init(session: AtelierSession, library: MagazineLibrary, articleID: String) {
        self.session = session
        self.library = library
        self.articleID = articleID.lowercased()
    }

    public func load() async {
        if let kept = await library.article(articleID) {
            (article, isFromCopy) = (kept, true)
        } else {
            let language = library.language
            guard let fetched = await activity.run({ [session, articleID] in
                try await session.magazine.getMagazineArticle(articleId: articleID, query: .init(lang: language))
            }) else { return }
            (article, isFromCopy) = (fetched, false)
        }
        if let image = article?.leadImage { leadImageData = await library.imageData(image) }
    }

    public var isBookmarked: Bool { article?.viewer?.bookmarked ?? false }

    /// Bookmarks or un-bookmarks (signed in; needs the network).
    public func toggleBookmark() async {
        let wanted = !isBookmarked
        let done = await activity.run(exclusive: false) { [session, articleID] in
            if wanted { try await session.magazine.bookmarkMagazineArticle(articleId: articleID) } else {
                try await session.magazine.unbookmarkMagazineArticle(articleId: articleID)
            }
            return true
        }
        guard done == true else { return }
        if article?.viewer == nil { article?.viewer = .init(bookmarked: wanted) } else { article?.viewer?.bookmarked = wanted }
    }
}
