import Fluent
import Leaf
import Vapor

/// Builds the whole application: database, migrations, services, middleware, API and web routes.
public func configure(_ app: Application, config: AppConfig, clock: any AppClock = SystemClock(), mailer: (any Mailer)? = nil) async throws {
    var config = config
    _ = Observability.registry
    app.http.server.configuration.hostname = config.hostname
    app.http.server.configuration.port = config.port
    app.http.server.configuration.shutdownTimeout = .seconds(Int64(config.shutdownDrainSeconds))
    app.routes.defaultMaxBodySize = "64kb"
    app.logger.logLevel = Logger.Level(rawValue: config.logLevel) ?? .info

    SearchSQLFunctions.register()  // before the first SQLite connection opens
    try DatabaseSetup.configure(app, config: config)
    Migrations.register(app)

    let secrets = try Secrets.load(config: config)
    // Browsers subscribe with our public key, so without a configured one a key made once and kept
    // in DATA_DIR lets every installation offer web notifications.
    if config.webPush.vapidPrivateKeyPEM == nil { config.webPush.vapidPrivateKeyPEM = secrets.vapidPrivateKey }
    let chosenMailer: any Mailer = mailer ?? {
        switch config.mailer {
        case .log: LogMailer(logger: app.logger)
        case .smtp: SMTPMailer(settings: config.smtp, group: app.eventLoopGroup, logger: app.logger)
        }
    }()
    app.core = CoreServices(
        config: config, clock: clock, secrets: secrets,
        accessTokens: await AccessTokenIssuer(secret: secrets.tokenSigningKey, clock: clock),
        rateLimiter: RateLimiter(clock: clock, database: app.db),
        passwordHasher: try PasswordHasher(cost: config.passwordHashCost),
        lastWrite: ReadReplica.lastWriteOfCaller)
    app.atelier = AtelierServices(
        core: app.core,
        mailOutbox: MailOutbox(mailer: chosenMailer, clock: clock),
        socialVerifier: SocialTokenVerifier(config: config, clock: clock),
        media: try MediaSetup.library(app, config: config, secrets: secrets),
        catalogCounters: CatalogCounters(clock: clock),
        push: try PushChannels(config: config, clock: clock))
    DomainHooks.register(app)
    app.lifecycle.use(PushChannels.Shutdown())
    app.lifecycle.use(ClusterBus.Shutdown())  // stops listening after the drain and the background loops

    app.views.use(.leaf)
    app.sessions.use(.fluent)
    let secureCookies = config.publicBaseURL.hasPrefix("https://")
    app.sessions.configuration = .init(cookieName: "atelier_session") { sessionID in
        HTTPCookies.Value(
            string: sessionID.string, expires: Date().addingTimeInterval(30 * 24 * 3600), maxAge: nil, domain: nil,
            path: "/", isSecure: secureCookies, isHTTPOnly: true, sameSite: .lax)
    }

    // Outermost first: every response gets the security headers, every error becomes a problem.
    app.middleware = Middlewares()
    app.http.server.configuration.reportMetrics = false
    app.middleware.use(RouteMetricsMiddleware())
    app.middleware.use(SecurityHeadersMiddleware(httpsOnly: config.publicBaseURL.hasPrefix("https://"), publicBaseURL: config.publicBaseURL))
    app.middleware.use(ProblemMiddleware(methodIndex: RouteMethodIndex(routes: app.routes)))

    Observability.routes(app)
    StaticFilesMiddleware.register(app)
    try APIRoutes.register(app)
    MediaDeliveryRoutes.register(app)
    LiveRoutes.register(api: app)
    WebRoutes.register(app)
    AppLinkRoutes.register(app)

    if let s3 = app.atelier.media.store as? S3MediaStore { try await s3.createBucketIfMissing() }
    let media = app.atelier.media
    app.lifecycle.use(OwnedThreadsShutdown {
        await media.imageWorkers.shutdown()
        await media.fileWorkers.shutdown()
    })
    if config.runsBackgroundWorkers { app.lifecycle.use(BackgroundWorkers()) }
    app.lifecycle.use(RequestDrain.closingLiveSockets(of: app))  // last: its shutdown runs first (see RequestDrain)
    try await MigrationLock.run(config: config, logger: app.logger) {
        try await DatabaseSetup.prepareSchema(app, config: config)
        try await app.autoMigrate()
    }
    try await ClusterBus.startIfConfigured(app)  // after the migrations: it reads live_events
}

extension RequestDrain {
    /// The drain SIGTERM runs first: it closes the open live WebSockets as the server drains.
    static func closingLiveSockets(of app: Application) -> RequestDrain {
        let liveSockets = app.atelier.liveSockets
        return RequestDrain { await liveSockets.closeAll() }
    }
}

/// Every domain's migrations, in dependency order.
enum Migrations {
    static func register(_ app: Application) {
        app.migrations.add(SessionRecord.migration)
        app.migrations.add(CreateAccounts())
        app.migrations.add(CreateMailOutbox())
        app.migrations.add(CreateIdempotencyRecords())
        app.migrations.add(CreateMedia())
        app.migrations.add(CreateCatalog())
        app.migrations.add(CreateDiscovery())
        app.migrations.add(CreateWishlist())
        app.migrations.add(AddStoreTimeZone())
        app.migrations.add(CreateProductSearch())
        app.migrations.add(CreateSavedSearchesAndBoards())
        app.migrations.add(CreateFeedRedraws())
        app.migrations.add(CreateSocial())
        app.migrations.add(CreateInbox())
        app.migrations.add(CreateMoments())
        app.migrations.add(CreateMagazine())
        app.migrations.add(CreateMagazineReaders())
        app.migrations.add(DetachMediaFromUploaders())
        app.migrations.add(CreateCommerce())
        app.migrations.add(CreateTradeCustomers())
        app.migrations.add(AddCardPayments())
        app.migrations.add(CreateReviews())
        app.migrations.add(CreateAffiliateClicks())
        app.migrations.add(AddSalesToStoreStats())
        app.migrations.add(CoverCategoryListIndex())
        app.migrations.add(CoverFeedIndex())
        app.migrations.add(CoverSearchIndex())
        app.migrations.add(CreateProductSearchKeys())
        app.migrations.add(CreateWardrobe())
        app.migrations.add(AddPreferenceDefaults())
        app.migrations.add(CreateJobs())
        app.migrations.add(CreatePushDelivery())
        app.migrations.add(AddNotificationMessages())
        app.migrations.add(AddMailAlternatives())
        app.migrations.add(AddWishlistMarks())
        app.migrations.add(QueueUnsentMail())
        app.migrations.add(CreateRateLimitEvents())
        app.migrations.add(CreateLiveEvents())
        app.migrations.add(AddUserLastWrite())
        app.migrations.add(CreateProductSearchFacets())
        app.migrations.add(AddSearchFacetFilterColumns())
        app.migrations.add(CreateUserConnections())
        app.migrations.add(CreateInviteLinks())
        app.migrations.add(CreateSitePages())
        app.migrations.add(CreateStoreApplications())
        app.migrations.add(AddCategoryDescriptionAndImage())
        app.migrations.add(AddDeliveryPostcodesAndVAT())
        app.migrations.add(CreateOutfitLikes())
    }
}
