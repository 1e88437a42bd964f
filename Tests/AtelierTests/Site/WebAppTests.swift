import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Site: the web as an installable app")
struct WebAppTests {
    @Test("the manifest names the app, its standalone display, colours, icons and shortcuts; every icon it lists is served")
    func manifest() async throws {
        try await TestApp.with { t in
            let response = try await t.send(.GET, "/manifest.webmanifest")
            #expect(response.status == .ok && response.headers.contentType?.description == "application/manifest+json")
            let manifest = try JSONSerialization.jsonObject(with: Data(response.body.string.utf8)) as! [String: Any]
            #expect(manifest["display"] as? String == "standalone" && manifest["start_url"] as? String == "/?source=app")
            #expect(manifest["scope"] as? String == "/" && manifest["id"] as? String == "/" && manifest["theme_color"] as? String == "#9e1b32")
            let icons = manifest["icons"] as! [[String: String]]
            #expect(Set(icons.map { "\($0["sizes"]!) \($0["purpose"]!)" }) == ["192x192 any", "512x512 any", "192x192 maskable", "512x512 maskable"])
            for icon in icons {
                let file = try await t.send(.GET, icon["src"]!)
                #expect(file.status == .ok && file.headers.contentType == .png, "\(icon["src"]!)")
            }
            let shortcuts = (manifest["shortcuts"] as! [[String: String]]).map { $0["url"]! }
            #expect(shortcuts == ["/closet", "/moments", "/magazine", "/cart"])
            let home = try await t.send(.GET, "/")
            #expect(home.body.string.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
            #expect(home.body.string.contains(##"<meta name="theme-color" content="#9e1b32">"##) && home.body.string.contains("apple-touch-icon"))
        }
    }

    @Test("the service worker is served at the root, never cached, with its version and the files it keeps filled in; the offline page names no one")
    func serviceWorker() async throws {
        try await TestApp.with { t in
            let worker = try await t.send(.GET, "/sw.js")
            #expect(worker.status == .ok && worker.headers.first(name: .cacheControl) == "no-cache")
            let script = worker.body.string
            #expect(!script.contains("__VERSION__") && !script.contains("__PRECACHE__"))
            #expect(script.contains("'/offline', '/static/css/atelier.css'"))
            let version = try #require(script.firstMatch(of: /var VERSION = '([0-9a-f]{16})'/)?.1)
            #expect(try await t.send(.GET, "/sw.js").body.string.contains(String(version)), "the same files, the same version")

            let email = uniqueEmail()
            try await t.signUp(email: email, name: "Ilinca Offline")
            let web = CatalogWebTests()
            let cookie = try await web.webSignIn(t, email: email)
            #expect(try await web.get(t, "/closet", cookie: cookie).body.string.contains("Ilinca Offline"), "signed in")
            let offline = try await web.get(t, "/offline", cookie: cookie)
            #expect(offline.status == .ok && offline.body.string.contains("You are offline"))
            #expect(!offline.body.string.contains("Ilinca Offline") && !offline.body.string.contains("signout-form"))
        }
    }

    @Test("`serve --port` and `--hostname` (and --bind) feed the default PUBLIC_BASE_URL as PORT and HOST do; an explicit PUBLIC_BASE_URL wins")
    func serveFlags() throws {
        func base(_ env: [String: String], _ arguments: [String]) throws -> String {
            try AppConfig.fromEnvironment(ServeFlags.environment(env, arguments: ["atelier"] + arguments)).publicBaseURL
        }
        #expect(try base([:], ["serve", "--port", "8150"]) == "http://localhost:8150")
        #expect(try base(["PORT": "9000"], ["serve", "--port=8150"]) == "http://localhost:8150", "the flag wins, as it does for the socket")
        #expect(try base([:], ["serve", "-p", "8151", "--hostname", "shop.example"]) == "http://shop.example:8151")
        #expect(try base([:], ["serve", "--bind", "0.0.0.0:8152"]) == "http://localhost:8152")
        #expect(try base(["HOST": "10.0.0.5", "PORT": "8000"], ["serve"]) == "http://10.0.0.5:8000")
        #expect(try base(["PUBLIC_BASE_URL": "https://atelier.example/"], ["serve", "--port", "8150"]) == "https://atelier.example")
        #expect(try base([:], ["migrate", "--port", "8150"]) == "http://localhost:8080", "only serve binds")
    }
}
