import Foundation

/// One ranked page of a product search as kept by `SearchResultCache`: the ids in order with the
/// total and facets. The match set of a common word is tens of thousands of products, and ranking
/// them and counting facets is most of a search's cost (issue 9), while the same popular searches
/// come again and again. The product bodies are still read fresh for every answer, and products no
/// longer visible are left out of it. Likes do not clear the cache: "most liked" order may lag by
/// up to its lifetime (the like counts in the answer are always fresh).
struct RankedSearchPage: Sendable {
    var ids: [UUID]
    var nextCursor: String?
    var total: Int
    var facets: ProductSearch.Facets
}

typealias SearchResultCache = GenerationCache<RankedSearchPage>
