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
        NotificationSettingsWebRoutes.register(web)
        PublicCatalogPages.register(web)
        StoreAndProductPages.register(web)
        BrandPages.register(web)
        let portalStore = PortalRoutes.register(web)
        PortalOrderPages.register(portalStore)
        PortalShopPages.register(portalStore)
        PortalSellingPage.register(portalStore)
        CartWebPages.register(web)
        OrderWebPages.register(web)
        TradeApplicationPage.register(web)
        ProductShopBox.register(web)
        let admin = AdminShell.register(web)
        AdminCatalogPages.register(admin)
        AdminUsersPages.register(admin)
        AdminJobsPages.register(admin)
        AdminDeliveriesPage.register(admin)
        ModerationWebPages.register(admin)
        DiscoveryWebRoutes.register(web)
        FriendsWebPages.register(web)
        PersonProfilePage.register(web)
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
