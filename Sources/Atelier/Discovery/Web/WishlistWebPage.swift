import Fluent
import Vapor

/// `/wishlist`: the shopping list with a walking route through its stores, from the browser's
/// position (`?lat=&lng=`, filled in by a script) or else the home location in the settings.
enum WishlistWebPage {
    struct Stop: Encodable {
        var number: Int
        var storeName: String
        var storeURL: String
        var address: String
        var distance: String
        var openNow: Bool
        var hours: String
        var products: [PublicCatalogPages.ProductCard]
    }

    struct Context: WebPageContext {
        var page: PageContext
        var products: [PublicCatalogPages.ProductCard]
        var stops: [Stop]
        var totalDistance: String?
        var from: String?
        var moreURL: String?
    }

    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.get("wishlist", use: page)
        signedIn.post("products", ":productID", "wishlist", use: { try await set($0, on: true) })
        signedIn.post("products", ":productID", "unwishlist", use: { try await set($0, on: false) })
    }

    static func contains(_ productID: UUID, user: User?, on db: any Database) async throws -> Bool {
        guard let user else { return false }
        return try await WishlistItem.query(on: db).filter(\.$userID == user.requireID()).filter(\.$product.$id == productID).count() > 0
    }

    static func page(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let service = WishlistService(db: req.db, core: req.core)
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let items = try await service.items(of: user, page: PageRequest(limit: 48, cursor: req.query[String.self, at: "cursor"]))
        let cards = try await PublicCatalogPages.productCards(items.items, req: req, media: media)

        var origin: (lat: Double, lng: Double, label: String)?
        if let lat = req.query[Double.self, at: "lat"], let lng = req.query[Double.self, at: "lng"],
            (-90...90).contains(lat), (-180...180).contains(lng)
        {
            origin = (lat, lng, "where you are")
        } else if let lat = user.homeLat, let lng = user.homeLng {
            origin = (lat, lng, "your home")
        }
        var stops: [Stop] = []
        var total: String?
        if let origin, !items.items.isEmpty {
            let route = try await service.route(for: user, fromLat: origin.lat, lng: origin.lng)
            let now = req.atelier.clock.now()
            for (index, stop) in route.stops.enumerated() {
                let hours = stop.store.openingHours.filter { OpeningTimes.weekday(of: now, timeZone: stop.store.timeZone) == $0.weekday }
                stops.append(Stop(
                    number: index + 1, storeName: stop.store.name, storeURL: "/stores/\(stop.store.slug)",
                    address: "\(stop.store.street), \(stop.store.city)", distance: distanceText(stop.distanceMeters),
                    openNow: OpeningTimes.isOpen(stop.store.openingHours, timeZone: stop.store.timeZone, at: now),
                    hours: hours.isEmpty ? "Closed today" : "Today " + hours.map { "\($0.opens)–\($0.closes)" }.joined(separator: ", "),
                    products: try await PublicCatalogPages.productCards(stop.products, req: req, media: media)))
            }
            total = distanceText(route.totalMeters)
        }
        return try await req.renderPage("discovery/wishlist", Context(
            page: PageContext(req, title: "Shopping list"), products: cards, stops: stops, totalDistance: total, from: origin?.label,
            moreURL: items.nextCursor.map { "/wishlist?cursor=\($0)" }))
    }

    static func set(_ req: Request, on: Bool) async throws -> Response {
        let user = try req.requireWebUser()
        guard let id = req.parameters.get("productID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("product") }
        let service = WishlistService(db: req.db, core: req.core)
        if on {
            try await service.add(try await ProductCatalog(db: req.db).visibleProduct(id, to: user), for: user)
            Flash.set("success", "On your shopping list. Your route through the stores is under Shopping list.", on: req)
        } else {
            try await service.remove(id, for: user)
            Flash.set("success", "Taken off your shopping list.", on: req)
        }
        return req.redirect(to: "/products/\(id.idString)")
    }

    static func distanceText(_ meters: Int) -> String {
        meters < 1000 ? "\(meters) m" : String(format: "%.1f km", Double(meters) / 1000)
    }
}
