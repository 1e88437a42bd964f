import Foundation
import OpenAPIKit
import Testing
import VaporTesting
import Yams

@testable import APIReferenceBuilder
@testable import Atelier

/// `/api/docs` against openapi.yaml read here on its own, as a plain YAML tree (not through the
/// page's OpenAPIKit model), so the page cannot agree with itself and miss the contract.
// One page at a time: the reference is about a megabyte of HTML, which Leaf renders on an event loop
// (seconds each in a debug build, beside the other suites). Four at once held both loops so long that a
// request's wait for a database connection passed the pool's 10 s (`connectionRequestTimeout` in CI, stop 42).
@Suite("API reference page", .serialized)
struct APIDocsPageTests {
    struct ContractOperation {
        var method: String
        var path: String
        var operationId: String?
        var tag: String?
        var text: String
        var operation: [String: Any]
        var key: String { "\(method) \(path)" }
    }

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    func contract(_ t: TestApp) throws -> (operations: [ContractOperation], root: [String: Any]) {
        let text = try String(contentsOfFile: t.app.directory.workingDirectory + "openapi.yaml", encoding: .utf8)
        let root = try #require(try Yams.load(yaml: text) as? [String: Any])
        let paths = try #require(root["paths"] as? [String: Any])
        var operations: [ContractOperation] = []
        for (path, item) in paths {
            guard let item = item as? [String: Any] else { continue }
            for method in Self.methods {
                guard let operation = item[method] as? [String: Any] else { continue }
                let words = [operation["summary"], operation["description"], operation["operationId"]].compactMap { $0 as? String }
                operations.append(ContractOperation(
                    method: method.uppercased(), path: path, operationId: operation["operationId"] as? String,
                    tag: (operation["tags"] as? [String])?.first, text: words.joined(separator: " ").lowercased(), operation: operation))
            }
        }
        return (operations, root)
    }

    func page(_ t: TestApp, _ path: String = "/api/docs") async throws -> (html: String, response: TestingHTTPResponse) {
        let response = try await t.send(.GET, path, headers: [("Accept", "text/html")])
        #expect(response.status == .ok)
        return (response.body.string, response)
    }

    /// The `data-op` of every operation section on the page, as written ("GET /stores/{storeId}").
    func listedOperations(_ html: String) -> [String] {
        html.components(separatedBy: "data-op=\"").dropFirst().compactMap { $0.split(separator: "\"", maxSplits: 1).first.map { unescape(String($0)) } }
    }

