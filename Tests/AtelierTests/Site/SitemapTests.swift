import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Site: robots.txt and the sitemap")
struct SitemapTests {
    @Test("the sitemap lists public stores and their products with absolute URLs, never a sign-in-to-browse store or its products; bad file names are 404")
    func sitemap() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture()
            let base = t.app.atelier.config.publicBaseURL
            let publicStore = shop.catalog.storeB
            // Every file the index names, joined: what a search engine would read.
            func everything() async throws -> String {
                let index = try await t.send(.GET, "/sitemap.xml")
                #expect(index.status == .ok && index.headers.contentType?.description.hasPrefix("application/xml") == true)
                var text = ""
                for part in index.body.string.components(separatedBy: "<loc>").dropFirst() {
                    let url = String(part.prefix { $0 != "<" })
                    #expect(url.hasPrefix(base + "/sitemaps/"), "\(url)")
                    let file = try await t.send(.GET, String(url.dropFirst(base.count)))
                    #expect(file.status == .ok, "\(url)")
                    text += file.body.string
                }
                return text
            }
            let open = try await everything()
            #expect(open.contains("<loc>\(base)/stores/\(shop.catalog.storeA.slug)</loc>") && open.contains("<loc>\(base)/products/\(shop.productID)</loc>"))
            #expect(open.contains("<loc>\(base)/stores/\(publicStore.slug)</loc>") && open.contains("<loc>\(base)/privacy</loc>"))

            // The store becomes a wholesaler for its approved customers: it and its products leave the sitemap.
            let members = TestApp.settings(["signInToBrowse": "true"])
            #expect(try await t.send(.PUT, "/api/v1/stores/\(shop.storeID)/commerce", json: members, token: shop.owner.accessToken).status == .ok)
            let closed = try await everything()
            #expect(!closed.contains(shop.catalog.storeA.slug) && !closed.contains(shop.productID) && !closed.contains(shop.storeID))
            #expect(closed.contains("<loc>\(base)/stores/\(publicStore.slug)</loc>"))

            for bad in ["products-0.xml", "products-2.xml", "secrets-1.xml", "products.xml", "products-x.xml", "stores-1.txt"] {
                #expect(try await t.send(.GET, "/sitemaps/\(bad)").status == .notFound, "\(bad)")
            }
            let robots = try await t.send(.GET, "/robots.txt")
            #expect(robots.status == .ok && robots.body.string.contains("Sitemap: \(base)/sitemap.xml") && robots.body.string.contains("Disallow: /portal/"))
        }
    }
}
