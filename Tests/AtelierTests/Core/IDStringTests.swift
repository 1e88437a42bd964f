import Foundation
import Testing

@testable import Atelier

@Suite("Core: ids written and read as text")
struct IDStringTests {
    @Test("an id is written as Foundation writes it, in lower case, for every byte value in every position")
    func written() {
        var ids = (0..<500).map { _ in UUID() }
        ids.append(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        ids.append(UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)))
        // Each byte value 0...255 once in each of the 16 positions.
        for value in 0...255 {
            var bytes = [UInt8](repeating: 0, count: 16)
            for position in 0..<16 { bytes[position] = UInt8((value + position * 17) % 256) }
            ids.append(bytes.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) })
        }
        for id in ids {
            #expect(id.idString == id.uuidString.lowercased())
        }
        #expect(UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")!.idString == "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")
    }

    @Test("an id is read from its 36 characters in either case, as Foundation reads it; nothing else is an id")
    func read() {
        for _ in 0..<200 {
            let id = UUID()
            #expect(UUID(text: id.uuidString) == id)
            #expect(UUID(text: id.idString) == id)
        }
        let sample = "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"
        for text in [sample, sample.lowercased(), "0f1E2d3C-4b5A-6978-8796-a5B4c3D2e1F0"] {
            #expect(UUID(text: text) != nil && UUID(text: text) == UUID(uuidString: text), "\(text)")
        }
        // Foundation's parser (sscanf) also takes a space before a pair of digits; an id with one is not an id here.
        for text in [
            "", sample.dropLast().description, sample + "0", sample + " ", " " + sample, " " + sample.dropFirst(),
            "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1 0", sample.replacingOccurrences(of: "-", with: ""), "{\(sample)}",
            sample.replacingOccurrences(of: "0F", with: "0G"), "0F1E2D3C_4B5A-6978-8796-A5B4C3D2E1F0",
            "0F1E2D3C-4B5A6-978-8796-A5B4C3D2E1F0", "+F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0", "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F\u{00E9}",
        ] {
            #expect(UUID(text: text) == nil, "\(text)")
        }
    }
}
