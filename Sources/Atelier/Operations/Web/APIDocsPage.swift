import APIReference
import Foundation
import NIOConcurrencyHelpers
import Vapor

/// `/api/docs`: the API reference of openapi.yaml (the file `/api/v1/openapi.yaml` serves), read from
/// Resources/api-reference.json, which the `api-reference` tool writes from the contract (CI fails when it
/// is stale). `?q=` keeps the operations that contain every word, so searching needs no script.
enum APIDocsPage {
    struct Context: WebPageContext {
        var page: PageContext
        var title: String
        var version: String
        var description: String?
        var serverURL: String
        var q: String
        var searched: Bool
        var total: Int
        var shown: Int
        var groups: [APIReference.Group]
    }

    static func register(_ routes: any RoutesBuilder) {
        routes.get("api", "docs") { req in
            // The whole reference is about a megabyte of HTML; compressed it is a tenth of that.
            let response = try await render(req).encodeResponse(for: req)
            if req.atelier.config.gzipMinimumBytes > 0 {
                response.headers.responseCompression = .enable
                response.headers.replaceOrAdd(name: .vary, value: "Accept-Encoding")
            }
            return response
        }
    }

    static func render(_ req: Request) async throws -> View {
        let reference = try await cached(path: req.application.apiReferencePath, threadPool: req.application.threadPool)
        let q = String((req.query[String.self, at: "q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))
        let groups = reference.filtered(by: q)
        return try await req.renderPage("operations/api-docs", Context(
            page: PageContext(req, title: q.isEmpty ? "API reference" : "“\(q)” · API reference"),
            title: reference.title, version: reference.version, description: reference.description,
            serverURL: reference.serverURL, q: q, searched: !q.isEmpty, total: reference.operationCount,
            shown: groups.reduce(0) { $0 + $1.operations.count }, groups: groups))
    }

    private static let cache = NIOLockedValueBox<[String: APIReference]>([:])

    /// Decoded once per file per process: the reference does not change while the server runs.
    static func cached(path: String, threadPool: NIOThreadPool) async throws -> APIReference {
        if let reference = cache.withLockedValue({ $0[path] }) { return reference }
        let reference = try await threadPool.runIfActive { try load(path: path) }
        cache.withLockedValue { $0[path] = reference }
        return reference
    }

    static func load(path: String) throws -> APIReference {
        try JSONDecoder().decode(APIReference.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

extension Application {
    /// The API reference `/api/docs` renders (written from openapi.yaml by the `api-reference` tool).
    var apiReferencePath: String { directory.resourcesDirectory + "api-reference.json" }
}
