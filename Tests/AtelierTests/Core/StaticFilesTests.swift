import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// `/static/…` serves `Public/static` and nothing else, from a route of its own (issue 19).
@Suite("Static files")
struct StaticFilesTests {
    @Test("a file is served with a cache lifetime, HEAD too; a missing or escaping path is a 404 problem")
    func files() async throws {
        try await TestApp.with { t in
            let css = try String(contentsOfFile: t.app.directory.publicDirectory + "static/css/atelier.css", encoding: .utf8)
            let answer = try await t.send(.GET, "/static/css/atelier.css")
            #expect(answer.status == .ok)
            #expect(answer.body.string == css)
            #expect(answer.headers.first(name: .cacheControl) == "public, max-age=3600")
            #expect(answer.headers.contentType?.subType == "css")
            #expect(answer.headers.first(name: "X-Content-Type-Options") == "nosniff", "the security headers, as on every answer")
            let etag = try #require(answer.headers.first(name: .eTag))
            #expect(try await t.send(.GET, "/static/css/atelier.css", headers: [("If-None-Match", etag)]).status == .notModified)

            let js = try await t.send(.GET, "/static/js/crop.js")
            let head = try await t.send(.HEAD, "/static/js/crop.js")
            #expect(head.status == .ok)
            #expect(head.headers.first(name: .contentLength) == String(js.body.readableBytes))

            for path in ["/static/css/none.css", "/static/css/", "/static"] {
                let missing = try await t.send(.GET, path)
                #expect(missing.status == .notFound, "\(path): \(missing.status)")
                #expect(missing.headers.contentType?.description.hasPrefix("application/problem+json") == true, "\(path)")
                #expect(missing.body.string.contains("There is nothing at"), "the problem of a path nothing answers: \(missing.body.string)")
            }
            // Out of Public/static: refused, as before the route (FileMiddleware answers 403 to a path that climbs out).
            for path in ["/static/../Package.swift", "/static/%2e%2e/Package.swift", "/static/css/../../../Package.swift"] {
                let refused = try await t.send(.GET, path)
                #expect(refused.status == .forbidden, "\(path): \(refused.status)")
                #expect(!refused.body.string.contains("swift-tools-version"), "\(path)")
                #expect(refused.headers.contentType?.description.hasPrefix("application/problem+json") == true, "\(path)")
            }
            // Other methods: the route is GET's (and HEAD's) only.
            let posted = try await t.send(.POST, "/static/css/atelier.css")
            #expect(posted.status == .methodNotAllowed, "\(posted.status)")
            #expect(posted.headers.first(name: .allow)?.contains("GET") == true)
            // The API is not the file system's: a product path answers from the API.
            #expect(try await t.send(.GET, "/api/v1/products/\(UUID().idString)").status == .notFound)
        }
    }
}
