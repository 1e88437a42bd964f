import Vapor

/// Universal Links (iOS) and App Links (Android): the files that let a shared link open the app
/// where it is installed. The app ids come from configuration; without them the files list none.
enum AppLinkRoutes {
    /// The paths an app opens unless its configuration names its own; everything else stays in
    /// the browser. (What AtelierKit's `DeepLink` reads.)
    static let appPaths = [
        "/products/*", "/stores/*", "/brands/*", "/boards/*", "/moments/*", "/magazine/articles/*", "/magazine/issues/*",
        "/invite/*", "/verify-email", "/reset-password",
    ]

    static func register(_ app: Application) {
        let links = app.atelier.config.appLinks
        app.get(".well-known", "apple-app-site-association") { _ -> Response in
            struct Component: Encodable { var path: String; enum CodingKeys: String, CodingKey { case path = "/" } }
            struct Detail: Encodable { var appIDs: [String]; var components: [Component] }
            struct AppLinks: Encodable { var apps: [String] = []; var details: [Detail] }
            struct Association: Encodable { var applinks: AppLinks }
            let body = Association(applinks: AppLinks(details: links.appleAppIDs.map { id in
                Detail(appIDs: [id], components: (links.applePaths[id] ?? appPaths).map { Component(path: $0) })
            }))
            return try json(body)
        }
        app.get(".well-known", "assetlinks.json") { _ -> Response in
            struct Target: Encodable {
                var namespace = "android_app"
                var package_name: String
                var sha256_cert_fingerprints: [String]
            }
            struct Statement: Encodable {
                var relation = ["delegate_permission/common.handle_all_urls"]
                var target: Target
            }
            let statements = links.androidPackage.map { [Statement(target: Target(package_name: $0, sha256_cert_fingerprints: links.androidCertFingerprints))] } ?? []
            return try json(statements)
        }
    }

    private static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = HTTPHeaders()
        headers.contentType = .json
        headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=3600")
        return Response(status: .ok, headers: headers, body: .init(data: try encoder.encode(value)))
    }
}
