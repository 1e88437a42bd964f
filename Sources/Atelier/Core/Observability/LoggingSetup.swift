import Foundation
import Logging
import Vapor

/// Text logs for people (default) or one JSON object per line for log shippers (`LOG_FORMAT=json`).
/// Vapor puts the request id into each request's logger metadata, so every line carries it.
public enum LoggingSetup {
    public static func bootstrap(config: AppConfig, environment: inout Environment) {
        let level = Logger.Level(rawValue: config.logLevel) ?? .info
        if config.logFormat == "json" {
            LoggingSystem.bootstrap { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        } else {
            LoggingSystem.bootstrap { label in
                var handler = LazyMetadataLogHandler(wrapping: .standardOutput(label: label))
                handler.logLevel = level
                return handler
            }
        }
    }
}

struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var object: [String: String] = [
            "time": ISO8601DateFormatter().string(from: Date()), "level": event.level.rawValue, "label": label,
            "message": event.message.description,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = value.description
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
