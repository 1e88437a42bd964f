import Foundation
import Testing

@testable import Atelier

@Suite("UUIDs read from text without a scanner (FastColumns)")
struct FastColumnsTests {
    @Test("either case parses to the same id as Foundation's parser; anything else is refused")
    func parse() {
        for _ in 0..<200 {
            let id = UUID()
            #expect(UUID(text: id.uuidString) == id)
            #expect(UUID(text: id.uuidString.lowercased()) == id)
        }
        let sample = "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"
        for bad in ["", sample.dropLast().description, sample + "0", sample.replacingOccurrences(of: "-", with: ""),
                    sample.replacingOccurrences(of: "0F", with: "0G"), "0F1E2D3C_4B5A-6978-8796-A5B4C3D2E1F0", " " + sample.dropFirst()] {
            #expect(UUID(text: bad) == nil, "\(bad)")
        }
    }
}
