import Fluent
import NIOConcurrencyHelpers
import Vapor

/// The long-lived pieces the domains share, built once in `configure`. No service keeps this container:
/// each is given the parts it uses. Request handlers still pick those parts from it (`req.atelier`,
/// `APIHandler.services`); jobs reach them by type (`RootParts`). The floor's own are `CoreServices`,
/// forwarded here for the handlers that read them through the container.
public final class AtelierServices: Sendable {
    let core: CoreServices
    public var config: AppConfig { core.config }
    public var clock: any AppClock { core.clock }
    var secrets: Secrets { core.secrets }
    var accessTokens: AccessTokenIssuer { core.accessTokens }
    var rateLimiter: RateLimiter { core.rateLimiter }
    var replica: ReadReplica? { core.replica }
    var sqliteReads: SQLiteReadPool? { core.sqliteReads }
    var sqliteWriter: SQLiteWriter? { core.sqliteWriter }
    /// Who may see a private medium attached to a post, a moment photo (the owning domains register).
    var mediaOwners: MediaOwnerAccess { media.owners }
    /// Reportable things of the domains above Social (magazine comments, reviews; they register).
    let moderationTargets = ModerationTargets()
    /// Which live channels a person may listen to and whose events they do not see (the domains register).
    let liveAccess = LiveChannelAccess()
    /// Whose inbox entries are hidden and how actors are drawn (Social registers).
    let inboxPeople = InboxPeople()
    /// What each domain does when an account is deleted or exported (the domains register).
    let accountParts = AccountParts()
    /// The threads long file work runs on (zips: exports, album downloads).
    var fileWorkers: WorkerThreads { media.fileWorkers }
    /// Where discovery's shopping preferences come from (the wardrobe registers).
    let shoppingPreferences = ShoppingPreferenceSource()
    /// The parts a job reaches by type (`JobContext.parts`).
    let parts = RootParts()
    /// Discovery's search rows and feed order, kept by the catalogue's writes.
    let catalogIndexing: any CatalogIndexing
    let mailOutbox: MailOutbox
    let socialVerifier: SocialTokenVerifier
    let media: MediaLibrary
    let catalogCounters: CatalogCounters
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
    /// What a signed-in person did with catalogue things, as the domains above the catalogue keep it.
    let catalogViewerParts = CatalogViewer.Parts(
        products: [DiscoveryViewerParts.likes, DiscoveryViewerParts.boards, CartViewerPart.quantities],
        follows: DiscoveryViewerParts.follows)
    /// The sign-in-to-browse stores, for the visibility of each caller's lists (`StoreVisibility`).
    let membersOnlyStores = MembersOnlyStores()
    /// Likes and unlikes, written in batches (group commit).
    let likeWrites: LikeGroupCommit
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
    /// The push channels (APNs, FCM, Web Push) this instance sends through.
    let push: PushChannels

    init(core: CoreServices, mailOutbox: MailOutbox, socialVerifier: SocialTokenVerifier, media: MediaLibrary, catalogCounters: CatalogCounters, push: PushChannels) {
        self.core = core
        let config = core.config
        self.push = push
        let hub = LiveHub()
        cluster = ClusterBus.make(config: config, hub: hub, clock: core.clock)
        live = LiveUpdates(hub: hub, bus: cluster)
        self.mailOutbox = mailOutbox
        catalogIndexing = SearchCatalogIndexing(feedSpreadHours: config.feedSpreadHours)
        self.socialVerifier = socialVerifier
        self.media = media
        self.catalogCounters = catalogCounters
        likeWrites = LikeGroupCommit(core: core, counters: catalogCounters)
        payments = config.stripe.isConfigured ? StripePayments(settings: config.stripe) : nil
        searchCache = config.searchCacheSeconds > 0 ? SearchResultCache(lifetime: TimeInterval(config.searchCacheSeconds)) : nil
        // This instance's caches at once, the other instances' when they hear of it (on PostgreSQL; the
        // notification is sent before `announce` returns, so before the writer's response).
        parts.register(live)
        parts.register(mailOutbox)
        parts.register(media)
        parts.register(push)
        catalogChanges.listen { [unowned self] in
            invalidateCatalogCaches()
            await cluster?.broadcast(.catalogChanged)
        }
    }

    func writeTransaction<T: Sendable>(
        on db: any Database, beginsWithWrite: Bool = false, _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        try await core.writeTransaction(on: db, beginsWithWrite: beginsWithWrite, body)
    }

    /// Announced after every committed catalogue write that can change what lists and searches show;
    /// `init` registers this instance's caches and the cluster bus (see `CatalogChanges`).
    let catalogChanges = CatalogChanges()

    /// This instance's catalogue caches only: what another instance's announcement does here.
    func invalidateCatalogCaches() {
        searchCache?.invalidate()
        core.publicListCache?.invalidate()
        membersOnlyStores.invalidate()
    }

    /// While the bus does not hear the other instances (its connection is being made again), a
    /// kept answer may be stale: the caches are bypassed until it listens again.
    func catalogCachesHeard(_ hearing: Bool) {
        searchCache?.setBypassed(!hearing)
        core.publicListCache?.setBypassed(!hearing)
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
