import Vapor
import NIOConcurrencyHelpers

/// The long-lived pieces the domains share, built once in `configure` and reached through
/// `app.atelier` / `req.atelier`.
public final class AtelierServices: Sendable {
    public let config: AppConfig
    public let clock: any AppClock
    let secrets: Secrets
    let accessTokens: AccessTokenIssuer
    let rateLimiter: RateLimiter
    let passwordHasher: PasswordHasher
    let mailOutbox: MailOutbox
    let socialVerifier: SocialTokenVerifier
    let media: MediaLibrary
    let catalogCounters: CatalogCounters
    /// One SQLite write transaction at a time (see `writeTransaction`).
    let sqliteWriters: AsyncSemaphore
    /// Live events to open WebSockets (moments' albums, inboxes): in-process on SQLite, across
    /// instances on PostgreSQL (`cluster`).
    let live: LiveUpdates
    /// On PostgreSQL, what carries live events and catalogue cache invalidations to the other
    /// instances (LISTEN/NOTIFY); nil on SQLite.
    let cluster: ClusterBus?
    /// Card payments; nil unless Stripe is configured (`STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET`).
    let payments: (any PaymentProvider)?
    /// The open live WebSockets, closed at shutdown.
    let liveSockets = LiveSocketRegistry()
    /// Ranked search pages for a short time; nil when `SEARCH_CACHE_SECONDS` is 0.
    let searchCache: SearchResultCache?
    /// Signed-out answers of public catalogue reads, at most 32 MB of bodies; nil when `PUBLIC_LIST_CACHE_SECONDS` is 0.
    let publicListCache: GenerationCache<PublicListCacheMiddleware.Answer>?
    /// What a signed-in person did with catalogue things, as the domains above the catalogue keep it.
    let catalogViewerParts = CatalogViewer.Parts(
        products: [DiscoveryViewerParts.likes, DiscoveryViewerParts.boards, CartViewerPart.quantities],
        follows: DiscoveryViewerParts.follows)
    /// The sign-in-to-browse stores, for the visibility of each caller's lists (`StoreVisibility`).
    let membersOnlyStores = MembersOnlyStores()
    /// Likes and unlikes, written in batches (group commit).
    let likeWrites = LikeGroupCommit()
    /// Wakes the wardrobe image queue (cut-outs, outfit renders) when work is committed.
    let wardrobeImages = WakeSignal()
    /// The job kinds this instance runs, and the recurring ones it schedules (Jobs).
    let jobs: JobRunner = {
        var runner = JobRunner()
        ScheduledWork.register(into: &runner)
        return runner
    }()
    let recurringJobs = ScheduledWork.recurring
    /// Wakes the job runner when a job is committed to run now.
    let jobsWaiting = WakeSignal()
    /// The read replica, when `DATABASE_READ_URL` names one (PostgreSQL only).
    let replica: ReadReplica?
    /// On a SQLite file, the connections read-only requests read from (`Request.reading`).
    let sqliteReads: SQLiteReadPool?
    /// On a SQLite file, the connection like batches are written on (`LikeGroupCommit`).
    let sqliteWriter: SQLiteWriter?
    /// Set on SIGTERM: `/health/ready` answers 503 from then on.
    let draining = NIOLockedValueBox(false)
    /// The push channels (APNs, FCM, Web Push) this instance sends through.
    let push: PushChannels
    /// Tagged answers taken as written or read back from their stream (`ConditionalGETMiddleware`).
    let writtenAnswers = WrittenAnswerCounts()

    init(
        config: AppConfig, clock: any AppClock, secrets: Secrets, accessTokens: AccessTokenIssuer,
        rateLimiter: RateLimiter, passwordHasher: PasswordHasher, mailOutbox: MailOutbox,
        socialVerifier: SocialTokenVerifier, media: MediaLibrary, catalogCounters: CatalogCounters, push: PushChannels
    ) {
        self.push = push
        self.config = config
        replica = if case .postgres = config.database, config.databaseReadURL != nil { ReadReplica(clock: clock) } else { nil }
        let writers = AsyncSemaphore(permits: 1)
        sqliteWriters = writers
        if case .sqliteFile(let path) = config.database {
            sqliteReads = SQLiteReadPool(path: path, size: config.databasePoolSize)
            sqliteWriter = SQLiteWriter(path: path, turn: writers)
        } else {
            sqliteReads = nil
            sqliteWriter = nil
        }
        let hub = LiveHub()
        cluster = ClusterBus.make(config: config, hub: hub, clock: clock)
        live = LiveUpdates(hub: hub, bus: cluster)
        self.clock = clock
        self.secrets = secrets
        self.accessTokens = accessTokens
        self.rateLimiter = rateLimiter
        self.passwordHasher = passwordHasher
        self.mailOutbox = mailOutbox
        self.socialVerifier = socialVerifier
        self.media = media
        self.catalogCounters = catalogCounters
        payments = config.stripe.isConfigured ? StripePayments(settings: config.stripe) : nil
        searchCache = config.searchCacheSeconds > 0 ? SearchResultCache(lifetime: TimeInterval(config.searchCacheSeconds)) : nil
        publicListCache = config.publicListCacheSeconds > 0
            ? GenerationCache(lifetime: TimeInterval(config.publicListCacheSeconds), capacity: 32 << 20) { $0.body.readableBytes } : nil
    }

    /// Called after every committed catalogue write that can change search results: this
    /// instance's caches at once, the other instances' when they hear of it (on PostgreSQL; the
    /// notification is sent before this returns, so before the writer's response).
    func catalogChanged() async {
        invalidateCatalogCaches()
        await cluster?.broadcast(.catalogChanged)
    }

    /// This instance's catalogue caches only: what another instance's announcement does here.
    func invalidateCatalogCaches() {
        searchCache?.invalidate()
        publicListCache?.invalidate()
        membersOnlyStores.invalidate()
    }

    /// While the bus does not hear the other instances (its connection is being made again), a
    /// kept answer may be stale: the caches are bypassed until it listens again.
    func catalogCachesHeard(_ hearing: Bool) {
        searchCache?.setBypassed(!hearing)
        publicListCache?.setBypassed(!hearing)
    }

    /// Called after every committed write that leaves a cut-out or an outfit image to draw.
    func wardrobeImagesWaiting() {
        wardrobeImages.signal()
    }
}

extension Application {
    private struct ServicesKey: StorageKey { typealias Value = AtelierServices }

    public var atelier: AtelierServices {
        get {
            guard let services = storage[ServicesKey.self] else {
                fatalError("Atelier services are not configured; call configure(_:config:) first.")
            }
            return services
        }
        set { storage[ServicesKey.self] = newValue }
    }
}

extension Request {
    public var atelier: AtelierServices { application.atelier }
}
