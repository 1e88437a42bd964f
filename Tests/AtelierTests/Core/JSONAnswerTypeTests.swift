import Testing
import Vapor

@testable import Atelier

/// Which answers the ETag and the answer cache take as JSON: `…/json` in any case, with or without
/// parameters, and nothing else (`+json` problems, HTML, files, no type at all).
@Suite("An answer's JSON content type, read without Vapor's directive parser")
struct JSONAnswerTypeTests {
    @Test("application/json with or without parameters, in any case; not +json, other types or none")
    func types() {
        func isJSON(_ value: String?) -> Bool {
            var headers = HTTPHeaders()
            if let value { headers.add(name: .contentType, value: value) }
            return headers.isJSONAnswer
        }
        for value in ["application/json", "application/json; charset=utf-8", "application/json;charset=utf-8", "Application/JSON", "text/json", "application/ json ;q=1",
                      "application/jSoN\t", "application/json ", "application/json;", "x/json;json"] {
            #expect(isJSON(value), "\(value)")
        }
        for value in ["application/problem+json", "text/html; charset=utf-8", "application/jsonl", "json", "", "application/x-json", "image/jpeg",
                      "application/jso", "application/jsonn", "application/js on", "application/ĵson", "application/json\u{0301}", "application/*json",
                      "application", "/", "application/", "application/;json"] {
            #expect(!isJSON(value), "\(value)")
        }
        #expect(!isJSON(nil))
    }
}
