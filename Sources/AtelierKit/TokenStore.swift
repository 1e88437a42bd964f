import Foundation

/// The tokens a signed-in client keeps between launches.
public struct StoredTokens: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public var accessTokenExpiresAt: Date

    public init(accessToken: String, refreshToken: String, accessTokenExpiresAt: Date) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
    }
}

/// Where `AtelierSession` keeps its tokens: the Keychain on Apple platforms, a file on Linux,
/// memory in tests.
public protocol TokenStore: Sendable {
    func load() async throws -> StoredTokens?
    func save(_ tokens: StoredTokens) async throws
    func clear() async throws
}

public actor InMemoryTokenStore: TokenStore {
    private var tokens: StoredTokens?

    public init(_ tokens: StoredTokens? = nil) {
        self.tokens = tokens
    }

    public func load() -> StoredTokens? { tokens }
    public func save(_ tokens: StoredTokens) { self.tokens = tokens }
    public func clear() { tokens = nil }
}

/// A JSON file readable by the owner only.
public actor FileTokenStore: TokenStore {
    private let url: URL

    public init(url: URL) {
        self.url = url
    }

    public func load() throws -> StoredTokens? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(StoredTokens.self, from: Data(contentsOf: url))
    }

    public func save(_ tokens: StoredTokens) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = try JSONEncoder().encode(tokens)
        try data.write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    public func clear() throws {
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }
}

#if canImport(Security)
import Security

/// A generic-password Keychain item holding the tokens as JSON.
public actor KeychainTokenStore: TokenStore {
    private let service: String
    private let account: String

    public init(service: String = "app.atelier.tokens", account: String = "default") {
        self.service = service
        self.account = account
    }

    private var query: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    public func load() throws -> StoredTokens? {
        var query = self.query
        query[kSecReturnData as String] = true
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw KeychainError(status: status) }
        return try JSONDecoder().decode(StoredTokens.self, from: data)
    }

    public func save(_ tokens: StoredTokens) throws {
        let data = try JSONEncoder().encode(tokens)
        let update = [kSecValueData as String: data]
        var status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
        if status == errSecItemNotFound {
            var insert = query
            insert[kSecValueData as String] = data
            insert[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            status = SecItemAdd(insert as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
    }

    public func clear() throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }
}

public struct KeychainError: Error {
    public var status: OSStatus
}
#endif
