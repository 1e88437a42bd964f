import AtelierServerAPI
import Foundation

/// A product as lists show it (issue 19): a list page of full products was 72 KB, mostly every
/// photo's ten URLs, sizes, brand and category; a card carries the first photo (one JPEG and a
/// WebP `srcset`), price, store and distance, and `GET /products/{id}` the rest.
extension Components.Schemas.ProductCard {
    /// A point the list is about; each card then says how far its store is.
    struct Origin {
        var lat: Double
        var lng: Double
    }

    init(_ card: ProductCardView, media: MediaService, baseURL: String, from origin: Origin?) {
        let store = card.store
        let distance = origin.map { Int((Geo.distanceKm(lat1: $0.lat, lng1: $0.lng, lat2: store.lat, lng2: store.lng) * 1000).rounded()) }
        let id = card.id.idString
        self.init(
            id: id,
            store: .init(id: store.id.idString, name: store.name, slug: store.slug, city: store.city, distanceMeters: distance),
            title: card.title, gender: .init(rawValue: card.gender) ?? .unisex,
            price: .init(amount: Int64(card.priceMinor), currency: card.currency),
            originalPrice: card.originalPriceMinor.map { .init(amount: Int64($0), currency: card.currency) },
            photo: card.photo.flatMap { Components.Schemas.CardPhoto($0, service: media) },
            rating: card.reviewCount > 0 ? .init(average: Double(card.ratingSum) / Double(card.reviewCount), count: card.reviewCount) : nil,
            likeCount: card.likeCount, webUrl: "\(baseURL)/products/\(id)", createdAt: card.createdAt)
    }
}

extension Components.Schemas.CardPhoto {
    /// The width `src` aims at: a card is about half a phone screen wide, at 2× or 3× density.
    static let cardWidth = 540

    /// nil for a photo without variants (nothing to show).
    init?(_ media: some MediaImage, service: MediaService) {
        let variants = media.variants
        let jpegs = variants.filter { $0.format == "jpeg" }.sorted { $0.width < $1.width }
        let webps = variants.filter { $0.format == "webp" }.sorted { $0.width < $1.width }
        guard let src = jpegs.first(where: { $0.width >= Self.cardWidth }) ?? jpegs.last ?? variants.last else { return nil }
        // URLs for what the card shows only (every card of every list and feed comes here).
        let shown = webps.isEmpty ? jpegs : webps
        let urls = service.imageURLs(media, of: [src] + shown)
        self.init(
            id: media.id!.idString, width: media.width, height: media.height, dominantColor: media.dominantColor,
            src: urls[0], srcset: zip(shown, urls.dropFirst()).map { "\($1) \($0.width)w" }.joined(separator: ", "))
    }
}
