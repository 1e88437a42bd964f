import AtelierAPI
import Foundation
import Observation

/// One issue in TSM: its cover and articles in order, from the phone's copy when it holds them
/// (readable offline), otherwise from the server.
@MainActor
@Observable
public final class IssueScreen {
    public let issueID: String
    public private(set) var issue: MagazineLibrary.Issue?
    public private(set) var articles: [MagazineLibrary.Article] = []
    /// Whether what is shown came from the phone's copy.
    public private(set) var isFromCopy = false
    public let activity = ScreenActivity()
    private let session: AtelierSession
    private let library: MagazineLibrary

    public init(session: AtelierSession, library: MagazineLibrary, issueID: String) {
        self.session = session
        self.library = library
        self.issueID = issueID.lowercased()
    }

    public func load() async {
        if let kept = await library.issue(issueID), !kept.articles.isEmpty {
            (issue, articles, isFromCopy) = (kept.issue, kept.articles, true)
            return
        }
        let language = library.language
        guard let fetched = await activity.run({ [session, issueID] in
            try await session.magazine.getMagazineIssue(issueId: issueID, query: .init(lang: language))
        }) else { return }
        (issue, articles, isFromCopy) = (fetched, (fetched.articles ?? []).sorted { $0.position < $1.position }, false)
    }
}
