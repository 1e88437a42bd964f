import Crypto
import Foundation
import Vapor

/// What makes the web an installable app (issue 53): `/manifest.webmanifest`, the service worker at
/// `/sw.js` (at the root, so its scope is the whole site) and `/offline`, the page the worker shows
/// for a page it has no copy of. The worker's cache version is a digest of the files it precaches
/// and of itself, so a changed stylesheet or script installs a new worker that drops the old caches.
enum WebAppRoutes {
    static let themeColor = "#9e1b32"
    static let backgroundColor = "#ffffff"

    /// The files the worker keeps from its install on (the offline page is added by the worker).
    static let precached = [
        "static/css/atelier.css", "static/js/app.js", "static/js/action-queue.js", "static/js/page-actions.js", "static/js/magazine-offline.js",
        "static/icons/icon-192.png", "static/icons/icon-512.png", "static/icons/maskable-192.png",
        "static/icons/maskable-512.png", "static/icons/apple-touch-icon.png",
    ]

    static func register(_ web: any RoutesBuilder) {
        web.get("manifest.webmanifest", use: manifest)
        web.get("sw.js", use: serviceWorker)
        web.get("offline") { req async throws -> View in
            // Kept by the worker and shown to whoever uses the browser later: no one's name in it.
            var page = PageContext(req, title: "Offline")
            (page.user, page.csrfToken, page.flash) = (nil, "", nil)
            return try await req.view.render("site/offline", page)
        }
    }

    static func manifest(_ req: Request) async throws -> Response {
        let manifest = WebAppManifest(
            id: "/", name: "Atelier", short_name: "Atelier",
            description: "Local clothing stores, your closet, outfits, moments and the magazine.",
            start_url: "/?source=app", scope: "/", display: "standalone", orientation: "portrait",
            theme_color: themeColor, background_color: backgroundColor, lang: "en", dir: "ltr",
            icons: [
                .init(src: "/static/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any"),
                .init(src: "/static/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any"),
                .init(src: "/static/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable"),
                .init(src: "/static/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable"),
            ],
            shortcuts: [
                .init(name: "Closet", url: "/closet"), .init(name: "Moments", url: "/moments"),
                .init(name: "Magazine", url: "/magazine"), .init(name: "Cart", url: "/cart"),
            ])
        let body = try JSONEncoder().encode(manifest)
        var headers = HTTPHeaders([("Content-Type", "application/manifest+json"), ("Cache-Control", "public, max-age=3600")])
        headers.responseCompression = .enable
        return Response(status: .ok, headers: headers, body: .init(data: body))
    }

    /// The worker's script with its version and precache list filled in; never cached by the HTTP
    /// cache, so a new version is seen at the next page load.
    static func serviceWorker(_ req: Request) async throws -> Response {
        let script = try await ServiceWorkerScript.shared.script(publicDirectory: req.application.directory.publicDirectory)
        var headers = HTTPHeaders([("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-cache")])
        headers.responseCompression = .enable
        return Response(status: .ok, headers: headers, body: .init(string: script))
    }
}

/// The manifest's JSON (its keys are the standard's).
struct WebAppManifest: Encodable {
    struct Icon: Encodable { var src, sizes, type, purpose: String }
    struct Shortcut: Encodable { var name, url: String }
    var id, name, short_name, description, start_url, scope, display, orientation, theme_color, background_color, lang, dir: String
    var icons: [Icon]
    var shortcuts: [Shortcut]
}

/// `service-worker.js` with `__VERSION__` and `__PRECACHE__` replaced, read once per process (the
/// files do not change under a running server).
actor ServiceWorkerScript {
    static let shared = ServiceWorkerScript()
    private var made: [String: String] = [:]

    func script(publicDirectory: String) throws -> String {
        if let done = made[publicDirectory] { return done }
        let source = try String(contentsOfFile: publicDirectory + "static/js/service-worker.js", encoding: .utf8)
        var digest = SHA256()
        digest.update(data: Data(source.utf8))
        for file in WebAppRoutes.precached {
            digest.update(data: try Data(contentsOf: URL(fileURLWithPath: publicDirectory + file)))
        }
        let version = Hex.lowercase(digest.finalize().prefix(8))
        let list = (["/offline"] + WebAppRoutes.precached.map { "/" + $0 }).map { "'\($0)'" }.joined(separator: ", ")
        let script = source.replacingOccurrences(of: "__VERSION__", with: version).replacingOccurrences(of: "__PRECACHE__", with: list)
        made[publicDirectory] = script
        return script
    }
}
