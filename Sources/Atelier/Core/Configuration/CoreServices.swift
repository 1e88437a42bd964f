import NIOConcurrencyHelpers
import Vapor

/// The floor's long-lived pieces (configuration, clock, secrets, tokens, the database's read and write
/// paths, the public answer cache), built once by the composition root and reached through
/// `app.core` / `req.core`. Core's own middleware and helpers use only these.
public final class CoreServices: Sendable {
    public let config: AppConfig
    public let clock: any AppClock
    let secrets: Secrets
    let accessTokens: AccessTokenIssuer
    let rateLimiter: RateLimiter
    let passwordHasher: PasswordHasher
    /// One SQLite write transaction at a time (see `writeTransaction`).
    let sqliteWriters: AsyncSemaphore
    /// The read replica, when `DATABASE_READ_URL` names one (PostgreSQL only).
    let replica: ReadReplica?
    /// On a SQLite file, the connections read-only requests read from (`Request.reading`).
    let sqliteReads: SQLiteReadPool?
    /// On a SQLite file, the connection batched writes go through (`LikeGroupCommit`).
    let sqliteWriter: SQLiteWriter?
    /// Set on SIGTERM: `/health/ready` answers 503 from then on.
    let draining = NIOLockedValueBox(false)
    /// Signed-out answers of public catalogue reads, at most 32 MB of bodies; nil when `PUBLIC_LIST_CACHE_SECONDS` is 0.
    let publicListCache: GenerationCache<PublicListCacheMiddleware.Answer>?
    /// Tagged answers taken as written or read back from their stream (`ConditionalGETMiddleware`).
    let writtenAnswers = WrittenAnswerCounts()

    /// `lastWrite`: when the request's signed-in person last wrote, for the read replica's read-your-writes.
    init(
        config: AppConfig, clock: any AppClock, secrets: Secrets, accessTokens: AccessTokenIssuer,
        rateLimiter: RateLimiter, passwordHasher: PasswordHasher, lastWrite: @escaping @Sendable (Request) -> Date?
    ) {
        self.config = config
        self.clock = clock
        self.secrets = secrets
        self.accessTokens = accessTokens
        self.rateLimiter = rateLimiter
        self.passwordHasher = passwordHasher
        replica = if case .postgres = config.database, config.databaseReadURL != nil { ReadReplica(clock: clock, lastWrite: lastWrite) } else { nil }
        let writers = AsyncSemaphore(permits: 1)
        sqliteWriters = writers
        if case .sqliteFile(let path) = config.database {
            sqliteReads = SQLiteReadPool(path: path, size: config.databasePoolSize)
            sqliteWriter = SQLiteWriter(path: path, turn: writers)
        } else {
            sqliteReads = nil
            sqliteWriter = nil
        }
        publicListCache = config.publicListCacheSeconds > 0
            ? GenerationCache(lifetime: TimeInterval(config.publicListCacheSeconds), capacity: 32 << 20) { $0.body.readableBytes } : nil
    }
}

extension Application {
    private struct CoreServicesKey: StorageKey { typealias Value = CoreServices }

    public var core: CoreServices {
        get {
            guard let core = storage[CoreServicesKey.self] else {
                fatalError("Atelier's core services are not configured; call configure(_:config:) first.")
            }
            return core
        }
        set { storage[CoreServicesKey.self] = newValue }
    }
}

extension Request {
    public var core: CoreServices { application.core }
}
