import Foundation

/// What a shared link shows before anyone opens it (discovery.md): Open Graph and Twitter card
/// tags, and Apple's smart app banner, drawn into the page head by `core/layout`.
struct ShareMeta: Encodable, Sendable {
    struct Image: Encodable, Sendable {
        var url: String
        var width: Int
        var height: Int
        var alt: String
    }

    var type: String
    var title: String
    var description: String?
    var url: String
    var image: Image?
    /// Product pages: the price as a plain decimal ("499.00") with its ISO 4217 code.
    var priceAmount: String?
    var priceCurrency: String?
    /// The App Store id for the smart app banner, when the app is configured.
    var appleAppStoreID: String?

    /// The JPEG variant a link preview shows: the one nearest 1 080 px wide among those at least
    /// 600 px wide (previews are drawn large; smaller ones look blurred), else the widest there is.
    static func image(_ media: (some MediaImage)?, alt: String, service: MediaService, baseURL: String) -> Image? {
        guard let media else { return nil }
        let jpegs = service.imageURLs(media).filter { $0.0.format != "webp" }
        let wideEnough = jpegs.filter { $0.0.width >= 600 }
        let nearest = wideEnough.min { abs($0.0.width - 1080) < abs($1.0.width - 1080) }
        guard let (variant, url) = nearest ?? jpegs.max(by: { $0.0.width < $1.0.width }) else { return nil }
        return Image(url: url.hasPrefix("/") ? baseURL + url : url, width: variant.width, height: variant.height, alt: alt)
    }

    static func product(_ view: ProductView, service: MediaService, config: AppConfig) -> ShareMeta {
        let product = view.product
        let url = "\(config.publicBaseURL)/products/\(product.id.idString)"
        let summary = [view.brand?.name, "at \(view.store.name), \(view.store.city)"].compactMap { $0 }.joined(separator: " ")
        return ShareMeta(
            type: "product", title: product.title,
            description: Self.excerpt(product.description.isEmpty ? summary : "\(summary). \(product.description)"),
            url: url, image: image(view.photos.first, alt: product.title, service: service, baseURL: config.publicBaseURL),
            priceAmount: MoneyText.plain(product.priceMinor, product.currency), priceCurrency: product.currency,
            appleAppStoreID: config.appLinks.appleAppStoreID)
    }

    static func store(_ store: Store, cover: Media?, service: MediaService, config: AppConfig) -> ShareMeta {
        let about = store.about.isEmpty ? "\(store.street), \(store.city)" : store.about
        return ShareMeta(
            type: "website", title: store.name, description: Self.excerpt(about), url: "\(config.publicBaseURL)/stores/\(store.slug)",
            image: image(cover, alt: store.name, service: service, baseURL: config.publicBaseURL),
            appleAppStoreID: config.appLinks.appleAppStoreID)
    }

    /// Previews cut descriptions at about 200 characters; cut at a word.
    static func excerpt(_ text: String, limit: Int = 200) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard flat.count > limit else { return flat }
        let cut = flat.prefix(limit)
        return (cut.lastIndex(of: " ").map { String(cut[..<$0]) } ?? String(cut)) + "…"
    }
}
