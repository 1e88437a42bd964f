import Crypto
import Foundation
import Testing

@testable import Atelier

@Suite("Core: bytes as hexadecimal text")
struct HexTests {
    @Test("every byte as two lower-case digits, in order; a digest as its published value")
    func lowercase() {
        #expect(Hex.lowercase([UInt8]()) == "")
        #expect(Hex.lowercase([0x00, 0x0f, 0xf0, 0xff, 0x5a]) == "000ff0ff5a")
        #expect(Hex.lowercase(UInt8.min...UInt8.max) == (0...255).map { String(repeating: "0", count: $0 < 16 ? 1 : 0) + String($0, radix: 16) }.joined())
        // FIPS 180-2's example: SHA-256 of "abc".
        #expect(Hex.lowercase(SHA256.hash(data: Data("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.lowercase(SHA256.hash(data: Data("abc".utf8)).prefix(2)) == "ba78")
    }
}
