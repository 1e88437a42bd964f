import Foundation
import OpenAPIRuntime

/// The generated types read outside the generated client (live messages, file uploads), with
/// dates as the client reads them (ISO 8601), also with fractional seconds.
enum GeneratedJSON {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        let transcoder = Configuration().dateTranscoder
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? transcoder.decode(text) { return date }
            return try ISO8601DateTranscoder.iso8601WithFractionalSeconds.decode(text)
        }
        return decoder
    }()
}
