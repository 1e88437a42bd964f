import Fluent
import SQLKit
import Vapor

/// `GET /go/{productId}`: to the product's external shop, counting the click for the store's
/// stats (per product per day). Only products the visitor may see, and only http(s) addresses,
/// so the route cannot be used as an open redirect.
enum AffiliateRedirect {
    static func register(_ app: Application) {
        app.get("go", ":productID") { req async throws -> Response in
            guard let id = req.parameters.get("productID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("product") }
            let user = try? await req.optionalCaller()?.user
            let product = try await ProductCatalog(db: req.db).visibleProduct(id, to: user)
            guard let raw = product.externalURL, let url = URL(string: raw), ["http", "https"].contains(url.scheme?.lowercased() ?? "")
            else { throw Problem.notFound("shop link") }
            let day = StatsDay.string(req.atelier.clock.now())
            let storeID = product.$store.id
            try await req.atelier.writeTransaction(on: req.db) { tx in
                try await tx.sql.raw("""
                    INSERT INTO affiliate_clicks (product_id, store_id, day, clicks) VALUES (\(bind: id), \(bind: storeID), \(bind: day), 1)
                    ON CONFLICT (product_id, day) DO UPDATE SET clicks = affiliate_clicks.clicks + 1
                    """).run()
                try await StoreStatsService.bump(storeID: storeID, day: day, shopClicks: 1, on: tx.sql)
            }
            let response = req.redirect(to: url.absoluteString, redirectType: .normal)
            response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
            return response
        }
    }
}
