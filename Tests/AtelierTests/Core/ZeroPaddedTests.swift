import Foundation
import Testing

@testable import Atelier

@Suite("Core: numbers zero-padded")
struct ZeroPaddedTests {
    @Test("as printf's %0Nd writes them, negative numbers and numbers wider than the width included")
    func asPrintf() {
        for width in 0...5 {
            for value in [-12_345, -100, -7, -1, 0, 1, 7, 42, 100, 999, 12_345, 1_234_567] {
                #expect(value.zeroPadded(width) == String(format: "%0\(width)d", value), "\(value) to \(width)")
            }
        }
        #expect(5.zeroPadded(2) == "05" && 2026.zeroPadded(4) == "2026" && (-5).zeroPadded(3) == "-05")
    }
}
