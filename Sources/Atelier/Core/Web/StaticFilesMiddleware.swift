import Vapor

/// Serves `Public/static/…` at `/static/…` and nothing else, so API paths never touch the file system.
/// It guards the route `/static/**` only (`register`): as a middleware of every request it parsed each
/// request's path once more, about 1.4 % of a product page's CPU (issue 19).
struct StaticFilesMiddleware: Middleware {
    private let files: FileMiddleware

    init(publicDirectory: String) {
        files = FileMiddleware(publicDirectory: publicDirectory, defaultFile: nil, advancedETagComparison: true)
    }

    /// `/static/**` for GET (and so HEAD): the file, or the 404 of a path nothing answers when there
    /// is none. Other methods get 405, as on every route.
    static func register(_ app: Application) {
        app.grouped(StaticFilesMiddleware(publicDirectory: app.directory.publicDirectory))
            .get("static", "**") { request -> Response in throw Problem.nothing(at: request.url.path) }
    }

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        // The route holds the prefix and the method; a path past 512 bytes gets the route's 404 unread.
        guard request.url.path.utf8.count < 512 else { return next.respond(to: request) }
        return files.respond(to: request, chainingTo: next).map { response in
            if response.status == .ok {
                response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=3600")
                // Text compresses (CSS, scripts, SVG); pictures are compressed already.
                if let type = response.headers.contentType, type.type == "text" || type.subType.hasSuffix("javascript") || type.subType.contains("svg") {
                    WebCompressionMiddleware.compress(response)
                }
            }
            return response
        }
    }
}
