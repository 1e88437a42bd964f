import Vapor

/// The HTML face of a problem, for browsers on web pages.
enum ErrorPage {
    struct Context: Encodable {
        var title: String
        var status: Int
        var reason: String
        var detail: String?
        var user: WebUser?
        var csrfToken: String
    }

    static func render(_ problem: Problem, for request: Request) async throws -> Response {
        let context = Context(
            title: problem.title, status: Int(problem.status.code), reason: problem.title, detail: problem.detail,
            user: request.webUser, csrfToken: request.csrfToken)
        let view = try await request.view.render("core/error", context)
        let response = try await view.encodeResponse(status: problem.status, for: request)
        for (name, value) in problem.headers { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }
}
