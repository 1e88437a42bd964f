import Logging
import NIOConcurrencyHelpers
import Testing

@testable import Atelier

@Suite("Core: log lines with their metadata formatted when written")
struct LazyMetadataLogHandlerTests {
    /// The lines a handler writes, kept.
    final class Lines: TextOutputStream, @unchecked Sendable {
        private let lines = NIOLockedValueBox<[String]>([])
        func write(_ string: String) { lines.withLockedValue { $0.append(string) } }
        var all: [String] { lines.withLockedValue { $0 } }
    }

    /// A line without its timestamp (the text up to the first space), which two handlers may write a second apart.
    private func untimed(_ line: String) -> Substring { line.drop { $0 != " " } }

    @Test("the lines are StreamLogHandler's: its level, label, metadata as set and changed, a line's own metadata, source and message")
    func sameLines() {
        let direct = Lines(), lazy = Lines()
        var plain = Logger(label: "codes.vapor.request") { StreamLogHandler(label: $0, stream: direct, metadataProvider: nil) }
        var wrapped = Logger(label: "codes.vapor.request") {
            LazyMetadataLogHandler(wrapping: StreamLogHandler(label: $0, stream: lazy, metadataProvider: nil))
        }
        func steps(_ logger: inout Logger) {
            logger.logLevel = .info
            logger.debug("not written: below the level")
            logger.info("no metadata yet")
            logger[metadataKey: "request-id"] = "ABC-1"
            logger[metadataKey: "request-id"] = "abc-1"
            logger[metadataKey: "route"] = .dictionary(["path": "/health", "method": "GET"])
            logger.warning("with metadata", metadata: ["extra": .array(["1", "2"])])
            logger[metadataKey: "route"] = nil
            logger.error("one removed")
        }
        steps(&plain)
        steps(&wrapped)
        #expect(direct.all.count == 3)
        #expect(lazy.all.map(untimed) == direct.all.map(untimed))
        #expect(lazy.all.last?.contains("request-id=abc-1") == true)
        #expect(wrapped[metadataKey: "request-id"] == "abc-1" && wrapped[metadataKey: "route"] == nil)
    }
}
