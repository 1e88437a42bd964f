import Foundation
import Testing

@testable import Atelier

@Suite("Media variant lists read without JSONDecoder, and the same answer as with it (issue 19)")
struct MediaVariantParsingTests {
    private let variants = [1080, 540, 270].flatMap { width in
        ["jpeg", "webp"].map { format in
            MediaVariant(width: width, height: width * 4 / 3, format: format, key: "2f/2f22f44fd80af0bb/w\(width).\(format == "jpeg" ? "jpg" : format)")
        }
    }

    @Test("what MediaService writes (slashes escaped or not, keys sorted or not) is read by the scanner, exactly")
    func encoderOutput() throws {
        for formatting in [JSONEncoder.OutputFormatting(), .sortedKeys, .withoutEscapingSlashes, [.sortedKeys, .withoutEscapingSlashes]] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            let json = String(decoding: try encoder.encode(variants), as: UTF8.self)
            #expect(VariantListScanner.parse(json) == variants, "\(json)")
            #expect(MediaVariant.parsed(json) == variants)
        }
        #expect(VariantListScanner.parse("[]") == [])
        let quoted = [MediaVariant(width: 1, height: 2, format: "jpeg", key: #"a\"b\\c/d"#)]
        #expect(VariantListScanner.parse(String(decoding: try JSONEncoder().encode(quoted), as: UTF8.self)) == quoted)
        // Escapes first, last, side by side, beside text of several bytes per character, and none at all.
        let edges = ["/", "//a//", #"\"/\\"#, "é/ü\\\"ß/", "", "plain", "ø"].map { MediaVariant(width: 3, height: 4, format: "webp", key: $0) }
        let edgesJSON = String(decoding: try JSONEncoder().encode(edges), as: UTF8.self)
        #expect(VariantListScanner.parse(edgesJSON) == edges, "\(edgesJSON)")
        #expect(VariantListScanner.parse(edgesJSON) == (try JSONDecoder().decode([MediaVariant].self, from: Data(edgesJSON.utf8))))
    }

    @Test("any other form is left to JSONDecoder, whose answer stands")
    func otherForms() throws {
        let pretty = JSONEncoder()
        pretty.outputFormatting = .prettyPrinted
        let others = [
            String(decoding: try pretty.encode(variants), as: UTF8.self),
            #"[{"width":270,"height":360,"format":"jpeg","key":"ab\u002fw270.jpg"}]"#,
            #"[{"width":270,"height":360,"format":"jpeg","key":"ab/w270.jpg","extra":1}]"#,
            #"[{"width":-1,"height":360,"format":"jpeg","key":"k"}]"#,
        ]
        for json in others {
            #expect(VariantListScanner.parse(json) == nil, "\(json)")
            #expect(MediaVariant.parsed(json) == (try JSONDecoder().decode([MediaVariant].self, from: Data(json.utf8))))
        }
        for broken in ["", "[", #"[{"width":270,"height":360,"format":"jpeg"}]"#, "[] x", #"[{"width":1,"height":1,"format":"jpeg","key":"a\/"#, #"[{"width":1,"height":1,"format":"jpeg","key":"a\"#] {
            #expect(VariantListScanner.parse(broken) == nil, "\(broken)")
            #expect(MediaVariant.parsed(broken) == [])
        }
        #expect(MediaVariant.parsed(others[1]).first?.key == "ab/w270.jpg")
    }
}
