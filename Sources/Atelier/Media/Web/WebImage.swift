import Foundation

/// An image as templates draw it: `srcset`s from the variants (JPEG and WebP), the intrinsic
/// size for a stable layout, and the tiny placeholder shown while the photo loads.
struct WebImage: Encodable, Sendable {
    var src: String
    var srcset: String
    var webpSrcset: String
    var width: Int
    var height: Int
    var placeholder: String
    var alt: String
    /// The picture that is the page's largest paint (a product's first photo): loaded at once, first.
    var eager = false

    init?(_ media: (some MediaImage)?, alt: String, service: MediaService, preferredWidth: Int = 540) {
        guard let media else { return nil }
        self.init(media, links: service.imageURLs(media), alt: alt, preferredWidth: preferredWidth)
    }

    init?(_ image: LinkedImage?, alt: String, preferredWidth: Int = 540) {
        guard let image else { return nil }
        self.init(image, links: image.links, alt: alt, preferredWidth: preferredWidth)
    }

    private init?(_ media: some MediaImage, links variants: [(MediaVariant, String)], alt: String, preferredWidth: Int) {
        let jpegs = variants.filter { $0.0.format != "webp" }
        let webps = variants.filter { $0.0.format == "webp" }
        guard let fallback = jpegs.first(where: { $0.0.width >= preferredWidth }) ?? jpegs.last else { return nil }
        src = fallback.1
        srcset = jpegs.map { "\($0.1) \($0.0.width)w" }.joined(separator: ", ")
        webpSrcset = webps.map { "\($0.1) \($0.0.width)w" }.joined(separator: ", ")
        width = media.width
        height = media.height
        placeholder = media.placeholder
        self.alt = alt
    }
}
