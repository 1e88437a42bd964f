import Logging

/// swift-log's text handler, with its metadata formatted when a line is written rather than
/// whenever it changes. `StreamLogHandler` formats it on every change, and Vapor gives every request
/// a logger and sets its request id (`SecurityHeadersMiddleware` sets it again in lower case): that
/// formatting was 2.7 % of `/health`'s CPU, for lines that at the default level are rarely written
/// (issue 19). The lines are `StreamLogHandler`'s own.
struct LazyMetadataLogHandler: LogHandler {
    private var stream: StreamLogHandler
    var metadata: Logger.Metadata = [:]

    init(wrapping stream: StreamLogHandler) {
        self.stream = stream
        metadata = stream.metadata
    }

    var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var stream = self.stream
        stream.metadata = metadata
        stream.log(event: event)
    }
}
