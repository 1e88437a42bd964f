import Foundation

/// Everything the server reads from its environment, with safe local defaults.
/// The README's configuration table documents each variable.
public struct AppConfig: Sendable {
    public enum Database: Sendable, Equatable {
        case sqliteFile(String)
        case sqliteMemory
        case postgres(URL)
    }

    public enum MailerKind: String, Sendable { case log, smtp }

    public enum MediaStoreKind: String, Sendable { case folder, s3 }

    public struct S3: Sendable {
        public var endpoint: String
        public var bucket: String
        public var region: String
        public var accessKeyID: String
        public var secretAccessKey: String
        /// Prepended to every object key, so installations (or test runs) can share one bucket.
        public var keyPrefix: String = ""
    }

    public struct SMTP: Sendable {
        public var host: String
        public var port: Int
        public var username: String?
        public var password: String?
        public var startTLS: Bool
        public var tlsCAFile: String?
        public var from: String
    }

    public struct SocialProvider: Sendable {
        public var clientIDs: [String]
        public var jwksURL: String
        /// Inline JWKS JSON or a path to a file holding it; replaces fetching from `jwksURL`.
        public var jwks: String?
    }

    public var dataDirectory: String
    public var database: Database
    public var databasePoolSize: Int
    /// PostgreSQL only: a schema of its own (tests use one each, so they never see each other's rows).
    public var databaseSchema: String?
    public var hostname: String
    public var port: Int
    public var publicBaseURL: String
    public var mailer: MailerKind
    public var smtp: SMTP
    public var logLevel: String
    public var logFormat: String
    public var passwordHashCost: Int
    public var tokenSigningKey: String?
    public var cookieKey: String?
    /// Signs media URLs and unsubscribe links; instances behind one load balancer share it.
    public var urlSigningKey: String?
    /// A PostgreSQL replica for read-only hot paths (`DATABASE_READ_URL`; see `ReadReplica`).
    public var databaseReadURL: String?
    /// The primary reached directly, for the two things that need a session of their own: the
    /// live bus's `LISTEN` and the migrations' advisory lock (`DATABASE_LISTEN_URL`). Set it when
    /// `DATABASE_URL` goes through a transaction-mode pooler (PgBouncer), which keeps neither.
    public var databaseListenURL: URL?
    /// The load balancers' addresses, whose `X-Forwarded-For` names the client (`TRUSTED_PROXIES`).
    public var trustedProxies: Set<String> = []
    public var maxJSONBodyBytes: Int
    /// Background loops (mail delivery, clean-up). Tests turn them off and drive the work by hand.
    public var runsBackgroundWorkers: Bool = true
    /// The random spread of a product's feed sort key around its creation time (discovery.md).
    public var feedSpreadHours: Int = 6
    /// How long a ranked search page is reused (`SearchResultCache`); 0 turns the cache off.
    public var searchCacheSeconds: Int = 30
    /// How long a signed-out answer of a public list read is reused (`PublicListCacheMiddleware`); 0: off.
    public var publicListCacheSeconds: Int = 2
    /// JSON answers of at least this many bytes are gzip-compressed for clients that accept it; 0 turns it off.
    public var gzipMinimumBytes: Int = 1024
    /// On SIGTERM, how long requests in flight (uploads, album downloads) may take to finish.
    public var shutdownDrainSeconds: Int = 30
    /// On SIGTERM, how long `/health/ready` answers 503 before the listener closes (a load balancer's
    /// check interval times its fall count); 0 when nothing balances in front.
    public var readyGraceSeconds: Int = 0
    /// The nightly backup (`BackupSchedule`): the UTC hour it runs from (nil: off), the folder,
    /// and how many archives are kept.
    public var backupHour: Int?
    public var backupDirectory: String?
    public var backupKeep: Int = 7
    /// The magazine's content languages; the first is the default translations fall back to.
    public var magazineLanguages: [String] = ["en", "ro"]
    /// The apps that shared links open (smart app banner, Universal Links, App Links).
    public var appLinks = AppLinks()
    /// Card payments through Stripe (commerce.md); off without a secret key.
    public var stripe = Stripe()
    /// A Nominatim-compatible address search (`GEOCODER_URL`, e.g. https://nominatim.openstreetmap.org):
    /// places a typed delivery address for stores that deliver within a radius. Off when unset: then
    /// such stores need the address's coordinates, and those delivering by postcode need none.
    public var geocoderURL: String?
    /// Push to iPhones through Apple's push service (notifications.md); off without a key.
    public var apns = APNs()
    /// Push to browsers (Web Push with VAPID); off without a key.
    public var webPush = WebPush()
    /// Push to Android phones through Firebase Cloud Messaging (HTTP v1); off without a service account.
    public var fcm = FCM()

