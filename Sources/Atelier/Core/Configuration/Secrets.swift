import Crypto
import Foundation

/// Signing keys. Taken from the environment when given; otherwise generated once into
/// `DATA_DIR/secrets.json` (mode 0600) so restarts keep sessions valid. Never logged.
public struct Secrets: Sendable, Codable {
    public var tokenSigningKey: String
    public var cookieKey: String
    public var urlSigningKey: String

    static func load(config: AppConfig) throws -> Secrets {
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: config.dataDirectory, withIntermediateDirectories: true)
        let path = config.dataDirectory + "/secrets.json"
        var secrets: Secrets
        if let data = fileManager.contents(atPath: path) {
            secrets = try JSONDecoder().decode(Secrets.self, from: data)
        } else {
            secrets = Secrets(tokenSigningKey: random(), cookieKey: random(), urlSigningKey: random())
            let data = try JSONEncoder().encode(secrets)
            guard fileManager.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw ConfigError.invalid("DATA_DIR", "cannot write \(path)")
            }
        }
        if let key = config.tokenSigningKey { secrets.tokenSigningKey = key }
        if let key = config.cookieKey { secrets.cookieKey = key }
        return secrets
    }

    static func random() -> String {
        Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64EncodedString()
    }
}
