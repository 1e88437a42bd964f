import APIReference
import Foundation
import OpenAPIKit
import Yams

/// openapi.yaml to the reference the server renders at `/api/docs`, and that reference as the bytes of
/// Resources/api-reference.json (pretty and with sorted keys, so a change to the contract is a readable diff).
public enum APIReferenceFile {
    public static func build(contractAt path: String) throws -> APIReference {
        let yaml = try String(contentsOfFile: path, encoding: .utf8)
        return APIReference(document: try YAMLDecoder().decode(OpenAPI.Document.self, from: yaml))
    }

    public static func bytes(of reference: APIReference) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(reference) + Data("\n".utf8)
    }
}