    public struct FCM: Sendable {
        /// The Firebase project's service account key file (JSON): project id, client email, RSA key, token endpoint.
        public var serviceAccountJSON: String?
        /// FCM's host; tests point it at a local fake.
        public var baseURL: String = "https://fcm.googleapis.com"
        /// The variable the key file came from, for the message when it is not usable (checked as the push channels start).
        public var sourceVariable = "FCM_SERVICE_ACCOUNT"

        public var isConfigured: Bool { serviceAccountJSON != nil }
    }

    public struct WebPush: Sendable {
        /// Our VAPID key (P-256), PEM.
        public var vapidPrivateKeyPEM: String?
        /// Who to contact about our pushes: `mailto:` or `https:`.
        public var subject: String = "mailto:push@atelier.invalid"

        public var isConfigured: Bool { vapidPrivateKeyPEM != nil }
    }

    public struct APNs: Sendable {
        public var teamID: String?
        public var keyID: String?
        /// The signing key (`AuthKey_….p8`), PEM.
        public var privateKeyPEM: String?
        /// The app's bundle id, for devices registered without one.
        public var topic: String?
        /// Replaces Apple's hosts (tests' local server); nil picks production or sandbox per device.
        public var baseURL: String?
        /// More roots to trust for every push service, PEM (tests' local servers).
        public var trustedRootsPEM: String?

        public var isConfigured: Bool { teamID != nil && keyID != nil && privateKeyPEM != nil }
    }

    public struct Stripe: Sendable {
        public var secretKey: String?
        /// The signing secret of the webhook endpoint (`whsec_…`).
        public var webhookSecret: String?
        /// Stripe's API; tests point it at a local fake.
        public var apiBase: String = "https://api.stripe.com"
        public var publishableKey: String?

        public var isConfigured: Bool { secretKey != nil && webhookSecret != nil }
    }

