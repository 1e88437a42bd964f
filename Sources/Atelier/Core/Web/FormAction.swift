import Vapor

extension Request {
    /// Runs a form's action and goes back to `path`: its message as a success flash, or a refusal
    /// (a 4xx problem) as an error flash, so the page shows what happened either way.
    func formAction(redirectTo path: String, _ action: () async throws -> String?) async throws -> Response {
        do {
            if let message = try await action() { Flash.set("success", message, on: self) }
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", problem.errors.first.map { "\($0.field): \($0.message)" } ?? problem.detail ?? problem.title, on: self)
        } catch is DecodingError {
            Flash.set("error", "Fill in every field.", on: self)
        }
        return redirect(to: path)
    }
}
