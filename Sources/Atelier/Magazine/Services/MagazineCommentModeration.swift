import Fluent
import Foundation

extension MagazineReaders {
    /// A magazine comment as a moderation target: reportable by whoever may see it (not hidden, or
    /// their own; not between people who block each other; on an article they may read).
    static func registerModeration(in targets: ModerationTargets, core: CoreServices) {
        targets.register(.magazineComment, ModerationTargets.Target(
            find: { subjectID, reporterID, db in
                guard let comment = try await MagazineComment.find(subjectID, on: db), comment.hiddenAt == nil || comment.authorID == reporterID,
                    try await !SocialGraph(db: db).blockedEitherWay(reporterID, comment.authorID) || comment.authorID == reporterID
                else { throw Problem.notFound("comment") }
                _ = try await MagazineReaders(db: db, core: core).visibleArticle(comment.articleID)
                return .init(id: comment.id!, authorID: comment.authorID, excerpt: comment.body)
            },
            hide: { subjectID, tx, now in
                try await MagazineComment.query(on: tx).filter(\.$id == subjectID).set(\.$hiddenAt, to: now).update()
            }))
    }
}
