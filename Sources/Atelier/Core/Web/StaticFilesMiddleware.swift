import Vapor

/// Serves `Public/static/…` at `/static/…` and nothing else, so API paths never touch the file system.
struct StaticFilesMiddleware: AsyncMiddleware {
    private let files: FileMiddleware

    init(publicDirectory: String) {
        files = FileMiddleware(publicDirectory: publicDirectory, defaultFile: nil, advancedETagComparison: true)
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let path = request.url.path
        guard path.hasPrefix("/static/"), path.utf8.count < 512, request.method == .GET || request.method == .HEAD else {
            return try await next.respond(to: request)
        }
        let response = try await files.respond(to: request, chainingTo: next).get()
        if response.status == .ok {
            response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=3600")
        }
        return response
    }
}
