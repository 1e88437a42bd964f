import Fluent
import Vapor

/// The shopper's pages: the following and discover feeds, the lookbook, and the like and follow
/// buttons on product and store pages (plain forms, so they work without JavaScript).
enum DiscoveryWebRoutes {
    static func register(_ web: any RoutesBuilder) {
        web.get("search", use: SearchPage.render)
        BoardWebPages.register(web)
        WishlistWebPage.register(web)
        let signedIn = web.grouped(RequireWebUser())
        signedIn.post("search", "save", use: SearchPage.save)
        signedIn.get("feed", use: feedPage)
        signedIn.get("trending", use: trendingPage)
        signedIn.get("lookbook", use: lookbookPage)
        signedIn.post("products", ":productID", "like", use: { try await like($0, liked: true) })
        signedIn.post("products", ":productID", "unlike", use: { try await like($0, liked: false) })
        signedIn.post("stores", ":slug", "follow", use: { try await follow($0, following: true) })
        signedIn.post("stores", ":slug", "unfollow", use: { try await follow($0, following: false) })
    }

    struct FeedPage: WebPageContext {
        var page: PageContext
        var tab: String
        var products: [PublicCatalogPages.ProductCard]
        var nextCursor: String?
        var filtersNote: String
        /// Discover only: whether the shopping preferences hold, and the explicit choice to carry
        /// to the next page ("true", "false" or nil).
        var shoppingPreferences: Bool
        var preferencesChoice: String?
    }

    struct TrendingPage: WebPageContext {
        var page: PageContext
        var products: [PublicCatalogPages.ProductCard]
        var hasPlace: Bool
        var radiusKm: Int
    }

