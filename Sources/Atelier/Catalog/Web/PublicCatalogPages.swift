import Fluent
import SQLKit
import Vapor

/// The public store and product pages (share targets; they work signed out and without JavaScript).
enum PublicCatalogPages {
    static func register(_ web: any RoutesBuilder) {
        web.get("stores", ":slug", use: storePage)
        web.get("products", ":productID", use: productPage)
        web.grouped(RequireWebUser()).post("products", ":productID", "unavailable", use: reportUnavailable)
    }

    /// A signed-in shopper tells the store this is not in the shop any more.
    static func reportUnavailable(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        guard let id = req.parameters.get("productID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("product") }
        let product = try await ProductCatalog(db: req.db).visibleProduct(id, to: user)
        do {
            _ = try await UnavailableReportService(db: req.db, services: req.atelier)
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

    struct StorePage: WebPageContext {
        var page: PageContext
        var store: StoreInfo
        var products: [ProductCard]
        var nextCursor: String?
        var canManage: Bool
        var following: Bool
        /// The categories of what the store has on sale, to browse one at a time (a wholesaler's
        /// customers order by category), and the one chosen with its picture and description.
        var categories: [CategoryChip]
        var category: CategoryChip?
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

    struct ProductPage: WebPageContext {
        var page: PageContext
        var product: ProductDetail
        var store: StoreInfo
        var canManage: Bool
        var liked: Bool
        var wishlisted: Bool
        /// The signed-in user's boards, to pin the product to one.
        var boards: [BoardWebPages.BoardOption]
        /// Sizes to put in the cart, and the reviews.
        var shop: ProductShopBox.Context
        /// Which size fits the signed-in shopper, from the product's size chart and their profile.
        var sizeAdvice: SizeAdvice.Note?
    }

    struct ProductDetail: Encodable {
        var id: String
        var title: String
        var description: String?
        var brand: String?
        /// The brand's page, once an admin has approved the brand.
        var brandURL: String?
        var trail: [String]
        var price: String
        var originalPrice: String?
        var colors: [String]
        var colorName: String?
        var fabric: String?
        var styles: [String]
        var sizes: [SizeLine]
        var photos: [WebImage]
        var minAge: Int?
        var externalURL: String?
        var isActive: Bool
    }

    struct SizeLine: Encodable {
        var size: String
        var color: String?
        var inStock: Bool
    }

    static func storePage(_ req: Request) async throws -> View {
        let slug = req.parameters.get("slug") ?? ""
        let user = req.webSessionUser
        let access = StoreAccess(db: req.db)
        let store = try await access.visibleStore(slug, to: user)
        let page = try PageRequest(limit: 24, cursor: req.query[String.self, at: "cursor"])
        let media = MediaService(db: req.db, services: req.atelier)
        let categories = try await storeCategories(store.requireID(), req: req, media: media)
        let chosen = req.query[String.self, at: "category"].flatMap { raw in categories.first { $0.id == raw.lowercased() } }
        let products = try await ProductCatalog(db: req.db).storeProducts(
            store.requireID(), status: .active, categoryID: chosen.flatMap { UUID(uuidString: $0.id) }, page: page)
        let cards = try await productCards(products.items, req: req, media: media)
        var context = PageContext(req, title: store.name)
        let cover: Media? = if let id = store.coverMediaID { try await Media.find(id, on: req.db) } else { nil }
        context.share = ShareMeta.store(store, cover: cover, service: media, config: req.atelier.config)
        return try await req.renderPage("catalog/store", StorePage(
            page: context, store: try await storeInfo(store, media: media), products: cards,
            nextCursor: products.nextCursor, canManage: try await access.canManage(store, user: user),
            following: try await DiscoveryWebRoutes.follows(store.requireID(), user: user, on: req.db),
            categories: categories, category: chosen))
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

    static func productPage(_ req: Request) async throws -> View {
        guard let id = req.parameters.get("productID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("product") }
        let user = req.webSessionUser
        let (product, view) = try await req.reading { db in
            let catalog = ProductCatalog(db: db)
            let product = try await catalog.visibleProduct(id, to: user)
            return (product, try await catalog.view(product))
        }
        let media = MediaService(db: req.db, services: req.atelier)
        if product.isActive {
            let kind: CatalogCounters.Kind = req.query[String.self, at: "via"] == "share" ? .shareVisit : .view
            await req.atelier.catalogCounters.add(kind, productID: id, storeID: product.$store.id)
        }
        let detail = ProductDetail(
            id: id.idString, title: product.title, description: product.description.nilIfEmpty, brand: view.brand?.name,
            brandURL: view.brand.flatMap { $0.isApproved ? "/brands/\($0.slug)" : nil },
            trail: view.trail, price: MoneyText.format(product.priceMinor, product.currency),
            originalPrice: product.originalPriceMinor.map { MoneyText.format($0, product.currency) },
            colors: product.colors, colorName: product.colorName.nilIfEmpty, fabric: product.fabric.nilIfEmpty, styles: product.styles,
            sizes: view.variants.map { SizeLine(size: $0.size, color: $0.color, inStock: $0.stock > 0) },
            photos: view.photos.enumerated().compactMap { index, photo in
                var image = WebImage(photo, alt: "\(product.title), photo \(index + 1) of \(view.photos.count)", service: media, preferredWidth: 750)
                image?.eager = index == 0
                return image
            },
            minAge: product.minAge, externalURL: product.externalURL, isActive: product.isActive)
        var context = PageContext(req, title: product.title)
        context.share = ShareMeta.product(view, service: media, config: req.atelier.config)
        return try await req.renderPage("catalog/product", ProductPage(
            page: context, product: detail, store: try await storeInfo(view.store, media: media),
            canManage: try await StoreAccess(db: req.db).canManage(view.store, user: user),
            liked: try await DiscoveryWebRoutes.likes(id, user: user, on: req.db),
            wishlisted: try await WishlistWebPage.contains(id, user: user, on: req.db),
            boards: try await BoardWebPages.options(for: user, req: req),
            shop: try await ProductShopBox.context(for: view, user: user, on: req.db, services: req.atelier),
            sizeAdvice: try await SizeAdvice.note(productID: id, for: user, on: req.db)))
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
