import AtelierServerAPI
import Foundation

// Product pages and card lists written by `JSONBytes` (issue 19). Each type writes every property
// of its generated struct, keys in byte order as `.sortedKeys` sorts them. `ProductJSONBytesTests`
// fills every optional property and compares the bytes with `JSONEncoder`'s, so a property added
// to the contract and not written here fails there.

extension Components.Schemas.Money: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("amount", amount)
            try $0.field("currency", currency)
        }
    }
}

extension Components.Schemas.Rating: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("average", average)
            try $0.field("count", count)
        }
    }
}

extension Components.Schemas.ImageVariant.FormatPayload: JSONBytesEncodable {}

extension Components.Schemas.ImageVariant: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("format", format)
            try $0.field("height", height)
            try $0.field("url", url)
            try $0.field("width", width)
        }
    }
}

extension Components.Schemas.Image: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("dominantColor", dominantColor)
            try $0.field("height", height)
            try $0.field("id", id)
            try $0.field("placeholder", placeholder)
            try $0.field("variants", variants)
            try $0.field("width", width)
        }
    }
}

extension Components.Schemas.StoreSummary: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("city", city)
            try $0.field("id", id)
            try $0.field("logo", logo)
            try $0.field("name", name)
            try $0.field("slug", slug)
        }
    }
}

extension Components.Schemas.Brand.StatusPayload: JSONBytesEncodable {}

extension Components.Schemas.Brand: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("followerCount", followerCount)
            try $0.field("id", id)
            try $0.field("logo", logo)
            try $0.field("name", name)
            try $0.field("slug", slug)
            try $0.field("status", status)
            try $0.field("viewer", viewer)
        }
    }
}

extension Components.Schemas.FollowViewerState: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object { try $0.field("following", following) }
    }
}

extension Components.Schemas.CategoryRef.GenderPayload: JSONBytesEncodable {}

extension Components.Schemas.CategoryRef: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("gender", gender)
            try $0.field("id", id)
            try $0.field("name", name)
            try $0.field("trail", trail)
        }
    }
}

extension Components.Schemas.ProductVariant: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("available", available)
            try $0.field("color", color)
            try $0.field("id", id)
            try $0.field("size", size)
            try $0.field("sku", sku)
            try $0.field("stock", stock)
        }
    }
}

extension Components.Schemas.Product.GenderPayload: JSONBytesEncodable {}
extension Components.Schemas.Product.StatusPayload: JSONBytesEncodable {}

extension Components.Schemas.Product: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("brand", brand)
            try $0.field("caseSize", caseSize)
            try $0.field("category", category)
            try $0.field("colorName", colorName)
            try $0.field("colors", colors)
            try $0.field("createdAt", createdAt)
            try $0.field("description", description)
            try $0.field("externalUrl", externalUrl)
            try $0.field("fabric", fabric)
            try $0.field("gender", gender)
            try $0.field("id", id)
            try $0.field("likeCount", likeCount)
            try $0.field("minAge", minAge)
            try $0.field("originalPrice", originalPrice)
            try $0.field("photos", photos)
            try $0.field("price", price)
            try $0.field("rating", rating)
            try $0.field("status", status)
            try $0.field("store", store)
            try $0.field("styles", styles)
            try $0.field("title", title)
            try $0.field("tradePrice", tradePrice)
            try $0.field("updatedAt", updatedAt)
            try $0.field("variants", variants)
            try $0.field("viewer", viewer)
            try $0.field("webUrl", webUrl)
        }
    }
}

extension Components.Schemas.ProductViewerState: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("boardIds", boardIds)
            try $0.field("cartQuantity", cartQuantity)
            try $0.field("liked", liked)
        }
    }
}

extension Components.Schemas.CardStore: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("city", city)
            try $0.field("distanceMeters", distanceMeters)
            try $0.field("id", id)
            try $0.field("name", name)
            try $0.field("slug", slug)
        }
    }
}

extension Components.Schemas.CardPhoto: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("dominantColor", dominantColor)
            try $0.field("height", height)
            try $0.field("id", id)
            try $0.field("src", src)
            try $0.field("srcset", srcset)
            try $0.field("width", width)
        }
    }
}

extension Components.Schemas.ProductCard.GenderPayload: JSONBytesEncodable {}

extension Components.Schemas.ProductCard: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("caseSize", caseSize)
            try $0.field("createdAt", createdAt)
            try $0.field("gender", gender)
            try $0.field("id", id)
            try $0.field("likeCount", likeCount)
            try $0.field("originalPrice", originalPrice)
            try $0.field("photo", photo)
            try $0.field("price", price)
            try $0.field("rating", rating)
            try $0.field("store", store)
            try $0.field("title", title)
            try $0.field("tradePrice", tradePrice)
            try $0.field("viewer", viewer)
            try $0.field("webUrl", webUrl)
        }
    }
}

extension Components.Schemas.ProductCardPage: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws {
        try json.object {
            try $0.field("items", items)
            try $0.field("nextCursor", nextCursor)
        }
    }
}
