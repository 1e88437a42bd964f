/// A request's query string split by parameter name once (issue 19). The generated deserializers
/// parse the whole query again for each parameter, unescaping every key each time: six parameters
/// on the browse list were 5 % of its CPU. Each parameter's decoder is handed only the pairs whose
/// key is that name instead, so it decodes exactly what it decoded from the whole query. A query
/// that is not plainly `key=value&…` (a pair without `=`, an empty pair, a key with `%` or `+`,
/// which unescape to something else) is handed whole to every parameter, errors included.
struct QueryItemsByName {
    private let whole: Substring?
    /// Each key's pairs in their order, joined by `&`; nil when the query is handed whole.
    private let pairs: [Substring: Substring]?

    init(_ query: Substring?) {
        whole = query
        guard let query, !query.isEmpty else { pairs = [:]; return }
        var byKey: [Substring: [Substring]] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: "="), !pair[..<equals].contains(where: { $0 == "%" || $0 == "+" }) else {
                pairs = nil
                return
            }
            byKey[pair[..<equals], default: []].append(pair)
        }
        pairs = byKey.mapValues { $0.count == 1 ? $0[0] : $0.joined(separator: "&")[...] }
    }

    /// The part of the query a deserializer needs for `name`.
    subscript(name: String) -> Substring? {
        guard let pairs else { return whole }
        return pairs[name[...]]
    }
}
