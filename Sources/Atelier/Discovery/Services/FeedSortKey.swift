import Fluent
import Foundation

/// A product's place in the feeds (discovery.md): its creation time plus a random offset within
/// ± the spread, so twenty photos one store uploads at once do not fill a whole screen. A store
/// that uploaded unusually many products in the last 30 days has its offsets pushed down, by up
/// to three more spreads the further it is past the usual amount.
struct FeedSortKey {
    /// Products in 30 days that count as usual for one store (five a day).
    static let usualMonthlyUploads = 150
    /// The uploads a store's penalty weighs: those of the last 30 days.
    static let uploadsWindow: TimeInterval = 30 * 86_400

    let db: any Database
    let spreadHours: Int

    func draw(storeID: UUID, at now: Date) async throws -> Double {
        let recent = try await Product.query(on: db).filter(\.$store.$id == storeID)
            .filter(\.$createdAt >= now.addingTimeInterval(-Self.uploadsWindow)).count()
        return Self.key(createdAt: now, spread: Double(spreadHours) * 3600, recentUploads: recent, random: Double.random(in: -1...1))
    }

    /// `random` in -1...1 picks the offset within the spread.
    static func key(createdAt: Date, spread: Double, recentUploads: Int, random: Double) -> Double {
        let excess = max(0, Double(recentUploads - usualMonthlyUploads) / Double(usualMonthlyUploads))
        let penalty = spread * min(3, excess)
        return createdAt.timeIntervalSince1970 + spread * random - penalty
    }
}
