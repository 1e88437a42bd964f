import Fluent
import Foundation

extension ReviewService {
    /// A review as a moderation target: reportable by whoever may see it (not hidden, or their own) on a
    /// product they may see; hiding takes it out of the product's rating.
    static func registerModeration(in targets: ModerationTargets) {
        targets.register(.review, ModerationTargets.Target(
            find: { subjectID, reporterID, db in
                guard let review = try await Review.find(subjectID, on: db), review.hiddenAt == nil || review.userID == reporterID else {
                    throw Problem.notFound("review")
                }
                _ = try await ProductCatalog(db: db).visibleProductRef(review.productID, to: try await User.find(reporterID, on: db))
                return .init(id: review.id!, authorID: review.userID, excerpt: "\(review.stars)★ \(review.text)")
            },
            hide: { subjectID, tx, now in
                try await ReviewService.hide(subjectID, on: tx, now: now)
            }))
    }
}
