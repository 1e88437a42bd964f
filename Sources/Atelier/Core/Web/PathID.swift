import Vapor

/// An id from a path (a web route's parameter, an API operation's path field): one that is not a
/// UUID names nothing, so it is the 404 of a missing `what`, never a 400.
enum PathID {
    static func parse(_ raw: String?, _ what: String) throws -> UUID {
        guard let raw, let id = UUID(text: raw) else { throw Problem.notFound(what) }
        return id
    }
}

extension Request {
    /// The UUID in path parameter `name`; anything else is the 404 of a missing `what`.
    func pathID(_ name: String, _ what: String) throws -> UUID {
        try PathID.parse(parameters.get(name), what)
    }

    /// Path parameter `name` as it goes back into a link: an id in lower case, anything else as sent.
    func pathSegment(_ name: String) -> String {
        let raw = parameters.get(name) ?? ""
        return UUID(text: raw)?.idString ?? raw
    }
}
