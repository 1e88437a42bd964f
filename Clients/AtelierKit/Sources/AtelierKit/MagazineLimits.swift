import AtelierAPI
import Foundation

extension MagazineLibrary {
    /// How much of the magazine the app keeps offline. nil means no limit.
    public struct Limits: Sendable, Equatable {
        /// The largest the stored copy may be, in bytes of its JSON form (`MagazineSnapshot.encoded()`).
        /// Over it, the articles of the oldest issues (by `publishedAt`) are dropped first; the
        /// issues themselves stay listed. Only if that is not enough are the oldest issues dropped.
        public var maxBytes: Int?
        /// Issues published longer ago than this are dropped, with their articles.
        public var maxAge: Duration?

        public init(maxBytes: Int? = nil, maxAge: Duration? = nil) {
            self.maxBytes = maxBytes
            self.maxAge = maxAge
        }

        public static var unlimited: Limits { Limits() }
    }
}

/// What enforcing the limits removed.
struct MagazineDrops {
    var issues: [String] = []
    var articles: [String] = []
}

extension MagazineSnapshot {
    /// Removes the issue, its articles and their times; returns the ids of the articles removed.
    @discardableResult
    mutating func removeIssue(_ id: String) -> [String] {
        issues[id] = nil
        fetchedAt[id] = nil
        let orphans = articles.values.filter { $0.issueId == id }.map(\.id)
        for article in orphans { removeArticle(article) }
        return orphans
    }

    mutating func removeArticle(_ id: String) {
        articles[id] = nil
        fetchedAt[id] = nil
    }

    mutating func removeAuthor(_ id: String) {
        authors[id] = nil
        fetchedAt[id] = nil
    }

    /// Drops what the limits do not allow. Local only: the cursor stays, so what was dropped comes
    /// back only if it changes on the server (and is then held to the limits again).
    mutating func enforce(_ limits: MagazineLibrary.Limits, now: Date) throws -> MagazineDrops {
        var drops = MagazineDrops()
        // Articles whose issue is not here (dropped before) cannot be shown.
        for article in articles.values where issues[article.issueId] == nil {
            removeArticle(article.id)
            drops.articles.append(article.id)
        }
        if let maxAge = limits.maxAge {
            let cutoff = now.addingTimeInterval(-maxAge.timeInterval)
            for issue in issues.values where issue.publishedAt < cutoff {
                drops.articles += removeIssue(issue.id)
                drops.issues.append(issue.id)
            }
        }
        if let maxBytes = limits.maxBytes {
            try shrink(to: maxBytes, drops: &drops)
        }
        drops.issues.sort()
        drops.articles.sort()
        return drops
    }

    /// Drops the articles of the oldest issues, then (if still needed) the oldest issues, until the
    /// JSON form fits in `maxBytes`. Sizes are estimated from each article's own JSON (never less
    /// than what removing it saves) and checked exactly before stopping, so one encoding of the
    /// whole copy per step is not needed.
    private mutating func shrink(to maxBytes: Int, drops: inout MagazineDrops) throws {
        var exact = try encoded().count
        guard exact > maxBytes else { return }
        let encoder = Self.encoder
        let oldestFirst = issues.values.sorted { ($0.publishedAt, $0.number, $0.id) < ($1.publishedAt, $1.number, $1.id) }
        let byIssue = Dictionary(grouping: articles.values, by: \.issueId)
        var estimate = exact
        for issue in oldestFirst where exact > maxBytes {
            guard let group = byIssue[issue.id], !group.isEmpty else { continue }
            for article in group {
                // `"id":{…},` in `articles` and `"id":<date>,` in `fetchedAt`.
                estimate -= try encoder.encode(article).count + 2 * article.id.utf8.count + 40
                removeArticle(article.id)
                drops.articles.append(article.id)
            }
            if estimate <= maxBytes {
                exact = try encoded().count
                estimate = exact
            }
        }
        for issue in oldestFirst where exact > maxBytes {
            removeIssue(issue.id)
            drops.issues.append(issue.id)
            exact = try encoded().count
        }
    }
}

extension Duration {
    fileprivate var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
