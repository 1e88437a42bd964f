import AtelierAPI
import Foundation

/// The tokens a signed-in client keeps between launches, and the account they belong to (so a
/// restarted app can draw who is signed in before its first call).
public struct StoredTokens: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public var accessTokenExpiresAt: Date
    public var user: Components.Schemas.Me?

    public init(accessToken: String, refreshToken: String, accessTokenExpiresAt: Date, user: Components.Schemas.Me? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.user = user
    }
}

/// Where `AtelierSession` keeps its tokens: by default the Keychain on Apple platforms and a file
/// on others (`defaultStore(for:)`), so a restarted app is still signed in; memory when asked.
public protocol TokenStore: Sendable {
    func load() async throws -> StoredTokens?
    func save(_ tokens: StoredTokens) async throws
    func clear() async throws
}

public enum TokenStores {
    /// The persistent store for the server at `baseURL`: one Keychain item (or file) per server.
    public static func defaultStore(for baseURL: URL) -> any TokenStore {
        #if canImport(Security)
        KeychainTokenStore(account: baseURL.absoluteString)
        #else
        FileTokenStore(url: FileTokenStore.defaultURL(for: baseURL))
        #endif
    }
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

    /// Where a session with the server at `baseURL` keeps its tokens by default on platforms
    /// without a Keychain: `$XDG_DATA_HOME/atelier` (else `~/.local/share/atelier`), one file per
    /// server.
    public static func defaultURL(for baseURL: URL) -> URL {
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        let server = [baseURL.host ?? "server", baseURL.port.map(String.init)].compactMap { $0 }.joined(separator: "-")
        let safe = String(server.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
        return dataHome.appendingPathComponent("atelier/tokens-\(safe).json")
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
