import Foundation

/// Link previews of a product and of a store.
extension ShareMeta {
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
}