    /// `/trending`: this week's most liked and saved pieces around the home location.
    static func trendingPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        var cards: [PublicCatalogPages.ProductCard] = []
        if let lat = user.homeLat, let lng = user.homeLng {
            let now = req.atelier.clock.now()
            let ranked = try await req.reading { db in
                try await TrendingProducts(db: db, now: now).near(lat: lat, lng: lng, radiusKm: Double(user.radiusKm), limit: 24)
            }
            cards = PublicCatalogPages.productCards(
                cards: try await ProductCardReader(db: req.db).cards(ids: ranked.map(\.id)), media: MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media))
        }
        return try await req.renderPage("discovery/trending", TrendingPage(
            page: PageContext(req, title: "Trending near you"), products: cards, hasPlace: user.homeLat != nil, radiusKm: user.radiusKm))
    }

    struct LookbookPage: WebPageContext {
        var page: PageContext
        var products: [PublicCatalogPages.ProductCard]
        var nextCursor: String?
        var boards: [BoardWebPages.BoardCard]
        /// A product waiting to be pinned to the board about to be made.
        var pinProductID: String?
    }

    /// `/feed?tab=following|discover`, with the filters saved in the settings; "More" follows the cursor.
    /// A "More" link from before the daily re-draw starts the feed again from the top.
    static func feedPage(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let tab = req.query[String.self, at: "tab"] == "discover" ? "discover" : "following"
        let kind: FeedService.Kind = tab == "discover" ? .discover : .following
        let preferences = req.query[String.self, at: "preferences"].map { $0 == "true" || $0 == "on" }
        let cursor = req.query[String.self, at: "cursor"]
        let filters: FeedFilters, page: FeedService.FeedPage
        let visibility = try await req.storeVisibility(for: user)
        do {
            (filters, page) = try await req.reading { db in
                let filters = try await FeedFilters.resolve(
                    kind, for: user, overriding: .init(preferences: preferences), preferences: req.atelier.shoppingPreferences, db: db)
                return (filters, try await FeedService(db: db, core: req.core)
                    .page(kind, for: user, filters: filters, asOf: nil, cursor: cursor, limit: 24, visibility: visibility))
            }
        } catch let problem as Problem where cursor != nil && problem.status == .conflict {
            Flash.set("info", "The feed was reshuffled since that page was loaded; here it is from the top.", on: req)
            var top = URLComponents()
            top.path = "/feed"
            top.queryItems = [URLQueryItem(name: "tab", value: tab)] + (preferences.map { [URLQueryItem(name: "preferences", value: $0 ? "true" : "false")] } ?? [])
            return req.redirect(to: top.string ?? "/feed")
        }
        let cards = PublicCatalogPages.productCards(cards: page.items, media: MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media))
        return try await req.renderPage("discovery/feed", FeedPage(
            page: PageContext(req, title: tab == "discover" ? "Discover" : "Following"), tab: tab, products: cards,
            nextCursor: page.nextCursor, filtersNote: describe(filters), shoppingPreferences: filters.shopping != nil,
            preferencesChoice: preferences.map { $0 ? "true" : "false" }))
            .encodeResponse(for: req)
    }

    static func lookbookPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let page = try PageRequest(limit: 24, cursor: req.query[String.self, at: "cursor"])
        let likes = try await LikeService(db: req.db, core: req.core, likeWrites: req.atelier.likeWrites)
            .lookbook(of: user, page: page, visibility: try await req.storeVisibility(for: user))
        let cards = try await PublicCatalogPages.productCards(likes.items.map(\.product), req: req, media: MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media))
        let boards = try await BoardService(db: req.db, core: req.core).boards(of: user.requireID())
        return try await req.renderPage("discovery/lookbook", LookbookPage(
            page: PageContext(req, title: "Your lookbook"), products: cards, nextCursor: likes.nextCursor,
            boards: BoardWebPages.cards(boards, req: req),
            pinProductID: req.query[String.self, at: "pin"].flatMap(UUID.init(uuidString:))?.idString))
    }

    static func like(_ req: Request, liked: Bool) async throws -> Response {
        let user = try req.requireWebUser()
        guard let id = req.parameters.get("productID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("product") }
        let product = try await ProductCatalog(db: req.db).visibleProduct(id, to: user)
        let likes = LikeService(db: req.db, core: req.core, likeWrites: req.atelier.likeWrites)
        if liked { try await likes.like(product, by: user) } else { try await likes.unlike(product, by: user) }
        Flash.set("success", liked ? "Saved to your lookbook." : "Taken out of your lookbook.", on: req)
        return req.redirect(to: "/products/\(id.idString)")
    }

    static func follow(_ req: Request, following: Bool) async throws -> Response {
        let user = try req.requireWebUser()
        let store = try await StoreAccess(db: req.db).visibleStore(req.parameters.get("slug") ?? "", to: user)
        let follows = FollowService(db: req.db, core: req.core)
        if following { try await follows.follow(.store, store.requireID(), by: user) } else { try await follows.unfollow(.store, store.requireID(), by: user) }
        Flash.set("success", following ? "You follow \(store.name): its new pieces show in your feed." : "You no longer follow \(store.name).", on: req)
        return req.redirect(to: "/stores/\(store.slug)")
    }

    /// Whether the signed-in user likes the product / follows the store or brand (for the buttons).
    static func likes(_ productID: UUID, user: User?, on db: any Database) async throws -> Bool {
        guard let user else { return false }
        return try await ProductLike.query(on: db).filter(\.$userID == user.requireID()).filter(\.$product.$id == productID).count() > 0
    }

    static func follows(_ targetID: UUID, _ target: Follow.Target = .store, user: User?, on db: any Database) async throws -> Bool {
        guard let user else { return false }
        return try await Follow.query(on: db).filter(\.$userID == user.requireID())
            .filter(\.$targetType == target.rawValue).filter(\.$targetID == targetID).count() > 0
    }

    /// The filters in words, under the feed's heading.
    static func describe(_ filters: FeedFilters) -> String {
        var parts: [String] = []
        if let gender = filters.gender { parts.append("for \(gender) (and unisex)") }
        switch filters.place {
        case .radius(_, _, let km): parts.append("within \(km) km of your home")
        case .city(let city): parts.append("in \(city)")
        case nil: parts.append("everywhere")
        }
        if filters.uploadedWithin != .any { parts.append("uploaded \(filters.uploadedWithin == .today ? "today" : "this \(filters.uploadedWithin.rawValue)")") }
        if let held = filters.shopping?.filters, !held.isEmpty { parts.append("in your " + ShoppingPreferences.describe(held)) }
        return "Showing pieces " + parts.joined(separator: ", ") + "."
    }
}
