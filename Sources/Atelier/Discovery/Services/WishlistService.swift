import Fluent
import Foundation
import SQLKit

/// The wishlist and the walk through the stores that hold it.
struct WishlistService {
    struct Stop: Sendable {
        var store: Store
        var products: [Product]
        /// From the previous stop (or the start), in metres.
        var distanceMeters: Int
    }

    struct Route: Sendable {
        var stops: [Stop]
        var totalMeters: Int
    }

    let db: any Database
    let core: CoreServices

    private var now: Date { core.clock.now() }

    /// Adds a product (a no-op when it is there already).
    func add(_ product: Product, for user: User) async throws {
        try await db.sql.raw("""
            INSERT INTO \(ident: WishlistItem.schema) (id, user_id, product_id, created_at)
            VALUES (\(bind: UUID.v7(at: now)), \(bind: try user.requireID()), \(bind: try product.requireID()), \(bind: now))
            ON CONFLICT (user_id, product_id) DO NOTHING
            """).run()
    }

    func remove(_ productID: UUID, for user: User) async throws {
        try await WishlistItem.query(on: db).filter(\.$userID == user.requireID()).filter(\.$product.$id == productID).delete()
    }

    /// The wishlisted products still on sale, newest addition first.
    func items(of user: User, page: PageRequest) async throws -> Page<Product> {
        let userID = try user.requireID()
        let rows = try await visibleItems(of: userID).newestFirst(page).all()
        let items = try rows.map { ($0, try $0.joined(Product.self)) }
        return Page(fetched: items, limit: page.limit) { PageCursor(id: $0.0.id!) }.map(\.1)
    }

    /// Every store holding a wishlisted product, in walking order from (`lat`, `lng`).
    func route(for user: User, fromLat lat: Double, lng: Double) async throws -> Route {
        let products = try await visibleItems(of: user.requireID()).sort(\.$id).all().map { try $0.joined(Product.self) }
        let storeIDs = Array(Set(products.map { $0.$store.id }))
        let stores = try await Store.query(on: db).filter(\.$id ~~ storeIDs).all()
        // Stores in the order their first item was added: the list as the user wrote it.
        let listed = stores.sorted { a, b in
            products.firstIndex { $0.$store.id == a.id }! < products.firstIndex { $0.$store.id == b.id }!
        }
        typealias Walk = WalkingRoute<Store>
        let start = Walk.Point(lat: lat, lng: lng)
        let walk = Walk(start: start, stops: listed.map { ($0, Walk.Point(lat: $0.lat, lng: $0.lng)) }).ordered()
        var previous = start
        var total = 0.0
        let stops = walk.map { stop, at in
            let kilometres = Walk.distance(previous, at)
            previous = at
            total += kilometres
            return Stop(store: stop, products: products.filter { $0.$store.id == stop.id }, distanceMeters: Int((kilometres * 1000).rounded()))
        }
        return Route(stops: stops, totalMeters: Int((total * 1000).rounded()))
    }

    /// The user's items whose products are active in active stores.
    private func visibleItems(of userID: UUID) -> QueryBuilder<WishlistItem> {
        WishlistItem.query(on: db).filter(\.$userID == userID).joiningVisibleProducts(\.$product.$id)
    }
}
