import HTTPTypes
import NIOCore
@_spi(Generated) import OpenAPIRuntime

/// The API's transport, with a few of the generated server's operations answered by handlers that
/// write their JSON with `JSONBytes` (issue 19). Each replacement decodes its input with the same
/// `Converter` calls as the generated one, calls the same `APIHandler` method through the same
/// `UniversalServer.handle` (so errors become the same problems), and only writes the answer
/// differently. Every other operation is registered as generated.
final class JSONBytesTransport: ServerTransport {
    typealias Handler = @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)

    private let base: any ServerTransport
    /// Used at start-up only, while the generated server registers its operations.
    private var replacements: [String: Handler]

    /// `replacements` by `"METHOD /path/{parameter}"`, the path as the generated server registers it.
    init(base: any ServerTransport, replacements: [String: Handler]) {
        self.base = base
        self.replacements = replacements
    }

    func register(_ handler: @escaping Handler, method: HTTPRequest.Method, path: String) throws {
        let replacement = replacements.removeValue(forKey: Self.key(method, path))
        try base.register(replacement ?? handler, method: method, path: path)
    }

    /// After the generated server registered every operation: a replacement whose operation was not
    /// among them (renamed in the contract) would silently never run.
    func checkEveryReplacementRegistered() throws {
        guard replacements.isEmpty else { throw UnknownOperations(keys: replacements.keys.sorted()) }
    }

    static func key(_ method: HTTPRequest.Method, _ path: String) -> String { "\(method.rawValue) \(path)" }

    /// A `200` with `value` as its JSON body, as the generated serializer answers (the `Accept`
    /// check, the content type and length), the bytes written by `JSONBytes`.
    /// `capacity`: about the answer's size, so the bytes are not copied as they grow.
    /// The bytes are also left in `WrittenAnswer.current`, which spares the ETag's middleware
    /// reading back the stream that OpenAPIVapor makes of the body.
    static func ok(_ value: some JSONBytesEncodable, to request: HTTPRequest, converter: Converter, capacity: Int) throws -> (HTTPResponse, HTTPBody?) {
        try converter.validateAcceptIfPresent("application/json", in: request.headerFields)
        var json = JSONBytes(dates: converter.configuration.dateTranscoder, capacity: capacity)
        try value.writeJSON(to: &json)
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/json; charset=utf-8"
        response.headerFields[.contentLength] = String(json.bytes.count)
        WrittenAnswer.current?.body = ByteBuffer(bytes: json.bytes)
        return (response, HTTPBody(json.bytes))
    }

    struct UnknownOperations: Error, CustomStringConvertible {
        let keys: [String]
        var description: String { "JSONBytesTransport: no generated operation at \(keys.joined(separator: ", "))" }
    }

    /// A replaced operation's handler returned an answer its replacement does not write. The
    /// handlers of replaced operations throw problems instead of returning them.
    struct UnexpectedOutput: Error, CustomStringConvertible {
        let operationID: String
        var description: String { "\(operationID) returned an answer JSONBytesTransport does not write" }
    }
}
