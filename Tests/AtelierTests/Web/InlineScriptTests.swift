import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: nothing the Content-Security-Policy blocks")
struct InlineScriptTests {
    /// The repository's `Resources/Views`, found from this file.
    static var views: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/Views")
    }

    @Test("no template has an inline event handler (script-src 'self' blocks them, so the button would do nothing)")
    func noInlineHandlers() throws {
        let files = FileManager.default.enumerator(atPath: Self.views.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".leaf") } ?? []
        #expect(files.count > 50, "the templates were not found at \(Self.views.path)")
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.views.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /\son[a-z]+\s*=\s*"/) { found.append("\(file): \(text[match.range])") }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test("the print buttons and the closet's type filter are wired by a script the policy allows; the filter has a button too")
    func pageActions() async throws {
        try await TestApp.with { t in
            let script = try await t.send(.GET, "/static/js/page-actions.js")
            #expect(script.status == .ok && script.body.string.contains("data-print") && script.body.string.contains("data-autosubmit"))
            let email = uniqueEmail("closet")
            _ = try await t.signUp(email: email)
            let cookie = try await CatalogWebTests().webSignIn(t, email: email)
            let closet = try await CatalogWebTests().get(t, "/closet", cookie: cookie).body.string
            #expect(closet.contains("data-autosubmit") && closet.contains("id=\"closet-filter-submit\"") && closet.contains("/static/js/page-actions.js"))
        }
    }
}
