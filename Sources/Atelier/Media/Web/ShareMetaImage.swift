import Foundation

extension ShareMeta {
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
}
