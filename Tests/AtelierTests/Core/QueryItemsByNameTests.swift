@_spi(Generated) import OpenAPIRuntime
import Testing

@testable import Atelier

/// `QueryItemsByName` hands each parameter's decoder only that parameter's pairs: the decoder must
/// come to the same value, or the same failure, as from the whole query, for any query.
@Suite("A query split by parameter name once")
struct QueryItemsByNameTests {
    static let names = ["categoryId", "brandId", "priceMin", "priceMax", "limit", "cursor", "tags"]

    /// What the generated deserializer makes of `query` for `name` as `T`: the value, nothing, or a failure.
    static func outcome<T: Decodable & Sendable>(_ query: Substring?, _ name: String, as type: T.Type) -> String {
        let converter = Converter(configuration: APIRoutes.configuration)
        do {
            let value = try converter.getOptionalQueryItemAsURI(in: query, style: .form, explode: true, name: name, as: type)
            return value.map { "value \($0)" } ?? "nil"
        } catch {
            return "failure"
        }
    }

    static func expectSame(_ query: String?) {
        let split = QueryItemsByName(query.map { $0[...] })
        for name in names {
            for (whole, part) in [
                (outcome(query?[...], name, as: String.self), outcome(split[name], name, as: String.self)),
                (outcome(query?[...], name, as: Int.self), outcome(split[name], name, as: Int.self)),
                (outcome(query?[...], name, as: [String].self), outcome(split[name], name, as: [String].self)),
            ] {
                #expect(whole == part, "\(name) in \(query ?? "no query")")
            }
        }
    }

    @Test("plain queries, repeated keys, a missing or an empty query")
    func plain() {
        for query in [nil, "", "limit=5", "categoryId=a&limit=20&priceMin=100", "tags=a&tags=b&limit=2&tags=c",
                      "limit=5&limit=6", "limit=", "=5&limit=3", "limit=a%20b", "cursor=x+y", "limit=%zz", "other=1"] {
            Self.expectSame(query)
        }
    }

    @Test("queries the split hands whole: no =, empty pairs, encoded keys, + in keys")
    func handedWhole() {
        for query in ["limit", "limit=5&", "&limit=5", "limit=5&&cursor=a", "li%6Dit=7", "lim+it=7&limit=1", "price%4Din=3",
                      "limit=5&tags", "%=1&limit=2", "limit==5", "limit=5=6"] {
            Self.expectSame(query)
        }
    }

    /// The split and the generated parser both cut the query at `&` and `=` as characters: a
    /// combining mark after either makes one character of the two, which neither may cut at.
    @Test("non-ASCII keys and values, combining marks after separators, the Kelvin sign")
    func unicode() {
        for query in ["limit=é", "limit=e\u{301}", "lim\u{301}it=5", "limit\u{301}=5", "limit=\u{301}5", "priceMax=5&\u{301}limit=6",
                      "limit=5&\u{301}", "priceMin=1&\u{301}&limit=2", "cursor=👗&limit=3", "tags=ø&tags=e\u{301}", "\u{212A}=1&limit=4",
                      "priceMax=%C3%A9", "catégorie=1&limit=2", "limit=5\u{301}&cursor=a", "priceMax=\u{200D}7"] {
            Self.expectSame(query)
        }
    }

    @Test("random queries from names, encoded names, odd values and separators agree with the whole query")
    func random() {
        var generator = SystemRandomNumberGenerator()
        let keys = Self.names + ["li%6Dit", "tag%73", "limit+", "", "q", "Limit", "limit ", "ta=gs", "lim\u{301}it", "\u{301}limit",
                                 "limit\u{301}", "prix€", "\u{212A}"]
        let values = ["5", "-3", "abc", "a%20b", "a+b", "%2B", "%zz", "", "1,2", "é", "=", "12345678901234567890", "\u{301}", "5\u{301}",
                      "e\u{301}", "👗", "%C3%A9", "=\u{301}", "&\u{301}"]
        for _ in 0..<400 {
            var parts: [String] = []
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: parts.append(keys.randomElement(using: &generator)!)
                case 1: parts.append("")
                default: parts.append(keys.randomElement(using: &generator)! + "=" + values.randomElement(using: &generator)!)
                }
            }
            Self.expectSame(parts.joined(separator: "&"))
        }
    }
}
