import Crypto
import Foundation

/// Signing keys. Taken from the environment when given; otherwise generated once into
/// `DATA_DIR/secrets.json` (mode 0600) so restarts keep sessions valid. Never logged.
public struct Secrets: Sendable, Codable {
    public var tokenSigningKey: String
    public var cookieKey: String
    public var urlSigningKey: String
    /// The VAPID key browsers' push services know us by (PEM). Optional: files written before
    /// Web Push had none, and get one on the next start.
    public var vapidPrivateKey: String?

    static func load(config: AppConfig) throws -> Secrets {
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: config.dataDirectory, withIntermediateDirectories: true)
        let path = config.dataDirectory + "/secrets.json"
        var secrets: Secrets
        if let data = fileManager.contents(atPath: path) {
            secrets = try JSONDecoder().decode(Secrets.self, from: data)
        } else {
            secrets = Secrets(tokenSigningKey: random(), cookieKey: random(), urlSigningKey: random())
        }
        if secrets.vapidPrivateKey == nil {
            secrets.vapidPrivateKey = P256.Signing.PrivateKey().pemRepresentation
            try write(secrets, to: path)
        }
        if let key = config.tokenSigningKey { secrets.tokenSigningKey = key }
        if let key = config.cookieKey { secrets.cookieKey = key }
        if let key = config.urlSigningKey { secrets.urlSigningKey = key }
        return secrets
    }

    private static func write(_ secrets: Secrets, to path: String) throws {
        let data = try JSONEncoder().encode(secrets)
        let temporary = path + ".new"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]),
              rename(temporary, path) == 0
        else { throw ConfigError.invalid("DATA_DIR", "cannot write \(path)") }
    }

    static func random() -> String {
        Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64EncodedString()
    }
}
