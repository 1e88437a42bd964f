import Fluent
import SQLKit
import Vapor

/// `/brands/:slug` (catalog.md, Brands): an approved brand's newest products across every
/// public store, the stores that carry it, and a follow button (a followed brand's new pieces
/// show in the following feed). Proposed brands have no public page yet: 404 like any unknown slug.
enum BrandPages {
    static let pageSize = 24

    struct StoreLine: Encodable {
        var name: String
        var url: String
        var city: String
        var pieces: Int
    }

    struct Context: WebPageContext {
        var page: PageContext
        var brand: BrandInfo
        var products: [PublicCatalogPages.ProductCard]
        var moreURL: String?
        var stores: [StoreLine]
        var following: Bool
    }

    struct BrandInfo: Encodable {
        var id: String
        var name: String
        var slug: String
        var logo: WebImage?
        var followerCount: Int
    }

    static func register(_ web: any RoutesBuilder) {
        web.get("brands", ":slug", use: page)
        let signedIn = web.grouped(RequireWebUser())
        signedIn.post("brands", ":slug", "follow", use: { try await follow($0, following: true) })
        signedIn.post("brands", ":slug", "unfollow", use: { try await follow($0, following: false) })
    }

    static func page(_ req: Request) async throws -> View {
        let brand = try await approvedBrand(req)
        let brandID = try brand.requireID()
        var query = ProductSearchQuery()
        query.brandIDs = [brandID]
        query.sort = .newest
        let searched = query
        let cursor = req.query[String.self, at: "cursor"]
        let (results, stores) = try await req.reading { db in
            (try await ProductSearch(req, db: db)
                .run(searched, cursor: cursor, limit: pageSize, facets: false),
             try await carriers(of: brandID, on: db))
        }
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let logo: Media? = if let id = brand.logoMediaID { try await Media.find(id, on: req.db) } else { nil }
        var context = PageContext(req, title: brand.name)
        let base = req.atelier.config.publicBaseURL
        context.share = ShareMeta(
            type: "website", title: brand.name,
            description: "\(brand.name) in \(stores.count == 1 ? "1 store" : "\(stores.count) stores") on Atelier.",
            url: "\(base)/brands/\(brand.slug)", image: ShareMeta.image(logo, alt: brand.name, service: media, baseURL: base),
            appleAppStoreID: req.atelier.config.appLinks.appleAppStoreID)
        return try await req.renderPage("catalog/brand", Context(
            page: context,
            brand: BrandInfo(id: brandID.idString, name: brand.name, slug: brand.slug, logo: WebImage(logo, alt: brand.name, service: media),
                             followerCount: brand.followerCount),
            products: PublicCatalogPages.productCards(cards: results.items, media: media),
            moreURL: results.nextCursor.map { "/brands/\(brand.slug)?cursor=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)" },
            stores: stores,
            following: try await DiscoveryWebRoutes.follows(brandID, .brand, user: req.webSessionUser, on: req.db)))
    }

    static func follow(_ req: Request, following: Bool) async throws -> Response {
        let user = try req.requireWebUser()
        let brand = try await approvedBrand(req)
        let follows = FollowService(db: req.db, core: req.core)
        if following { try await follows.follow(.brand, brand.requireID(), by: user) } else { try await follows.unfollow(.brand, brand.requireID(), by: user) }
        Flash.set("success", following ? "You follow \(brand.name): its new pieces show in your feed." : "You no longer follow \(brand.name).", on: req)
        return req.redirect(to: "/brands/\(brand.slug)")
    }

    private static func approvedBrand(_ req: Request) async throws -> Brand {
        let slug = req.parameters.get("slug") ?? ""
        guard let brand = try await Brand.query(on: req.db).filter(\.$slug == slug).first(), brand.isApproved else {
            throw Problem.notFound("brand")
        }
        return brand
    }

    /// The public stores with active pieces of the brand, the most pieces first.
    private static func carriers(of brandID: UUID, on db: any Database) async throws -> [StoreLine] {
        struct Row: Decodable { var name: String; var slug: String; var city: String; var pieces: Int }
        let rows = try await db.sql.raw("""
            SELECT s.name, s.slug, s.city, COUNT(*) AS pieces FROM \(ident: Product.schema) p
            JOIN \(ident: Store.schema) s ON s.id = p.store_id
            WHERE p.brand_id = \(bind: brandID) AND p.status = \(bind: Product.Status.active.rawValue)
              AND \(Store.isPublicSQL())
            GROUP BY s.id, s.name, s.slug, s.city ORDER BY pieces DESC, s.name
            """).all(decoding: Row.self)
        return rows.map { StoreLine(name: $0.name, url: "/stores/\($0.slug)", city: $0.city, pieces: $0.pieces) }
    }
}
