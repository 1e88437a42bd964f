import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import Testing

@testable import Atelier

/// `JSONBytes` writes what the generated server's encoder writes, byte for byte (issue 19): the
/// product page and list bodies, and so their ETags, must not change with the writer.
@Suite("JSON written straight into bytes")
struct JSONBytesTests {
    /// The generated server's own JSON path: the API's configuration, `setResponseBodyAsJSON`.
    static func encoderBytes(_ value: some Encodable & Sendable) async throws -> [UInt8] {
        let converter = Converter(configuration: APIRoutes.configuration)
        var fields = HTTPFields()
        let body = try converter.setResponseBodyAsJSON(value, headerFields: &fields, contentType: "application/json")
        return Array(try await Data(collecting: body, upTo: .max))
    }

    static func writerBytes(_ value: some JSONBytesEncodable) throws -> [UInt8] {
        var json = JSONBytes(dates: APIRoutes.configuration.dateTranscoder)
        try value.writeJSON(to: &json)
        return json.bytes
    }

    private func expectSame<T: Encodable & Sendable & JSONBytesEncodable>(_ values: [T], _ what: String) async throws {
        let (expected, written) = (try await Self.encoderBytes(values), try Self.writerBytes(values))
        #expect(written == expected, "\(what): \(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
    }

    @Test("strings: every ASCII character alone, escapes, non-ASCII text, random text")
    func strings() async throws {
        try await expectSame((0..<128).map { String(UnicodeScalar(UInt8($0))) }, "each ASCII character")
        try await expectSame(["", "a/b\\c\"d", "https://x.example/p?a=1&b=2", "åäö ü 日本 😀 \u{2028}\u{2029}\u{7f}", "line\nnext\ttab\r\u{8}\u{c}\u{1}\u{1f}"], "escapes")
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab/\\\"\n\t\u{0}\u{1b} é😀日<>&'") + (0..<32).map { Character(UnicodeScalar(UInt8($0))) }
        let random = (0..<500).map { _ in String((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }) }
        try await expectSame(random, "random text")
    }

    @Test("integers and doubles: edges and random values, as Foundation writes them")
    func numbers() async throws {
        try await expectSame([0, 1, -1, 9, 10, 99, 100, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1], "Int64 edges")
        try await expectSame((0..<500).map { _ in Int.random(in: Int.min...Int.max) }, "random Int")
        let edges: [Double] = [0, -0.0, 1, -1, 4.5, 4.0, 0.1, 1e-7, 1e21, 1e16, 1e15, 123_456_789_012, 12_345_678_901_234_568,
            10.0 / 3.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude]
        try await expectSame(edges, "Double edges")
        let ratings = (1...200).flatMap { count in (0..<3).map { _ in Double(Int.random(in: count...(5 * count))) / Double(count) } }
        try await expectSame(ratings, "means of stars")
        let random = (0..<1000).compactMap { _ -> Double? in
            let value = Double(bitPattern: UInt64.random(in: 0...UInt64.max))
            return value.isFinite ? value : nil
        }
        try await expectSame(random, "random bit patterns")
    }

    @Test("dates, booleans and nested arrays")
    func datesAndArrays() async throws {
        let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_795_000_000.25), Date(timeIntervalSince1970: -12_345_678_901),
            Date(timeIntervalSince1970: 253_402_300_799)]
        try await expectSame(dates, "dates")
        try await expectSame([true, false], "booleans")
        try await expectSame([[String](), ["a"], ["b", "c/d"]], "arrays of arrays")
    }
}
