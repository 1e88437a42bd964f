import Vapor

extension Request {
    /// The UUID in path parameter `name`; anything else is the 404 of a missing `what`.
    func pathID(_ name: String, _ what: String) throws -> UUID {
        guard let raw = parameters.get(name), let id = UUID(text: raw) else { throw Problem.notFound(what) }
        return id
    }

    /// Path parameter `name` as it goes back into a link: an id in lower case, anything else as sent.
    func pathSegment(_ name: String) -> String {
        let raw = parameters.get(name) ?? ""
        return UUID(text: raw)?.idString ?? raw
    }
}
