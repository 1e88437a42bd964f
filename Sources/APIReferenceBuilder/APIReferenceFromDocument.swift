import APIReference
import Foundation
import OpenAPIKit

extension APIReference {
    /// The reference of a decoded document.
    public init(document: OpenAPI.Document) {
        let components = document.components
        let describer = SchemaDescriber(components: components)
        let examples = SchemaExample(components: components)
        var byTag: [String: [Operation]] = [:]
        var anchors: Set<String> = []
        for route in document.routes {
            let path = route.path.rawValue
            let shared = route.pathItem.parameters.compactMap { components[$0] }
            for endpoint in route.pathItem.endpoints {
                let operation = endpoint.operation
                let method = endpoint.method.rawValue.uppercased()
                let own = operation.parameters.compactMap { components[$0] }
                // An operation's parameter replaces the path item's of the same name and place.
                let parameters = shared.filter { p in !own.contains { $0.name == p.name && $0.location == p.location } } + own
                let request = operation.requestBody.flatMap { components[$0] }
                let summary = operation.summary ?? operation.description?.components(separatedBy: "\n").first ?? "\(method) \(path)"
                let tag = operation.tags?.first ?? "other"
                let access = APIAccess.describe(
                    security: operation.security ?? document.security, path: path,
                    text: [operation.summary, operation.description].compactMap { $0 }.joined(separator: " "),
                    groupText: document.tags?.first(where: { $0.name == tag })?.description)
                var anchor = "op-" + (operation.operationId ?? Self.slug(method + path))
                while anchors.contains(anchor) { anchor += "-2" }
                anchors.insert(anchor)
                let requestBodies: [Body] = request.map { Self.bodies($0.content, components: components, examples: examples, describer: describer) } ?? []
                let responses: [Response] = operation.responses.map { status, response in
                    Self.response(status: status, components[response], components: components, examples: examples)
                }
                let words: [String] = [method, path, tag, summary, operation.description ?? "", operation.operationId ?? "", access.label]
                    + parameters.map(\.name)
                let rendered = Operation(
                    anchor: anchor, method: method, path: path, tag: tag, summary: summary,
                    description: operation.description == summary ? nil : operation.description,
                    operationId: operation.operationId, deprecated: operation.deprecated,
                    access: access.label, accessNote: access.note,
                    parameters: parameters.map { describer.parameter($0) },
                    bodyRequired: request?.required ?? false, bodyDescription: request?.description,
                    bodies: requestBodies, responses: responses, searchText: words.joined(separator: " ").lowercased())
                byTag[tag, default: []].append(rendered)
            }
        }
        let declared = (document.tags ?? []).map(\.name)
        let order = declared + byTag.keys.filter { !declared.contains($0) }.sorted()
        self.init(
            title: document.info.title, version: document.info.version, description: document.info.description,
            serverURL: document.servers.first?.urlTemplate.absoluteString ?? "/",
            groups: order.compactMap { tag -> Group? in
                guard let operations = byTag[tag] else { return nil }
                let declared = document.tags?.first(where: { $0.name == tag })
                return Group(tag: tag, anchor: "tag-" + Self.slug(tag), description: declared?.description, operations: operations)
            })
    }

    private static func bodies(
        _ content: OpenAPI.Content.Map, components: OpenAPI.Components, examples: SchemaExample, describer: SchemaDescriber
    ) -> [Body] {
        content.compactMap { (type, either) -> Body? in
            guard let media = components[either] else { return nil }
            return Body(
                contentType: type.rawValue, type: media.schema.map { describer.label($0) },
                example: example(of: media, type: type, examples: examples, components: components))
        }
    }

    private static func response(
        status: OpenAPI.Response.StatusCode, _ response: OpenAPI.Response?, components: OpenAPI.Components, examples: SchemaExample
    ) -> Response {
        let first = response?.content.first
        let contentType = first?.key.rawValue
        let code = Int(status.rawValue) ?? 0
        let isProblem = contentType?.contains("problem") == true || code >= 400 || ["4", "5"].contains(status.rawValue.prefix(1))
        // Every problem has the same shape (the Problem schema), so only answers that succeed get an example.
        var example: String?
        if !isProblem, let first, let media = components[first.value] {
            example = Self.example(of: media, type: first.key, examples: examples, components: components)
        }
        return Response(
            status: status.rawValue, description: response?.description ?? "", contentType: contentType, example: example,
            isProblem: isProblem)
    }

    /// The document's own example for a JSON body, else one made from its schema.
    private static func example(of media: OpenAPI.Content, type: OpenAPI.ContentType, examples: SchemaExample, components: OpenAPI.Components) -> String? {
        guard type.rawValue.contains("json") else { return nil }
        if let given = media.example { return ExampleJSON(given).html }
        if let named = media.examples?.values.lazy.compactMap({ components[$0] }).first,
            let value = named.dataValue ?? named.legacyValue
        {
            return ExampleJSON(value).html
        }
        return media.schema.map { examples.value(for: $0).html }
    }

    static func slug(_ text: String) -> String {
        var out = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                out.append(character)
            } else if !out.hasSuffix("-") {
                out.append("-")
            }
        }
        return out.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }
}

/// Short words for schemas: "string (uuid)", "array of Product", "integer or null", "one of: a, b".
struct SchemaDescriber {
    let components: OpenAPI.Components

    func parameter(_ parameter: OpenAPI.Parameter) -> APIReference.Parameter {
        let schema: JSONSchema? = switch parameter.schemaOrContent {
        case .a(let context): components[context.schema]
        case .b(let content): content.first.flatMap { components[$0.value]?.schema }
        }
        return APIReference.Parameter(
            name: parameter.name, location: parameter.location.rawValue, required: parameter.required,
            type: schema.map { label($0) } ?? "string", description: parameter.description ?? schema?.description)
    }

    func label(_ schema: JSONSchema, depth: Int = 0) -> String {
        var name: String?
        var resolved = schema
        if case .reference(let reference, _) = schema.value {
            name = reference.name
            resolved = (try? components.lookup(schema)) ?? schema
        }
        var text: String
        switch resolved.value {
        case .array(_, let context):
            text = "array of " + (context.items.map { depth < 3 ? label($0, depth: depth + 1) : "items" } ?? "anything")
        case .object:
            text = name ?? "object"
        case .one(let options, _), .any(let options, _):
            text = depth < 3 ? options.map { label($0, depth: depth + 1) }.joined(separator: " or ") : "one of several"
        default:
            text = resolved.jsonType?.rawValue ?? name ?? "any"
            if let format = resolved.formatString, !format.isEmpty { text += " (\(format))" }
            if let values = resolved.allowedValues, !values.isEmpty {
                text += ", one of: " + values.map { value in
                    if case .string(let word) = ExampleJSON(value) { word } else { ExampleJSON(value).rendered() }
                }.joined(separator: ", ")
            }
        }
        if resolved.nullable { text += " or null" }
        return text
    }
}
