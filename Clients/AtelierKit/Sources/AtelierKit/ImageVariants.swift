import AtelierAPI
import Foundation

extension Components.Schemas.Image {
    /// The variant to load into a view `points` wide on a screen of `scale` pixels per point: the
    /// smallest in `format` at least that many pixels wide, else the widest there is. WebP is
    /// smaller; JPEG is what every decoder reads.
    public func variant(fittingPoints points: Double, scale: Double, format: Components.Schemas.ImageVariant.FormatPayload = .webp) -> Components.Schemas.ImageVariant? {
        let pixels = Int((points * scale).rounded(.up))
        let candidates = variants.filter { $0.format == format }.sorted { $0.width < $1.width }
        let pool = candidates.isEmpty ? variants.sorted { $0.width < $1.width } : candidates
        return pool.first { $0.width >= pixels } ?? pool.last
    }

    /// The URL of `variant(fittingPoints:scale:format:)`.
    public func url(fittingPoints points: Double, scale: Double, format: Components.Schemas.ImageVariant.FormatPayload = .webp) -> URL? {
        variant(fittingPoints: points, scale: scale, format: format).flatMap { URL(string: $0.url) }
    }
}
