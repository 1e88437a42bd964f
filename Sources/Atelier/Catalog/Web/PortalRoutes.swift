import Fluent
import Vapor

/// The store portal: pick a store, its products in two tabs, quick activate/deactivate and delete.
/// The product form, the store pages (profile, staff, stats) and import live in their own files; the
/// domains above the catalogue add their pages to the store's group it returns (the composition root
/// registers them: orders, shop, selling).
enum PortalRoutes {
    @discardableResult
    static func register(_ web: any RoutesBuilder) -> any RoutesBuilder {
        let portal = web.grouped("portal").grouped(RequireWebUser())
        portal.get(use: picker)
        let store = portal.grouped("stores", ":storeID")
        store.get { req in req.redirect(to: "/portal/stores/\(req.pathSegment("storeID"))/products") }
        store.get("products", use: products)
        store.post("products", ":productID", "activate") { try await setStatus($0, .active) }
        store.post("products", ":productID", "deactivate") { try await setStatus($0, .inactive) }
        store.get("products", ":productID", "delete", use: confirmDelete)
        store.post("products", ":productID", "delete", use: delete)
        PortalProductForm.register(store)
        PortalStorePages.register(store)
        PortalImportPage.register(store)
        return store
    }

    /// What every portal page shows: the store, the caller's role, the other stores to switch to.
    struct StoreNav: Encodable {
        var id: String
        var name: String
        var slug: String
        var isOwner: Bool
        var section: String
    }

    struct PickerPage: WebPageContext {
        var page: PageContext
        var stores: [StoreNav]
    }

    static func picker(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let memberships = try await StoreAccess(db: req.db).memberships(of: user)
        if memberships.count == 1, let only = memberships.first?.0.id {
            return req.redirect(to: "/portal/stores/\(only.idString)/products")
        }
        let stores = memberships.map { StoreNav(id: $0.0.id!.idString, name: $0.0.name, slug: $0.0.slug, isOwner: $0.1 == .owner, section: "") }
        return try await req.renderPage("catalog/portal-picker", PickerPage(page: PageContext(req, title: "Store portal"), stores: stores))
            .encodeResponse(for: req)
    }

    /// The store the signed-in user manages (404 otherwise), and the navigation for its pages.
    static func managedStore(_ req: Request, section: String, ownerOnly: Bool = false) async throws -> (Store, StoreNav) {
        let user = try req.requireWebUser()
        let store = try await StoreAccess(db: req.db).managedStore(req.parameters.get("storeID") ?? "", by: user, ownerOnly: ownerOnly)
        let role = try await StoreAccess(db: req.db).role(of: user, in: store.requireID())
        let nav = StoreNav(id: store.id!.idString, name: store.name, slug: store.slug, isOwner: role == .owner || user.isAdmin, section: section)
        return (store, nav)
    }

    static func managedProduct(_ req: Request, in store: Store) async throws -> Product {
        guard let id = req.parameters.get("productID").flatMap(UUID.init(uuidString:)),
            let product = try await Product.find(id, on: req.db), product.$store.id == store.id
        else { throw Problem.notFound("product") }
        return product
    }

    struct ProductsPage: WebPageContext {
        var page: PageContext
        var store: StoreNav
        var tab: String
        var products: [PublicCatalogPages.ProductCard]
        var nextCursor: String?
        var activeCount: Int
        var inactiveCount: Int
    }

    static func products(_ req: Request) async throws -> View {
        let (store, nav) = try await managedStore(req, section: "products")
        let tab: Product.Status = req.query[String.self, at: "tab"] == "inactive" ? .inactive : .active
        let page = try PageRequest(limit: 30, cursor: req.query[String.self, at: "cursor"])
        let catalog = ProductCatalog(db: req.db)
        let products = try await catalog.storeProducts(store.requireID(), status: tab, page: page)
        let cards = try await PublicCatalogPages.productCards(products.items, req: req, media: MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media))
        let inactive = try await Product.query(on: req.db).filter(\.$store.$id == store.requireID()).filter(\.$status == "inactive").count()
        return try await req.renderPage("catalog/portal-products", ProductsPage(
            page: PageContext(req, title: "\(store.name) · products"), store: nav, tab: tab.rawValue, products: cards,
            nextCursor: products.nextCursor, activeCount: store.activeProductCount, inactiveCount: inactive))
    }

    static func setStatus(_ req: Request, _ status: Product.Status) async throws -> Response {
        let (store, nav) = try await managedStore(req, section: "products")
        let product = try await managedProduct(req, in: store)
        _ = try await ProductService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media).setStatus(product, to: status)
        Flash.set("success", status == .active ? "\(product.title) is live." : "\(product.title) is hidden from shoppers.", on: req)
        let back = status == .active ? "inactive" : "active"
        return req.redirect(to: "/portal/stores/\(nav.id)/products?tab=\(back)")
    }

    struct DeletePage: WebPageContext {
        var page: PageContext
        var store: StoreNav
        var product: PublicCatalogPages.ProductCard
    }

    static func confirmDelete(_ req: Request) async throws -> View {
        let (store, nav) = try await managedStore(req, section: "products")
        let product = try await managedProduct(req, in: store)
        let card = try await PublicCatalogPages.productCards([product], req: req, media: MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media))
        return try await req.renderPage("catalog/portal-delete", DeletePage(page: PageContext(req, title: "Delete \(product.title)"), store: nav, product: card[0]))
    }

    static func delete(_ req: Request) async throws -> Response {
        let (store, nav) = try await managedStore(req, section: "products")
        let product = try await managedProduct(req, in: store)
        let tab = product.status
        try await ProductService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media).delete(product)
        Flash.set("success", "\(product.title) was deleted.", on: req)
        return req.redirect(to: "/portal/stores/\(nav.id)/products?tab=\(tab)")
    }
}