    public struct AppLinks: Sendable {
        public var appleAppStoreID: String?
        /// `TEAMID.bundle.id` of each iOS app.
        public var appleAppIDs: [String] = []
        /// The paths each app opens, where it is not the shared list (`APPLE_APP_IDS` items
        /// written `TEAMID.bundle.id=/moments/*|/invite/*`): each product's app opens its own links.
        public var applePaths: [String: [String]] = [:]
        public var androidPackage: String?
        public var androidCertFingerprints: [String] = []
    }
    public var loginFailuresPerMinute: Int
    public var mediaStore: MediaStoreKind
    public var s3: S3
    public var mediaMaxBytes: Int
    public var mediaMaxMegapixels: Int
    public var mediaMinSide: Int
    public var apple: SocialProvider
    public var google: SocialProvider
    public var facebook: SocialProvider

    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) throws -> AppConfig {
        func value(_ key: String) -> String? {
            guard let raw = env[key]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        func int(_ key: String, _ fallback: Int) throws -> Int {
            guard let raw = value(key) else { return fallback }
            guard let number = Int(raw) else { throw ConfigError.invalid(key, raw) }
            return number
        }
        func bool(_ key: String, _ fallback: Bool) throws -> Bool {
            guard let raw = value(key)?.lowercased() else { return fallback }
            switch raw {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off": return false
            default: throw ConfigError.invalid(key, raw)
            }
        }
        func list(_ key: String) -> [String] {
            (value(key) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        let dataDirectory = value("DATA_DIR") ?? "./data"
        let port = try int("PORT", 8080)
        let hostname = value("HOST") ?? "127.0.0.1"
        let mailerRaw = value("MAILER") ?? "log"
        guard let mailer = MailerKind(rawValue: mailerRaw) else { throw ConfigError.invalid("MAILER", mailerRaw) }

        var config = AppConfig(
            dataDirectory: dataDirectory,
            database: try parseDatabaseURL(value("DATABASE_URL"), dataDirectory: dataDirectory),
            databasePoolSize: try int("DATABASE_POOL_SIZE", 8),
            databaseSchema: nil,
            hostname: hostname,
            port: port,
            publicBaseURL: (value("PUBLIC_BASE_URL") ?? "http://\(ServeFlags.defaultPublicHost(hostname)):\(port)").trimmingSuffix("/"),
            mailer: mailer,
            smtp: SMTP(
                host: value("SMTP_HOST") ?? "localhost",
                port: try int("SMTP_PORT", 587),
                username: value("SMTP_USERNAME"),
                password: value("SMTP_PASSWORD"),
                startTLS: try bool("SMTP_STARTTLS", true),
                tlsCAFile: value("SMTP_TLS_CA_FILE"),
                from: value("SMTP_FROM") ?? "Atelier <no-reply@localhost>"
            ),
            logLevel: value("LOG_LEVEL") ?? "info",
            logFormat: value("LOG_FORMAT") ?? "text",
            passwordHashCost: try int("PASSWORD_HASH_COST", 12),
            tokenSigningKey: value("TOKEN_SIGNING_KEY"),
            cookieKey: value("COOKIE_KEY"),
            maxJSONBodyBytes: try int("MAX_JSON_BODY_BYTES", 1_048_576),
            loginFailuresPerMinute: try int("RATE_LIMIT_LOGIN_FAILURES_PER_MINUTE", 10),
            mediaStore: try {
                let raw = value("MEDIA_STORE") ?? "folder"
                guard let kind = MediaStoreKind(rawValue: raw) else { throw ConfigError.invalid("MEDIA_STORE", raw) }
                return kind
            }(),
            s3: S3(
                endpoint: (value("S3_ENDPOINT") ?? "https://s3.amazonaws.com").trimmingSuffix("/"),
                bucket: value("S3_BUCKET") ?? "atelier-media",
                region: value("S3_REGION") ?? "us-east-1",
                accessKeyID: value("S3_ACCESS_KEY_ID") ?? "",
                secretAccessKey: value("S3_SECRET_ACCESS_KEY") ?? "",
                keyPrefix: (value("S3_KEY_PREFIX")?.trimmingSuffix("/")).flatMap { $0.isEmpty ? nil : $0 + "/" } ?? ""),
            mediaMaxBytes: try int("MEDIA_MAX_BYTES", 25 * 1024 * 1024),
            mediaMaxMegapixels: try int("MEDIA_MAX_MEGAPIXELS", 50),
            mediaMinSide: try int("MEDIA_MIN_SIDE", 64),
            apple: SocialProvider(
                clientIDs: list("AUTH_APPLE_CLIENT_IDS"),
                jwksURL: value("AUTH_APPLE_JWKS_URL") ?? "https://appleid.apple.com/auth/keys",
                jwks: value("AUTH_APPLE_JWKS")),
            google: SocialProvider(
                clientIDs: list("AUTH_GOOGLE_CLIENT_IDS"),
                jwksURL: value("AUTH_GOOGLE_JWKS_URL") ?? "https://www.googleapis.com/oauth2/v3/certs",
                jwks: value("AUTH_GOOGLE_JWKS")),
            facebook: SocialProvider(
                clientIDs: list("AUTH_FACEBOOK_APP_IDS"),
                jwksURL: value("AUTH_FACEBOOK_JWKS_URL") ?? "https://limited.facebook.com/.well-known/oauth/openid/jwks/",
                jwks: value("AUTH_FACEBOOK_JWKS"))
        )
        config.feedSpreadHours = try int("FEED_SPREAD_HOURS", 6)
        config.searchCacheSeconds = try int("SEARCH_CACHE_SECONDS", 30)
        config.publicListCacheSeconds = try int("PUBLIC_LIST_CACHE_SECONDS", 2)
        guard (0...60).contains(config.publicListCacheSeconds) else {
            throw ConfigError.invalid("PUBLIC_LIST_CACHE_SECONDS", "\(config.publicListCacheSeconds)")
        }
        config.gzipMinimumBytes = try int("GZIP_MIN_BYTES", 1024)
        guard config.gzipMinimumBytes >= 0 else { throw ConfigError.invalid("GZIP_MIN_BYTES", "\(config.gzipMinimumBytes)") }
        config.shutdownDrainSeconds = try int("SHUTDOWN_DRAIN_SECONDS", 30)
        config.readyGraceSeconds = try int("READY_GRACE_SECONDS", 0)
        config.urlSigningKey = value("URL_SIGNING_KEY")
        config.trustedProxies = Set(list("TRUSTED_PROXIES"))
        config.databaseReadURL = value("DATABASE_READ_URL")
        if let url = config.databaseReadURL, !(url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")) {
            throw ConfigError.invalid("DATABASE_READ_URL", "a PostgreSQL replica's postgres:// URL")
        }
        if let raw = value("DATABASE_LISTEN_URL") {
            guard raw.hasPrefix("postgres://") || raw.hasPrefix("postgresql://"), let url = URL(string: raw) else {
                throw ConfigError.invalid("DATABASE_LISTEN_URL", "the PostgreSQL primary's postgres:// URL, not through a pooler")
            }
            config.databaseListenURL = url
        }
        guard (0...120).contains(config.readyGraceSeconds) else { throw ConfigError.invalid("READY_GRACE_SECONDS", "\(config.readyGraceSeconds)") }
        if value("BACKUP_HOUR") != nil {
            let hour = try int("BACKUP_HOUR", 3)
            guard (0...23).contains(hour) else { throw ConfigError.invalid("BACKUP_HOUR", "\(hour)") }
            config.backupHour = hour
        }
        config.backupDirectory = value("BACKUP_DIR")
        config.backupKeep = try int("BACKUP_KEEP", 7)
        guard config.backupKeep >= 1 else { throw ConfigError.invalid("BACKUP_KEEP", "\(config.backupKeep)") }
        guard (0...3600).contains(config.shutdownDrainSeconds) else {
            throw ConfigError.invalid("SHUTDOWN_DRAIN_SECONDS", "\(config.shutdownDrainSeconds)")
        }
        guard (0...3600).contains(config.searchCacheSeconds) else { throw ConfigError.invalid("SEARCH_CACHE_SECONDS", "\(config.searchCacheSeconds)") }
        let languages = list("MAGAZINE_LANGUAGES").map { $0.lowercased() }
        if !languages.isEmpty {
            guard languages.allSatisfy({ $0.count >= 2 && $0.count <= 8 && $0.allSatisfy(\.isLetter) }) else {
                throw ConfigError.invalid("MAGAZINE_LANGUAGES", languages.joined(separator: ","))
            }
            config.magazineLanguages = languages
        }
        let appleApps = list("APPLE_APP_IDS").map { item -> (id: String, paths: [String]?) in
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return (parts[0], parts.count == 2 ? parts[1].split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } : nil)
        }
        config.appLinks = AppLinks(
            appleAppStoreID: value("APPLE_APP_STORE_ID"), appleAppIDs: appleApps.map(\.id),
            applePaths: Dictionary(appleApps.compactMap { app in app.paths.map { (app.id, $0) } }, uniquingKeysWith: { a, _ in a }),
            androidPackage: value("ANDROID_APP_PACKAGE"), androidCertFingerprints: list("ANDROID_CERT_FINGERPRINTS"))
        config.geocoderURL = value("GEOCODER_URL").map { $0.trimmingSuffix("/") }
        config.stripe = Stripe(
            secretKey: value("STRIPE_SECRET_KEY"), webhookSecret: value("STRIPE_WEBHOOK_SECRET"),
            apiBase: (value("STRIPE_API_BASE") ?? "https://api.stripe.com").trimmingSuffix("/"), publishableKey: value("STRIPE_PUBLISHABLE_KEY"))
        config.apns = APNs(
            teamID: value("APNS_TEAM_ID"), keyID: value("APNS_KEY_ID"),
            privateKeyPEM: try value("APNS_PRIVATE_KEY") ?? value("APNS_PRIVATE_KEY_FILE").map { try String(contentsOfFile: $0, encoding: .utf8) },
            topic: value("APNS_TOPIC"), baseURL: value("APNS_BASE_URL")?.trimmingSuffix("/"),
            trustedRootsPEM: try value("APNS_CA_FILE").map { try String(contentsOfFile: $0, encoding: .utf8) })
        config.webPush = WebPush(
            vapidPrivateKeyPEM: try value("WEB_PUSH_VAPID_PRIVATE_KEY") ?? value("WEB_PUSH_VAPID_PRIVATE_KEY_FILE").map { try String(contentsOfFile: $0, encoding: .utf8) },
            subject: value("WEB_PUSH_SUBJECT") ?? "mailto:push@atelier.invalid")
        let fcmVariable = value("FCM_SERVICE_ACCOUNT") != nil ? "FCM_SERVICE_ACCOUNT" : "FCM_SERVICE_ACCOUNT_FILE"
        config.fcm = FCM(
            serviceAccountJSON: try value("FCM_SERVICE_ACCOUNT") ?? value("FCM_SERVICE_ACCOUNT_FILE").map { try String(contentsOfFile: $0, encoding: .utf8) },
            baseURL: (value("FCM_BASE_URL") ?? "https://fcm.googleapis.com").trimmingSuffix("/"), sourceVariable: fcmVariable)
        guard (0...72).contains(config.feedSpreadHours) else { throw ConfigError.invalid("FEED_SPREAD_HOURS", "\(config.feedSpreadHours)") }
        return config
    }

    /// Where a session that must last (`LISTEN`, an advisory lock) connects: `DATABASE_LISTEN_URL`,
    /// else the primary of `DATABASE_URL`; nil on SQLite.
    var sessionDatabaseURL: URL? {
        guard case .postgres(let url) = database else { return nil }
        return databaseListenURL ?? url
    }

    static func parseDatabaseURL(_ raw: String?, dataDirectory: String) throws -> Database {
        guard let raw else { return .sqliteFile(dataDirectory + "/atelier.sqlite") }
        if raw.hasPrefix("postgres://") || raw.hasPrefix("postgresql://") {
            guard let url = URL(string: raw) else { throw ConfigError.invalid("DATABASE_URL", "(unparsable postgres URL)") }
            return .postgres(url)
        }
        for prefix in ["sqlite://", "sqlite:"] where raw.hasPrefix(prefix) {
            let path = String(raw.dropFirst(prefix.count))
            return path == ":memory:" ? .sqliteMemory : .sqliteFile(path)
        }
        throw ConfigError.invalid("DATABASE_URL", "must start with sqlite: or postgres://")
    }

    /// A configuration for tests: a throw-away SQLite file in the test's data folder (removed with
    /// it; sqlite-kit's "in-memory" databases are temporary files that it leaves behind) unless
    /// `DATABASE_URL` names PostgreSQL.
    public static func testing(dataDirectory: String) -> AppConfig {
        // Tests inherit only the database and the media store choice (CI runs them with S3 too).
        var env = ProcessInfo.processInfo.environment.filter { $0.key == "DATABASE_URL" || $0.key == "MEDIA_STORE" || $0.key.hasPrefix("S3_") }
        if env["DATABASE_URL"] == nil { env["DATABASE_URL"] = "sqlite:" + dataDirectory + "/test.sqlite" }
        env["DATA_DIR"] = dataDirectory
        env["PUBLIC_BASE_URL"] = "http://atelier.test"
        env["PASSWORD_HASH_COST"] = "4"
        env["LOG_LEVEL"] = "warning"
        env["DATABASE_POOL_SIZE"] = "2"
        // A test environment variable names nothing else, so this cannot fail.
        var config = try! fromEnvironment(env)
        config.runsBackgroundWorkers = false
        config.shutdownDrainSeconds = 10  // Vapor's own default: a test leaving a socket open waits no longer than before
        if case .postgres = config.database {
            config.databaseSchema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        }
        // Media keys are content hashes: two tests uploading the same image must not share (and
        // delete) each other's objects in the one test bucket.
        config.s3.keyPrefix = "test-\(UUID().idString)/"
        return config
    }
}

public enum ConfigError: Error, CustomStringConvertible {
    case invalid(String, String)
    public var description: String {
        switch self {
        case .invalid(let key, let value): "Invalid value for \(key): \(value)"
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var result = self
        while result.hasSuffix(suffix) { result.removeLast(suffix.count) }
        return result
    }
}
