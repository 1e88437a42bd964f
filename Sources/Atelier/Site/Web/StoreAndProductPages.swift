import Fluent
import SQLKit
import Vapor

/// The public store and product pages (share targets; they work signed out and without JavaScript).
/// In the web layer because they compose several domains: the catalogue's store and product, discovery's
/// follow, like, wishlist and board buttons, commerce's shop box and the wardrobe's size advice.
enum StoreAndProductPages {
    static func register(_ web: any RoutesBuilder) {
        web.get("stores", ":slug", use: storePage)
        web.get("products", ":productID", use: productPage)
    }

    struct StorePage: WebPageContext {
        var page: PageContext
        var store: PublicCatalogPages.StoreInfo
        var products: [PublicCatalogPages.ProductCard]
        var nextCursor: String?
        var canManage: Bool
        var following: Bool
        /// The categories of what the store has on sale, to browse one at a time (a wholesaler's
        /// customers order by category), and the one chosen with its picture and description.
        var categories: [PublicCatalogPages.CategoryChip]
        var category: PublicCatalogPages.CategoryChip?
    }

    struct ProductPage: WebPageContext {
        var page: PageContext
        var product: ProductDetail
        var store: PublicCatalogPages.StoreInfo
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
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let categories = try await PublicCatalogPages.storeCategories(store.requireID(), req: req, media: media)
        let chosen = req.query[String.self, at: "category"].flatMap { raw in categories.first { $0.id == raw.lowercased() } }
        let products = try await ProductCatalog(db: req.db).storeProducts(
            store.requireID(), status: .active, categoryID: chosen.flatMap { UUID(uuidString: $0.id) }, page: page)
        let cards = try await PublicCatalogPages.productCards(products.items, req: req, media: media)
        var context = PageContext(req, title: store.name)
        let cover: Media? = if let id = store.coverMediaID { try await Media.find(id, on: req.db) } else { nil }
        context.share = ShareMeta.store(store, cover: cover, service: media, config: req.atelier.config)
        return try await req.renderPage("catalog/store", StorePage(
            page: context, store: try await PublicCatalogPages.storeInfo(store, media: media), products: cards,
            nextCursor: products.nextCursor, canManage: try await access.canManage(store, user: user),
            following: try await DiscoveryWebRoutes.follows(store.requireID(), user: user, on: req.db),
            categories: categories, category: chosen))
    }

    static func productPage(_ req: Request) async throws -> View {
        guard let id = req.parameters.get("productID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("product") }
        let user = req.webSessionUser
        let (product, view) = try await req.reading { db in
            let catalog = ProductCatalog(db: db)
            let product = try await catalog.visibleProduct(id, to: user)
            return (product, try await catalog.view(product))
        }
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
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
            page: context, product: detail, store: try await PublicCatalogPages.storeInfo(view.store, media: media),
            canManage: try await StoreAccess(db: req.db).canManage(view.store, user: user),
            liked: try await DiscoveryWebRoutes.likes(id, user: user, on: req.db),
            wishlisted: try await WishlistWebPage.contains(id, user: user, on: req.db),
            boards: try await BoardWebPages.options(for: user, req: req),
            shop: try await ProductShopBox.context(for: view, user: user, on: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges),
            sizeAdvice: try await SizeAdvice.note(productID: id, for: user, on: req.db)))
    }
}
