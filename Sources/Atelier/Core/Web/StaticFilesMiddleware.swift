import Vapor

/// Serves `Public/static/…` at `/static/…` and nothing else, so API paths never touch the file system.
struct StaticFilesMiddleware: Middleware {
    private let files: FileMiddleware

    init(publicDirectory: String) {
        files = FileMiddleware(publicDirectory: publicDirectory, defaultFile: nil, advancedETagComparison: true)
    }

    // On futures: it sees every request (see SecurityHeadersMiddleware).
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let path = request.url.path
        guard path.hasPrefix("/static/"), path.utf8.count < 512, request.method == .GET || request.method == .HEAD else {
            return next.respond(to: request)
        }
        return files.respond(to: request, chainingTo: next).map { response in
            if response.status == .ok {
                response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=3600")
            }
            return response
        }
    }
}
