import Foundation
import PostgresNIO

/// Every PostgreSQL connection names its instance and its use in `application_name`
/// ("atelier pool web-1:4242"), so `pg_stat_activity` shows which instance holds how many
/// connections, and for what: `pool`, `replica`, `listen`, `migrate`.
enum PostgresConnectionName {
    static func name(_ use: String) -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "host"
        // PostgreSQL keeps 63 bytes of it.
        return String("atelier \(use) \(host):\(ProcessInfo.processInfo.processIdentifier)".utf8.prefix(63)) ?? "atelier \(use)"
    }

    static func tag(_ configuration: inout PostgresConnection.Configuration, as use: String) {
        configuration.options.additionalStartupParameters.removeAll { $0.0 == "application_name" }
        configuration.options.additionalStartupParameters.append(("application_name", name(use)))
    }
}
