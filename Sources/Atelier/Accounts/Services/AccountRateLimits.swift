import Foundation

/// How often the account endpoints may be tried, per address and per account.
enum AccountRateLimits {
    static func loginFailuresPerAddress(_ config: AppConfig) -> RateLimiter.Rule {
        .init(limit: config.loginFailuresPerMinute, window: 60)
    }
    static let loginFailuresPerAccount = RateLimiter.Rule(limit: 10, window: 15 * 60)
    static let signUpsPerAddress = RateLimiter.Rule(limit: 30, window: 3600)
    static let resetsPerAddress = RateLimiter.Rule(limit: 10, window: 3600)
    static let resetsPerAccount = RateLimiter.Rule(limit: 3, window: 3600)
    static let refreshesPerAddress = RateLimiter.Rule(limit: 120, window: 60)
    static let verificationMailsPerAccount = RateLimiter.Rule(limit: 3, window: 3600)
    static let passwordChecksPerAccount = RateLimiter.Rule(limit: 10, window: 15 * 60)
}
