import Foundation
import OpenAPIKit

/// A JSON value that keeps its keys in the schema's order, written the way the reference shows it.
indirect enum ExampleJSON: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([ExampleJSON])
    case object([(key: String, value: ExampleJSON)])

    static func == (lhs: ExampleJSON, rhs: ExampleJSON) -> Bool { lhs.rendered() == rhs.rendered() }

    /// A value a document wrote (`example`, `examples`, `enum`, `default`), as Yams decoded it.
    init(_ any: Any?) {
        switch any {
        case nil, is NSNull: self = .null
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .int(value)
        case let value as Double: self = .double(value)
        case let value as String: self = .string(value)
        case let value as AnyCodable: self = ExampleJSON(value.value)
        case let values as [Any]: self = .array(values.map { ExampleJSON($0) })
        case let values as [String: Any]: self = .object(values.keys.sorted().map { ($0, ExampleJSON(values[$0])) })
        default: self = .string(String(describing: any!))
        }
    }

    /// For a `<pre>`: text only needs `&` and `<` escaped, and quotes stay readable in the source.
    var html: String {
        rendered().replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    func rendered(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return Self.quoted(value)
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { pad + $0.rendered(indent: indent + 1) }.joined(separator: ",\n") + "\n\(closing)]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            return "{\n" + members.map { pad + Self.quoted($0.key) + ": " + $0.value.rendered(indent: indent + 1) }
                .joined(separator: ",\n") + "\n\(closing)}"
        }
    }

    private static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
    }
}

/// Makes an example value for a schema: the document's own example when it has one, else the first
/// allowed value, the default, or a placeholder by type and format. References are followed, a
/// schema that contains itself stops at its second appearance, and depth is bounded.
struct SchemaExample {
    let components: OpenAPI.Components
    static let maxDepth = 6

    func value(for schema: JSONSchema, name: String? = nil) -> ExampleJSON {
        value(for: schema, name: name, depth: 0, seen: [])
    }

    private func value(for schema: JSONSchema, name: String?, depth: Int, seen: Set<String>) -> ExampleJSON {
        if let example = schema.examples.first { return ExampleJSON(example) }
        if let allowed = schema.allowedValues?.first { return ExampleJSON(allowed) }
        if let fallback = schema.defaultValue { return ExampleJSON(fallback) }
        guard depth < Self.maxDepth else { return .null }
        switch schema.value {
        case .null: return .null
        case .boolean: return .bool(true)
        case .integer(_, let context): return .int(context.minimum.map { $0.value + ($0.exclusive ? 1 : 0) } ?? 1)
        case .number(_, let context): return .double(context.minimum.map { $0.value + ($0.exclusive ? 0.5 : 0) } ?? 1.5)
        case .string(let core, let context):
            return .string(Self.placeholder(format: core.format.rawValue, pattern: context.pattern, name: name))
        case .array(_, let context):
            guard let items = context.items else { return .array([]) }
            return .array([value(for: items, name: name, depth: depth + 1, seen: seen)])
        case .object(_, let context):
            var members = context.properties.map { key, property in
                (key: key, value: value(for: property, name: key, depth: depth + 1, seen: seen))
            }
            if members.isEmpty, case .b(let extra)? = context.additionalProperties {
                members = [(key: "key", value: value(for: extra, name: nil, depth: depth + 1, seen: seen))]
            }
            return .object(members)
        case .all(let parts, _):
            var merged: [(key: String, value: ExampleJSON)] = []
            for part in parts {
                guard case .object(let members) = value(for: part, name: name, depth: depth + 1, seen: seen) else { continue }
                merged += members.filter { member in !merged.contains { $0.key == member.key } }
            }
            return .object(merged)
        case .one(let options, _), .any(let options, _):
            let choice = options.first { if case .null = $0.value { false } else { true } } ?? options.first
            return choice.map { value(for: $0, name: name, depth: depth + 1, seen: seen) } ?? .null
        case .not, .fragment: return .null
        case .reference(let reference, _):
            let key = reference.absoluteString
            guard !seen.contains(key), let target = try? components.lookupOnce(schema) else { return .null }
            // Following a reference nests nothing; `seen` stops a schema that contains itself.
            return value(for: target, name: name, depth: depth, seen: seen.union([key]))
        }
    }

    /// Ids are written in lower case everywhere (issue 23), so the examples are too.
    static func placeholder(format: String, pattern: String? = nil, name: String?) -> String {
        switch format {
        case "uuid": return "0192f1c4-6a0e-7b3d-8c5f-2e9a4b7d1c60"
        case "date-time": return "2026-05-01T09:30:00Z"
        case "date": return "2026-05-01"
        case "email": return "person@example.com"
        case "uri", "url": return "https://example.com/"
        case "binary", "byte": return "<bytes>"
        default: break
        }
        switch pattern {
        case "^[0-9]{4}-[0-9]{2}-[0-9]{2}$": return "2026-05-01"
        case "^[0-9]{4}-[0-9]{2}$": return "2026-05"
        case "^[0-9]{4}$": return "2026"
        default: break
        }
        let lowered = name?.lowercased() ?? ""
        if lowered.hasSuffix("color") || lowered.hasSuffix("colour") { return "#8a6e5a" }
        if lowered.contains("email") { return "person@example.com" }
        if lowered.contains("password") { return "correct horse battery staple" }
        if lowered.hasSuffix("url") { return "https://example.com/" }
        if lowered == "currency" { return "EUR" }
        if lowered == "timezone" { return "Europe/Stockholm" }
        if lowered == "lang" || lowered == "language" || lowered == "locale" { return "en" }
        return name.map { "\($0) text" } ?? "text"
    }
}
