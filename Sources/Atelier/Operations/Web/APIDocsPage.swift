import Foundation
import NIOConcurrencyHelpers
import OpenAPIKit
import Vapor
import Yams

/// `/api/docs`: the API reference, rendered from openapi.yaml (the file `/api/v1/openapi.yaml`
/// serves). `?q=` keeps the operations that contain every word, so searching needs no script.
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
        let reference = try await cached(path: req.application.contractPath, threadPool: req.application.threadPool)
        let q = String((req.query[String.self, at: "q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))
        let groups = reference.filtered(by: q)
        return try await req.renderPage("operations/api-docs", Context(
            page: PageContext(req, title: q.isEmpty ? "API reference" : "“\(q)” · API reference"),
            title: reference.title, version: reference.version, description: reference.description,
            serverURL: reference.serverURL, q: q, searched: !q.isEmpty, total: reference.operationCount,
            shown: groups.reduce(0) { $0 + $1.operations.count }, groups: groups))
    }

    private static let cache = NIOLockedValueBox<[String: APIReference]>([:])

    /// Decoded once per file per process: the contract does not change while the server runs.
    static func cached(path: String, threadPool: NIOThreadPool) async throws -> APIReference {
        if let reference = cache.withLockedValue({ $0[path] }) { return reference }
        let reference = try await threadPool.runIfActive { try load(path: path) }
        cache.withLockedValue { $0[path] = reference }
        return reference
    }

    static func load(path: String) throws -> APIReference {
        let yaml = try String(contentsOfFile: path, encoding: .utf8)
        let document = try YAMLDecoder().decode(OpenAPI.Document.self, from: yaml)
        return APIReference(document: document)
    }
}
