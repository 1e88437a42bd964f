import Foundation
import Testing
import Yams

/// The fast JSON writers (`ProductJSONBytes.swift`, issue 19) hand-write the field list of each generated
/// schema they write. This reads both sources of that knowledge, the writers' `field("…")` calls and
/// openapi.yaml's schema properties, and fails on any property a writer misses or any key it adds, for
/// every schema that has a writer: a property added to the contract fails here, not in a client.
@Suite("Fast JSON writers against the contract's schemas")
struct JSONWriterFieldsTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Schema name → the keys its writer writes, from each `extension Components.Schemas.X: JSONBytesEncodable`
    /// whose body writes an object.
    static func writtenKeys() throws -> [String: Set<String>] {
        let source = try String(
            contentsOf: repository.appendingPathComponent("Sources/Atelier/Catalog/API/ProductJSONBytes.swift"), encoding: .utf8)
        var keys: [String: Set<String>] = [:]
        let blocks = source.components(separatedBy: "extension Components.Schemas.").dropFirst()
        for block in blocks {
            let name = String(block.prefix { $0 != ":" })
            guard !name.contains("."), block.contains("json.object") else { continue }
            var found: Set<String> = []
            var rest = Substring(block)
            while let start = rest.range(of: "field(\"") {
                let after = rest[start.upperBound...]
                guard let end = after.firstIndex(of: "\"") else { break }
                found.insert(String(after[..<end]))
                rest = after[end...]
            }
            keys[name] = found
        }
        return keys
    }

    static func schemaProperties() throws -> [String: Set<String>] {
        let text = try String(contentsOf: repository.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let root = try #require(try Yams.load(yaml: text) as? [String: Any])
        let schemas = try #require((root["components"] as? [String: Any])?["schemas"] as? [String: Any])
        var properties: [String: Set<String>] = [:]
        for (name, schema) in schemas {
            guard let schema = schema as? [String: Any] else { continue }
            var keys = Set((schema["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
            for part in schema["allOf"] as? [[String: Any]] ?? [] {
                keys.formUnion((part["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
            }
            properties[name] = keys
        }
        return properties
    }

    @Test("every writer writes exactly its schema's properties")
    func writersMatchSchemas() throws {
        let written = try Self.writtenKeys()
        let contract = try Self.schemaProperties()
        #expect(written.count >= 12, "the writers were not found: \(written.keys.sorted())")
        for (schema, keys) in written.sorted(by: { $0.key < $1.key }) {
            let expected = try #require(contract[schema], "\(schema) has a writer but no schema in openapi.yaml")
            #expect(expected.subtracting(keys).isEmpty, "\(schema)'s writer misses \(expected.subtracting(keys).sorted())")
            #expect(keys.subtracting(expected).isEmpty, "\(schema)'s writer adds \(keys.subtracting(expected).sorted())")
        }
    }

    @Test("the check can fail: a property the writer does not write is named")
    func aMissingPropertyIsNamed() throws {
        var contract = try Self.schemaProperties()
        contract["Money"]?.insert("exchangeRate")
        let written = try Self.writtenKeys()
        let money = try #require(written["Money"])
        #expect(try #require(contract["Money"]).subtracting(money) == ["exchangeRate"])
    }
}
