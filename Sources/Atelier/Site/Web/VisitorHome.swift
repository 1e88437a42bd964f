import Vapor

/// The signed-out home page (web.md, Home): a search bar, what hangs in the shops near the
/// visitor with infinite scroll, the stores near them and whether they are open now, the latest
/// magazine issue and the way to sign up. "Near" is the browser's position when the visitor lets
/// the page use it (home-location.js reloads with `lat` and `lng`), else the city with the most
/// shops: a visitor never sees an empty page because we do not know where they are.
enum VisitorHome {
    static let radiusKm = 25
    static let storeCount = 6
    static let pageSize = 24

    struct StoreCard: Encodable {
        var name: String
        var url: String
        var street: String
        var city: String
        var distance: String
        var openNow: Bool
    }

    struct Context: WebPageContext {
        var page: PageContext
        /// "near you" or "in Gothenburg".
        var placeLabel: String
        /// Whether the page is about the visitor's own position (the script then leaves it alone).
        var usesPosition: Bool
        /// Shown when the visitor's position has no shops around it and the city is shown instead.
        var fallbackNote: String?
        var products: [PublicCatalogPages.ProductCard]
        var moreURL: String?
        var stores: [StoreCard]
        var magazine: MagazineWebPages.IssueCard?
    }

    private struct Place {
        var lat: Double
        var lng: Double
        var label: String
        var isVisitor: Bool
    }

    static func render(_ req: Request) async throws -> View {
        let cursor = req.query[String.self, at: "cursor"]
        let asked = position(req)
        var place = asked
        var stores: [NearbyStores.Entry] = []
        var fallbackNote: String?
        if let here = place {
            stores = try await nearbyStores(here, req)
            if stores.isEmpty { place = nil }
        }
        // The city is looked up only when the visitor's own position is unknown or has no shop near it.
        if place == nil, let city = try await req.reading({ try await StoreLocations(db: $0).busiestCity() }) {
            if asked != nil { fallbackNote = "No shops within \(radiusKm) km of you yet, so here is what hangs in \(city.name)." }
            place = Place(lat: city.lat, lng: city.lng, label: "in \(city.name)", isVisitor: false)
            stores = try await nearbyStores(place!, req)
        }
        var products: [PublicCatalogPages.ProductCard] = []
        var moreURL: String?
        if let place {
            var query = ProductSearchQuery()
            query.near = .init(lat: place.lat, lng: place.lng, radiusKm: Double(radiusKm))
            query.sort = .newest
            let searched = query
            let results = try await req.reading { db in
                try await ProductSearch(req, db: db)
                    .run(searched, cursor: cursor, limit: pageSize, facets: false)
            }
            products = PublicCatalogPages.productCards(cards: results.items, media: MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media))
            moreURL = results.nextCursor.map { next in
                var items = [URLQueryItem(name: "cursor", value: next)]
                if let asked, place.isVisitor { items = positionItems(asked) + items }
                var components = URLComponents()
                components.path = "/"
                components.queryItems = items
                return components.string ?? "/"
            }
        }
        return try await req.renderPage("discovery/home-visitor", Context(
            page: PageContext(req, title: "Fashion, close to home"), placeLabel: place?.label ?? "everywhere",
            usesPosition: asked != nil, fallbackNote: fallbackNote, products: products, moreURL: moreURL,
            stores: stores.map(card), magazine: try await MagazineWebPages.latestIssue(req)))
    }

    /// The visitor's position from the page's own reload, rounded to about 100 m; nil when absent
    /// or not a place on Earth (the page then shows the city rather than an error).
    private static func position(_ req: Request) -> Place? {
        guard let lat = req.query[Double.self, at: "lat"], let lng = req.query[Double.self, at: "lng"] else { return nil }
        var errors = FieldErrors()
        Geo.check(lat: lat, lng: lng, into: &errors)
        guard errors.errors.isEmpty else { return nil }
        return Place(lat: (lat * 1000).rounded() / 1000, lng: (lng * 1000).rounded() / 1000, label: "near you", isVisitor: true)
    }

    private static func positionItems(_ place: Place) -> [URLQueryItem] {
        [URLQueryItem(name: "lat", value: String(place.lat)), URLQueryItem(name: "lng", value: String(place.lng))]
    }

    private static func nearbyStores(_ place: Place, _ req: Request) async throws -> [NearbyStores.Entry] {
        try await req.reading { db in
            try await NearbyStores(db: db, core: req.core).around(lat: place.lat, lng: place.lng, radiusKm: radiusKm, openOnly: false, limit: storeCount)
        }
    }

    private static func card(_ entry: NearbyStores.Entry) -> StoreCard {
        let meters = entry.distanceMeters
        let distance = meters < 1000 ? "\(max(50, (meters / 50) * 50)) m" : String(format: "%.1f km", Double(meters) / 1000)
        return StoreCard(name: entry.store.name, url: "/stores/\(entry.store.slug)", street: entry.store.street, city: entry.store.city,
                         distance: distance, openNow: entry.openNow)
    }
}
