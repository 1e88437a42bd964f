import OpenAPIRuntime
import OpenAPIVapor
import Vapor

enum APIRoutes {
    /// The generated server's: compact JSON (the runtime's default pretty-prints); sorted keys keep
    /// bodies, and so ETags, stable. `JSONBytes` writes the same bytes, and its tests compare with this.
    static let configuration = Configuration(dateTranscoder: LenientISO8601Dates(), jsonEncodingOptions: [.sortedKeys])

    static func register(_ app: Application) throws {
        let api = app.grouped(AsyncMiddlewareChain(
            RawHeadersMiddleware(),
            PublicListCacheMiddleware(),
            ConditionalGETMiddleware(),
            JSONBodyLimitMiddleware(maxBytes: app.atelier.config.maxJSONBodyBytes),
            NULTextMiddleware(),
            IdempotencyMiddleware(),
            RequestContextMiddleware(),
            ReadYourWritesMiddleware()))
        let handler = APIHandler(app: app)
        let serverURL = URL(string: "/api/v1")!
        let transport = JSONBytesTransport(
            base: VaporTransport(routesBuilder: api),
            replacements: try APIHandler.jsonBytesOperations(handler, serverURL: serverURL, configuration: Self.configuration))
        try handler.registerHandlers(on: transport, serverURL: serverURL, configuration: Self.configuration)
        try transport.checkEveryReplacementRegistered()

        PaymentWebhookRoute.register(app)
        AffiliateRedirect.register(app)

        // The contract itself, byte for byte.
        let contractPath = app.contractPath
        app.get("api", "v1", "openapi.yaml") { req async throws -> Response in
            let response = try await req.fileio.asyncStreamFile(at: contractPath)
            response.headers.replaceOrAdd(name: .contentType, value: "application/yaml; charset=utf-8")
            return response
        }
    }
}

extension Application {
    /// openapi.yaml, which `/api/v1/openapi.yaml` serves and `/api/docs` renders.
    var contractPath: String { directory.workingDirectory + "openapi.yaml" }
}