    func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The HTML of one operation's section, up to the next operation.
    func section(_ html: String, anchor: String) -> String? {
        guard let start = html.range(of: "id=\"\(anchor)\"") else { return nil }
        // The section's own data-op follows its id; the next one starts the next operation.
        let rest = html[start.upperBound...].drop { $0 != ">" }
        let end = rest.range(of: "data-op=\"")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test("every operation of openapi.yaml is on the page once, and nothing else is")
    func listsEveryOperation() async throws {
        try await TestApp.with { t in
            let expected = try contract(t).operations
            let (html, _) = try await page(t)
            let listed = listedOperations(html)
            #expect(!expected.isEmpty)
            #expect(listed.count == expected.count, "the page lists \(listed.count) operations, openapi.yaml has \(expected.count)")
            let missing = Set(expected.map(\.key)).subtracting(listed)
            let extra = Set(listed).subtracting(expected.map(\.key))
            #expect(missing.isEmpty, "missing from the page: \(missing.sorted())")
            #expect(extra.isEmpty, "on the page but not in openapi.yaml: \(extra.sorted())")
            for operation in expected {
                guard let id = operation.operationId else { continue }
                let anchored = html.contains("id=\"op-\(id)\"")
                let linked = html.contains("href=\"#op-\(id)\"")
                #expect(anchored, "no anchor for \(id)")
                #expect(linked, "no contents link to \(id)")
            }
            let counted = html.contains("\(expected.count) operations.")
            #expect(counted, "the page does not say it has \(expected.count) operations")
            let footer = html.contains("href=\"/api/docs\" id=\"footer-api-docs\"")
            #expect(footer, "no footer link")
        }
    }

    @Test("?q= keeps the matching operations and drops unrelated ones")
    func searches() async throws {
        try await TestApp.with { t in
            let operations = try contract(t).operations
            let target = try #require(operations.first { $0.operationId != nil && $0.tag != nil })
            let id = try #require(target.operationId)
            let unrelated = try #require(operations.first { $0.tag != target.tag && !$0.text.contains(id.lowercased()) && !$0.path.contains(target.path) })
            let (html, _) = try await page(t, "/api/docs?q=\(id)")
            let listed = listedOperations(html)
            #expect(listed.contains(target.key))
            #expect(!listed.contains(unrelated.key))
            #expect(listed.count < operations.count)
            let kept = html.contains("value=\"\(id)\"")
            #expect(kept, "the search box keeps the query")

            // Every word must match: the method narrows a path word down.
            let (both, _) = try await page(t, "/api/docs?q=\(target.method)%20\(id)")
            #expect(listedOperations(both).allSatisfy { $0.hasPrefix(target.method + " ") })

            let (none, _) = try await page(t, "/api/docs?q=zzqqxx-no-such-thing")
            #expect(listedOperations(none).isEmpty)
            let saysNone = none.contains("id=\"api-docs-empty\"")
            #expect(saysNone)
        }
    }

    @Test("the page carries the strict CSP and no inline or foreign script or style")
    func strictCSP() async throws {
        try await TestApp.with { t in
            let (html, response) = try await page(t)
            let policy = try #require(response.headers.first(name: "Content-Security-Policy"))
            #expect(policy.contains("script-src 'self'"))
            #expect(policy.contains("style-src 'self'"))
            #expect(!policy.contains("unsafe-inline"))
            #expect(!policy.contains("unsafe-eval"))
            let lowered = html.lowercased()
            for tag in lowered.components(separatedBy: "<script").dropFirst() {
                let opening = String(tag.prefix { $0 != ">" })
                #expect(opening.contains("src=\"/") && !opening.contains("src=\"//"), "script not from our own files: <script\(opening)>")
                #expect(tag.dropFirst(opening.count + 1).hasPrefix("</script>"), "inline script: <script\(tag.prefix(80))")
            }
            for tag in lowered.components(separatedBy: "<link").dropFirst() {
                let opening = String(tag.prefix { $0 != ">" })
                #expect(!opening.contains("href=\"http") && !opening.contains("href=\"//"), "foreign link: <link\(opening)>")
            }
            #expect(!lowered.contains("<style"))
            #expect(!lowered.contains(" style=\""))
            let handlers = lowered.matches(of: #/\son[a-z]+="/#).count
            #expect(handlers == 0, "inline event handlers")
        }
    }

    @Test("an operation with a JSON body shows an example with the body's required fields")
    func bodyExample() async throws {
        try await TestApp.with { t in
            let (operations, root) = try contract(t)
            let schemas = try #require((root["components"] as? [String: Any])?["schemas"] as? [String: Any])
            // The first operation whose JSON body is a named object schema with required fields.
            var found: (ContractOperation, [String])?
            for operation in operations where operation.operationId != nil {
                let content = (operation.operation["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                let ref = ((content?["application/json"] as? [String: Any])?["schema"] as? [String: Any])?["$ref"] as? String
                guard let name = ref?.components(separatedBy: "/").last, let schema = schemas[name] as? [String: Any],
                    let required = schema["required"] as? [String], !required.isEmpty
                else { continue }
                found = (operation, required)
                break
            }
            let (operation, required) = try #require(found)
            let (html, _) = try await page(t)
            let body = try #require(section(html, anchor: "op-\(operation.operationId!)"))
            let json = body.contains("application/json")
            #expect(json, "no application/json body on \(operation.key)")
            let start = try #require(body.range(of: "<pre class=\"api-example\" aria-label=\"Example request body\"><code>"))
            let end = try #require(body[start.upperBound...].range(of: "</code>"))
            let example = unescape(String(body[start.upperBound..<end.lowerBound]))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(example.utf8)) as? [String: Any], "not JSON: \(example)")
            let missing = Set(required).subtracting(object.keys)
            #expect(missing.isEmpty, "\(operation.key)'s example lacks \(missing.sorted()): \(example)")
        }
    }

    @Test("who may call it comes from security and the roles the contract names")
    func access() {
        #expect(APIAccess.describe(security: [], path: "/auth/login", text: "Sign in.").label == "Anyone")
        #expect(APIAccess.describe(security: [[:]], path: "/x", text: "").label == "Anyone; more when signed in")
        let bearer: [OpenAPI.SecurityRequirement] = [[.component(named: "bearer"): []]]
        #expect(APIAccess.describe(security: bearer, path: "/stores", text: "Create a store (admins).").label == "Admins")
        #expect(APIAccess.describe(security: bearer, path: "/stores/{storeId}", text: "Edit the store (staff of the store, admins).").label == "Store staff or admins")
        #expect(APIAccess.describe(security: bearer, path: "/c", text: "Move a category below another one (or to the top) (admins).").label == "Admins")
        let comment = APIAccess.describe(security: bearer, path: "/c", text: "Delete a comment (its author, or an editor moderating).")
        #expect(comment.label == "Signed in")
        #expect(comment.note == "its author, or an editor moderating")
        #expect(APIAccess.describe(security: bearer, path: "/me", text: "My account.").label == "Signed in")
        let editing = APIAccess.describe(
            security: bearer, path: "/magazine/editor/issues/{issueId}", text: "An issue in any status.",
            groupText: "Editing the magazine (editors and admins; to anyone else every operation is a 404).")
        #expect(editing.label == "Admins or editors")
    }

    @Test("the reference the server reads is the one openapi.yaml makes today (make api-reference writes it)")
    func referenceFileIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let made = try APIReferenceFile.bytes(of: APIReferenceFile.build(contractAt: root.appendingPathComponent("openapi.yaml").path))
        let kept = try Data(contentsOf: root.appendingPathComponent("Resources/api-reference.json"))
        #expect(kept == made, "Resources/api-reference.json is stale: run `make api-reference`")
    }
}
