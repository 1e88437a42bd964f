import Vapor

/// bcrypt on threads of its own: never on an event loop, and never on the application's thread
/// pool, where SQLite's connections run (a burst of sign-ins would hold up every query).
struct PasswordHasher: Sendable {
    let cost: Int
    private let threadPool: NIOThreadPool
    /// A hash of a random password at the same cost, checked when an account has no password.
    private let dummyHash: String

    init(cost: Int) throws {
        self.cost = cost
        self.threadPool = NIOThreadPool(numberOfThreads: max(1, System.coreCount))
        threadPool.start()
        self.dummyHash = try Bcrypt.hash(TokenHash.randomToken(), cost: cost)
    }

    func shutdown() async {
        try? await threadPool.shutdownGracefully()
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await threadPool.runIfActive { try Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, against hash: String?) async throws -> Bool {
        // Without a hash we still spend the same time, so timing does not tell whether an account exists.
        let checked = hash ?? dummyHash
        let matches = try await threadPool.runIfActive { try Bcrypt.verify(password, created: checked) }
        return matches && hash != nil
    }
}

enum TokenHash {
    /// Long random tokens (refresh, reset, verification) are stored as SHA-256 hex.
    static func sha256(_ token: String) -> String {
        Hex.lowercase(SHA256.hash(data: Data(token.utf8)))
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
