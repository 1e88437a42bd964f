import APIReferenceBuilder
import Foundation

// api-reference [--check] [CONTRACT] [OUTPUT]
// Writes the API reference of CONTRACT (openapi.yaml) to OUTPUT (Resources/api-reference.json), which
// the server reads for /api/docs. With --check it writes nothing and exits 1 when OUTPUT is not what the
// contract makes (CI runs it, so a contract changed without its reference fails).
var arguments = Array(CommandLine.arguments.dropFirst())
let check = arguments.contains("--check")
arguments.removeAll { $0 == "--check" }
let contract = arguments.first ?? "openapi.yaml"
let output = arguments.dropFirst().first ?? "Resources/api-reference.json"

do {
    let bytes = try APIReferenceFile.bytes(of: APIReferenceFile.build(contractAt: contract))
    if check {
        guard FileManager.default.contents(atPath: output) == bytes else {
            FileHandle.standardError.write(Data("api-reference: \(output) is stale; run `make api-reference` and commit it\n".utf8))
            exit(1)
        }
        print("api-reference: \(output) matches \(contract)")
    } else {
        try bytes.write(to: URL(fileURLWithPath: output), options: .atomic)
        print("api-reference: wrote \(output) (\(bytes.count) bytes)")
    }
} catch {
    FileHandle.standardError.write(Data("api-reference: \(error)\n".utf8))
    exit(2)
}
