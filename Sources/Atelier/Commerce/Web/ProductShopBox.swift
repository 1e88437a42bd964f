import Fluent
import Vapor

/// What the product page adds for commerce: the sizes to put in the cart, and the reviews.
enum ProductShopBox {
    struct Size: Encodable {
        var variantID: String
        var label: String
        var available: Int
    }

    struct ReviewRow: Encodable {
        var author: String
        var stars: Int
        var starsText: String
        var text: String
        var verified: Bool
        var reply: String?
        var createdAt: Date
    }

    struct Context: Encodable {
        var orderable: Bool
        var sizes: [Size]
        var tradePrice: String?
        var caseSize: Int?
        var reviews: [ReviewRow]
        var average: String?
        var reviewCount: Int
        var myStars: Int?
        var myText: String?
        var canReview: Bool
    }

    static func register(_ web: any RoutesBuilder) {
        web.grouped(RequireWebUser()).post("products", ":productID", "review", use: writeReview)
    }

    static func context(for view: ProductView, user: User?, on db: any Database, core: CoreServices, catalogChanges: CatalogChanges) async throws -> Context {
        let product = view.product
        let settings = try await CommerceSettings.query(on: db).filter(\.$storeID == view.store.requireID()).first()
        let access = StoreAccess(db: db)
        let trade = try await access.seesTradeTerms(of: view.store, user: user) && product.tradePriceMinor != nil
        let reviews = try await ReviewService(db: db, core: core, catalogChanges: catalogChanges).reviews(of: product.id, viewer: user?.id, page: PageRequest(limit: 20, cursor: nil))
        let authors = Dictionary(uniqueKeysWithValues: try await User.query(on: db).filter(\.$id ~~ reviews.items.map(\.userID)).all().map { ($0.id!, $0) })
        var mine: Review?
        if let userID = user?.id {
            mine = try await Review.query(on: db).filter(\.$productID == product.id).filter(\.$userID == userID).first()
        }
        return Context(
            orderable: product.isActive && view.store.isActive && settings?.orderingEnabled == true,
            sizes: view.variants.map {
                Size(variantID: $0.id.idString, label: $0.size + ($0.color.map { " · \($0)" } ?? ""), available: $0.available)
            },
            tradePrice: trade ? MoneyText.format(product.tradePriceMinor!, product.currency) : nil, caseSize: trade ? product.caseSize : nil,
            reviews: reviews.items.map {
                ReviewRow(
                    author: authors[$0.userID]?.displayName ?? "", stars: $0.stars, starsText: String(repeating: "★", count: $0.stars)
                        + String(repeating: "☆", count: 5 - $0.stars), text: $0.text, verified: $0.verified, reply: $0.reply, createdAt: $0.createdAt)
            },
            average: product.reviewCount > 0 ? String(format: "%.1f", Double(product.ratingSum) / Double(product.reviewCount)) : nil,
            reviewCount: product.reviewCount, myStars: mine?.stars, myText: mine?.text, canReview: user != nil && product.isActive)
    }

    static func writeReview(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        guard let id = req.parameters.get("productID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("product") }
        let product = try await ProductCatalog(db: req.db).visibleProductRef(id, to: user)
        do {
            _ = try await ReviewService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges).write(
                stars: (try? req.content.get(Int.self, at: "stars")) ?? 0, text: (try? req.content.get(String.self, at: "text")) ?? "", on: product, by: user)
            Flash.set("success", "Thank you for your review.", on: req)
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", problem.errors.first.map { "\($0.field): \($0.message)" } ?? problem.detail ?? "The review could not be saved.", on: req)
        }
        return req.redirect(to: "/products/\(id.idString)#reviews")
    }
}
