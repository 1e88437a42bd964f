import Foundation

/// What `/api/docs` shows of openapi.yaml: the operations grouped by tag, each with what a client
/// sends, what it gets back and who may call it. Built from the document by `APIReferenceBuilder` (the `api-reference` tool), kept as
/// Resources/api-reference.json, and read by the server with Foundation alone.
public struct APIReference: Codable, Sendable {
    public struct Parameter: Codable, Sendable {
        public var name: String
        public var location: String
        public var required: Bool
        public var type: String
        public var description: String?

        public init(name: String, location: String, required: Bool, type: String, description: String?) {
            self.name = name
            self.location = location
            self.required = required
            self.type = type
            self.description = description
        }
    }

    public struct Body: Codable, Sendable {
        public var contentType: String
        public var type: String?
        /// Pretty JSON for JSON bodies, escaped for HTML already (the template writes it as is).
        public var example: String?

        public init(contentType: String, type: String?, example: String?) {
            self.contentType = contentType
            self.type = type
            self.example = example
        }
    }

    public struct Response: Codable, Sendable {
        public var status: String
        public var description: String
        public var contentType: String?
        /// As `Body.example`.
        public var example: String?
        /// An error answered as RFC 9457 problem+json.
        public var isProblem: Bool

        public init(status: String, description: String, contentType: String?, example: String?, isProblem: Bool) {
            self.status = status
            self.description = description
            self.contentType = contentType
            self.example = example
            self.isProblem = isProblem
        }
    }

    public struct Operation: Codable, Sendable {
        public var anchor: String
        public var method: String
        public var path: String
        public var tag: String
        public var summary: String
        public var description: String?
        public var operationId: String?
        public var deprecated: Bool
        public var access: String
        public var accessNote: String?
        public var parameters: [Parameter]
        public var bodyRequired: Bool
        public var bodyDescription: String?
        public var bodies: [Body]
        public var responses: [Response]
        /// Lower-cased words the search matches against, on the server and in api-docs.js.
        public var searchText: String

        public func matches(_ words: [String]) -> Bool { words.allSatisfy { searchText.contains($0) } }

        public init(anchor: String, method: String, path: String, tag: String, summary: String, description: String?, operationId: String?, deprecated: Bool, access: String, accessNote: String?, parameters: [Parameter], bodyRequired: Bool, bodyDescription: String?, bodies: [Body], responses: [Response], searchText: String) {
            self.anchor = anchor
            self.method = method
            self.path = path
            self.tag = tag
            self.summary = summary
            self.description = description
            self.operationId = operationId
            self.deprecated = deprecated
            self.access = access
            self.accessNote = accessNote
            self.parameters = parameters
            self.bodyRequired = bodyRequired
            self.bodyDescription = bodyDescription
            self.bodies = bodies
            self.responses = responses
            self.searchText = searchText
        }
    }

    public struct Group: Codable, Sendable {
        public var tag: String
        public var anchor: String
        public var description: String?
        public var operations: [Operation]

        public init(tag: String, anchor: String, description: String?, operations: [Operation]) {
            self.tag = tag
            self.anchor = anchor
            self.description = description
            self.operations = operations
        }
    }

    public var title: String
    public var version: String
    public var description: String?
    public var serverURL: String
    public var groups: [Group]

    public var operationCount: Int { groups.reduce(0) { $0 + $1.operations.count } }

    /// The groups with only the operations that contain every word of `query`; empty groups dropped.
    public func filtered(by query: String) -> [Group] {
        let words = query.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return groups }
        return groups.compactMap { group in
            var kept = group
            kept.operations = group.operations.filter { $0.matches(words) }
            return kept.operations.isEmpty ? nil : kept
        }
    }

    public init(title: String, version: String, description: String?, serverURL: String, groups: [Group]) {
        self.title = title
        self.version = version
        self.description = description
        self.serverURL = serverURL
        self.groups = groups
    }
}
