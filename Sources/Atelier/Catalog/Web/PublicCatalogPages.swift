import Fluent
import SQLKit
import Vapor

/// What the public store and product pages (`StoreAndProductPages`, in the web layer) and the portal
/// draw of the catalogue: product cards, store details and hours, a store's categories; and the
/// shopper's "not in the shop any more" report.
enum PublicCatalogPages {
    static func register(_ web: any RoutesBuilder) {
        web.grouped(RequireWebUser()).post("products", ":productID", "unavailable", use: reportUnavailable)
    }

    /// A signed-in shopper tells the store this is not in the shop any more.
    static func reportUnavailable(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        guard let id = req.parameters.get("productID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("product") }
        let product = try await ProductCatalog(db: req.db).visibleProduct(id, to: user)
        do {
            _ = try await UnavailableReportService(db: req.db, core: req.core)
                .report(product, by: user, note: try? req.content.get(String.self, at: "note"))
            Flash.set("success", "Thanks, the store will check its rails.", on: req)
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("info", problem.errors.first?.message ?? problem.detail ?? problem.title, on: req)
        }
        return req.redirect(to: "/products/\(id.idString)")
    }

    struct ProductCard: Encodable {
        var id: String
        var url: String
        var title: String
        var brand: String?
        var price: String
        var originalPrice: String?
        var status: String
        var photo: WebImage?
    }

    struct CategoryChip: Encodable {
        var id: String
        var name: String
        var count: Int
        var description: String?
        var image: WebImage?
    }

    struct StoreInfo: Encodable {
        var id: String
        var name: String
        var slug: String
        var about: String?
        var street: String
        var postalCode: String
        var city: String
        var phone: String?
        var email: String?
        var website: String?
        var mapURL: String
        var hours: [HoursLine]
        var followerCount: Int
        var activeProductCount: Int
        var logo: WebImage?
        var cover: WebImage?
    }

    struct HoursLine: Encodable {
        var day: String
        var times: String
    }

    /// The categories the store's active products are in, with how many each, most first.
    static func storeCategories(_ storeID: UUID, req: Request, media: MediaService) async throws -> [CategoryChip] {
        let rows = try await req.db.sql.raw("""
            SELECT category_id, COUNT(*) AS n FROM \(ident: Product.schema)
            WHERE store_id = \(bind: storeID) AND status = \(bind: Product.Status.active.rawValue) GROUP BY category_id
            """).all()
        var counts: [UUID: Int] = [:]
        for row in rows { counts[try row.decode(column: "category_id", as: UUID.self)] = try row.decode(column: "n", as: Int.self) }
        guard !counts.isEmpty else { return [] }
        let categories = try await Category.query(on: req.db).filter(\.$id ~~ Array(counts.keys)).all()
        let pictures = try await ProductViewReader(db: req.db).media(ids: categories.compactMap(\.imageMediaID))
        return categories.map { category in
            CategoryChip(
                id: category.id!.idString, name: category.name, count: counts[category.id!] ?? 0,
                description: category.description.isEmpty ? nil : category.description,
                image: WebImage(category.imageMediaID.flatMap { pictures[$0] }, alt: category.name, service: media))
        }
        .sorted { ($0.count, $1.name) > ($1.count, $0.name) }
    }

    static func productCards(_ products: [Product], req: Request, media: MediaService) async throws -> [ProductCard] {
        productCards(cards: try await ProductCardReader(db: req.db).cards(ids: products.compactMap(\.id)), media: media)
    }

    /// The first row's photos load at once (on a phone, the first card's photo is the page's
    /// largest paint: lazy, it waited for layout and cost search its LCP target).
    static func productCards(cards: [ProductCardView], media: MediaService) -> [ProductCard] {
        cards.enumerated().map { index, card in
            let id = card.id.idString
            var photo = WebImage(card.photo, alt: card.title, service: media, preferredWidth: 270)
            photo?.eager = index < 2
            return ProductCard(
                id: id, url: "/products/\(id)", title: card.title,
                brand: card.brandName, price: MoneyText.format(card.priceMinor, card.currency),
                originalPrice: card.originalPriceMinor.map { MoneyText.format($0, card.currency) }, status: card.status,
                photo: photo)
        }
    }

    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    static func storeInfo(_ store: some StoreColumns, media: MediaService) async throws -> StoreInfo {
        let images = try await Media.query(on: media.db).filter(\.$id ~~ [store.logoMediaID, store.coverMediaID].compactMap { $0 }).all()
        let hours = store.openingHours
        let lines = (1...7).map { weekday in
            let periods = hours.filter { $0.weekday == weekday }.map { "\($0.opens)–\($0.closes)" }
            return HoursLine(day: weekdays[weekday - 1], times: periods.isEmpty ? "Closed" : periods.joined(separator: ", "))
        }
        return StoreInfo(
            id: try store.requireID().idString, name: store.name, slug: store.slug, about: store.about.nilIfEmpty, street: store.street,
            postalCode: store.postalCode, city: store.city, phone: store.phone.nilIfEmpty, email: store.email.nilIfEmpty,
            website: store.website.nilIfEmpty,
            mapURL: "https://www.openstreetmap.org/?mlat=\(store.lat)&mlon=\(store.lng)#map=17/\(store.lat)/\(store.lng)",
            hours: hours.isEmpty ? [] : lines, followerCount: store.followerCount, activeProductCount: store.activeProductCount,
            logo: WebImage(images.first { $0.id == store.logoMediaID }, alt: "\(store.name) logo", service: media, preferredWidth: 270),
            cover: WebImage(images.first { $0.id == store.coverMediaID }, alt: "", service: media, preferredWidth: 1080))
    }
}
