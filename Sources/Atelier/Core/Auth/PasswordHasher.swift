import Vapor

/// bcrypt on the thread pool, never on an event loop.
struct PasswordHasher: Sendable {
    let cost: Int
    let threadPool: NIOThreadPool
    /// A hash of a random password at the same cost, checked when an account has no password.
    private let dummyHash: String

    init(cost: Int, threadPool: NIOThreadPool) throws {
        self.cost = cost
        self.threadPool = threadPool
        self.dummyHash = try Bcrypt.hash(TokenHash.randomToken(), cost: cost)
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
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
