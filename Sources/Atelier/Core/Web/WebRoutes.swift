import Vapor

/// The server-rendered pages. Each domain registers its pages on the session-aware group.
enum WebRoutes {
    static func register(_ app: Application) {
        // IdempotencyMiddleware acts only on a POST with an `Idempotency-Key`: the actions a page
        // queued while offline and sends later (app.js), each applied once however often it is sent.
        let web = app.grouped(
            app.sessions.middleware, WebSessionMiddleware(), CSRFMiddleware(), IdempotencyMiddleware(), ReadYourWritesMiddleware(),
            WebCompressionMiddleware())
        // One-click unsubscribe is POSTed by mail clients, which have no CSRF token.
        UnsubscribeWebRoutes.register(app.grouped(app.sessions.middleware, WebSessionMiddleware()))
        web.get { req async throws -> View in
            if let user = req.webSessionUser { return try await MemberHome.render(req, user: user) }
            return try await VisitorHome.render(req)
        }
        AccountsWebRoutes.register(web)
        PublicCatalogPages.register(web)
        BrandPages.register(web)
        PortalRoutes.register(web)
        CartWebPages.register(web)
        OrderWebPages.register(web)
        TradeApplicationPage.register(web)
        ProductShopBox.register(web)
        AdminCatalogPages.register(web)
        DiscoveryWebRoutes.register(web)
        FriendsWebPages.register(web)
        AvatarWebPages.register(web)
        InviteWebPages.register(web)
        SiteWebPages.register(web)
        SitemapRoutes.register(web)
        WebAppRoutes.register(web)
        StoreApplicationPages.register(web)
        PostWebPages.register(web)
        NotificationsWebPage.register(web)
        MomentWebPages.register(web)
        ClosetWebPages.register(web)
        OutfitWebPages.register(web)
        RecapWebPages.register(web)
        PackingWebPages.register(web)
        MagazineWebPages.register(web)
        MagazinePortalPages.register(web)
        APIDocsPage.register(web)
        LiveRoutes.register(web: web, publicBaseURL: app.atelier.config.publicBaseURL)
    }
}

/// What every page template gets; pages add their own fields next to it.
struct PageContext: Encodable {
    var title: String
    /// Link-preview tags for pages people share (products, stores, boards).
    var share: ShareMeta?
    var user: WebUser?
    var csrfToken: String
    var flash: Flash?

    init(_ req: Request, title: String) {
        self.title = title
        self.user = req.webUser
        self.csrfToken = req.csrfToken
        self.flash = Flash.take(from: req)
    }
}

/// A one-time message shown on the next page (after a redirect).
struct Flash: Codable {
    var kind: String
    var message: String

    static func set(_ kind: String, _ message: String, on req: Request) {
        req.session.data["flash.kind"] = kind
        req.session.data["flash.message"] = message
    }

    static func take(from req: Request) -> Flash? {
        guard req.hasSession, let kind = req.session.data["flash.kind"], let message = req.session.data["flash.message"] else {
            return nil
        }
        req.session.data["flash.kind"] = nil
        req.session.data["flash.message"] = nil
        return Flash(kind: kind, message: message)
    }
}

/// A page's own context; rendered with the common page fields (user, CSRF token, flash, title)
/// at the top level, where the layout reads them.
protocol WebPageContext: Encodable {
    var page: PageContext { get }
}

private struct FlatPage<Content: WebPageContext>: Encodable {
    let content: Content

    func encode(to encoder: any Encoder) throws {
        try content.page.encode(to: encoder)
        try content.encode(to: encoder)
    }
}

extension Request {
    func renderPage<Content: WebPageContext>(_ template: String, _ context: Content) async throws -> View {
        try await view.render(template, FlatPage(content: context))
    }
}
