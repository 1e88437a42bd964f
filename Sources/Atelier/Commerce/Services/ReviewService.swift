import Fluent
import Foundation
import SQLKit

/// Reviews: one per person per product, edited and deleted by their author, answered once by the
/// store, hidden by moderation. Every change moves the product's counters in its transaction, so
/// the average always matches the visible reviews.
struct ReviewService {
    let db: any Database
    let core: CoreServices
    let catalogChanges: CatalogChanges

    static let maxText = 2000

    /// Creates or replaces the caller's review of a product they may see.
    func write(stars: Int, text rawText: String, on product: ProductCatalog.ProductRef, by user: User) async throws -> Review {
        var errors = FieldErrors()
        if !(1...5).contains(stars) { errors.add("stars", "must be 1 to 5") }
        let text = rawText.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count > Self.maxText { errors.add("text", "must be at most \(Self.maxText) characters") }
        try errors.throwIfAny()
        let userID = try user.requireID()
        let now = core.clock.now()
        let review = try await core.writeTransaction(on: db) { tx in
            let verified = try await Self.hasCompletedOrder(userID, product.id, on: tx)
            if let review = try await Review.query(on: tx).filter(\.$productID == product.id).filter(\.$userID == userID).first() {
                if review.hiddenAt == nil { try await Self.bump(product.id, count: 0, stars: stars - review.stars, on: tx) }
                review.stars = stars
                review.text = text
                review.verified = verified
                review.updatedAt = now
                try await review.update(on: tx)
                return review
            }
            // A double tap on "save" sends two first reviews: the second inserts nothing and edits the first.
            let reviewID = UUID.v7(at: now)
            let inserted = try await tx.sql.raw("""
                INSERT INTO \(ident: Review.schema) (id, product_id, user_id, stars, text, verified, created_at, updated_at)
                VALUES (\(bind: reviewID), \(bind: product.id), \(bind: userID), \(bind: stars), \(bind: text), \(bind: verified), \(bind: now), \(bind: now))
                ON CONFLICT (product_id, user_id) DO NOTHING RETURNING id
                """).first()
            guard inserted != nil, let review = try await Review.find(reviewID, on: tx) else {
                guard let existing = try await Review.query(on: tx).filter(\.$productID == product.id).filter(\.$userID == userID).first() else {
                    throw Problem.conflict("The review changed meanwhile; try again.")
                }
                if existing.hiddenAt == nil { try await Self.bump(product.id, count: 0, stars: stars - existing.stars, on: tx) }
                existing.stars = stars
                existing.text = text
                existing.verified = verified
                existing.updatedAt = now
                try await existing.update(on: tx)
                return existing
            }
            try await Self.bump(product.id, count: 1, stars: stars, on: tx)
            return review
        }
        // Ratings order the `top_rated` search sort.
        await catalogChanges.announce()
        return review
    }

    func delete(on product: ProductCatalog.ProductRef, by user: User) async throws {
        let userID = try user.requireID()
        try await core.writeTransaction(on: db) { tx in
            // What the delete removed decides the counters, so a hide racing it counts once.
            let deleted = try await tx.sql.raw("""
                DELETE FROM \(ident: Review.schema) WHERE product_id = \(bind: product.id) AND user_id = \(bind: userID)
                RETURNING stars, hidden_at
                """).first()
            guard let deleted, try deleted.decode(column: "hidden_at", as: Date?.self) == nil else { return }
            try await Self.bump(product.id, count: -1, stars: -(try deleted.decode(column: "stars", as: Int.self)), on: tx)
        }
        await catalogChanges.announce()
    }

    /// The store answers a review of one of its products, once.
    func reply(_ rawReviewID: String, text rawText: String, in store: Store) async throws -> Review {
        let text = rawText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Self.maxText).contains(text.count) else { throw Problem.invalid("text", "must be 1 to \(Self.maxText) characters") }
        guard let id = UUID(uuidString: rawReviewID), let review = try await Review.find(id, on: db),
            let product = try await Product.find(review.productID, on: db), product.$store.id == store.id
        else { throw Problem.notFound("review") }
        let now = core.clock.now()
        let replied = try await core.writeTransaction(on: db) { tx in
            try await tx.sql.raw("""
                UPDATE \(ident: Review.schema) SET reply = \(bind: text), replied_at = \(bind: now) WHERE id = \(bind: id) AND reply IS NULL
                RETURNING id
                """).first()
        }
        guard replied != nil else { throw Problem.conflict("\(store.name) has already replied to this review.") }
        review.reply = text
        review.repliedAt = now
        return review
    }

    /// Visible reviews of a product, newest first; the caller's own is shown even when hidden.
    func reviews(of productID: UUID, viewer: UUID?, page: PageRequest) async throws -> Page<Review> {
        let query = Review.query(on: db).filter(\.$productID == productID)
        if let viewer {
            query.group(.or) { $0.filter(\.$hiddenAt == nil).filter(\.$userID == viewer) }
        } else {
            query.filter(\.$hiddenAt == nil)
        }
        let rows = try await query.newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// Moderation hid the review: it stops counting.
    static func hide(_ reviewID: UUID, on tx: any Database, now: Date) async throws {
        let hidden = try await tx.sql.raw("""
            UPDATE \(ident: Review.schema) SET hidden_at = \(bind: now) WHERE id = \(bind: reviewID) AND hidden_at IS NULL
            RETURNING product_id, stars
            """).first()
        guard let hidden else { return }
        try await bump(try hidden.decode(column: "product_id", as: UUID.self), count: -1, stars: -(try hidden.decode(column: "stars", as: Int.self)), on: tx)
    }

    /// Account deletion: the person's reviews go, and stop counting.
    static func removeAll(of userID: UUID, on tx: any Database) async throws {
        let removed = try await tx.sql.raw("""
            DELETE FROM \(ident: Review.schema) WHERE user_id = \(bind: userID) RETURNING product_id, stars, hidden_at
            """).all()
        for row in removed where try row.decode(column: "hidden_at", as: Date?.self) == nil {
            try await bump(try row.decode(column: "product_id", as: UUID.self), count: -1, stars: -(try row.decode(column: "stars", as: Int.self)), on: tx)
        }
    }

    static func hasCompletedOrder(_ userID: UUID, _ productID: UUID, on tx: any Database) async throws -> Bool {
        try await tx.sql.raw("""
            SELECT 1 AS found FROM \(ident: Order.schema) o JOIN \(ident: OrderLine.schema) l ON l.order_id = o.id
            WHERE o.user_id = \(bind: userID) AND o.status = \(bind: Order.Status.completed.rawValue) AND l.product_id = \(bind: productID)
            LIMIT 1
            """).first() != nil
    }

    private static func bump(_ productID: UUID, count: Int, stars: Int, on tx: any Database) async throws {
        try await tx.sql.raw("""
            UPDATE \(ident: Product.schema) SET review_count = review_count + \(bind: count), rating_sum = rating_sum + \(bind: stars)
            WHERE id = \(bind: productID)
            """).run()
    }
}
