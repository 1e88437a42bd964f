import Vapor

extension Request {
    /// The UUID in path parameter `name`; anything else is the 404 of a missing `what`.
    func pathID(_ name: String, _ what: String) throws -> UUID {
        guard let raw = parameters.get(name), let id = UUID(uuidString: raw) else { throw Problem.notFound(what) }
        return id
    }
}
