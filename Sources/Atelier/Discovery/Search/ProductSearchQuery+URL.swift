import Foundation

extension ProductSearchQuery {
    /// The query as URL parameters, named as in `/api/v1/search/products` and the `/search` page.
    var urlQueryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let text { items.append(.init(name: "q", value: text)) }
        items += categoryIDs.map { .init(name: "categoryId", value: $0.idString) }
        items += storeIDs.map { .init(name: "storeId", value: $0.idString) }
        items += brandIDs.map { .init(name: "brandId", value: $0.idString) }
        items += colors.map { .init(name: "color", value: $0) }
        items += sizes.map { .init(name: "size", value: $0) }
        items += genders.map { .init(name: "gender", value: $0) }
        items += (styles ?? []).map { .init(name: "style", value: $0) }
        if let priceMin { items.append(.init(name: "priceMin", value: String(priceMin))) }
        if let priceMax { items.append(.init(name: "priceMax", value: String(priceMax))) }
        if onSale { items.append(.init(name: "onSale", value: "true")) }
        if let near {
            items += [.init(name: "lat", value: String(near.lat)), .init(name: "lng", value: String(near.lng)),
                      .init(name: "radiusKm", value: String(near.radiusKm))]
        }
        if let sort { items.append(.init(name: "sort", value: sort.rawValue)) }
        return items
    }

    /// Percent-encoded, without the leading "?".
    var urlQuery: String {
        var components = URLComponents()
        components.queryItems = urlQueryItems
        return components.percentEncodedQuery ?? ""
    }
}
