import Foundation

/// A photo with its variants' URLs already made. Values handed from one domain to another (a
/// person's avatar in a comment, a list, an album) carry this, so whoever draws them needs no
/// media service of its own.
struct LinkedImage: MediaImage {
    var id: UUID?
    var visibility: String
    var width: Int
    var height: Int
    var dominantColor: String
    var placeholder: String
    var variants: [MediaVariant]
    /// One URL per variant, in the same order.
    var urls: [String]

    var links: [(MediaVariant, String)] { Array(zip(variants, urls)) }
}

extension MediaService {
    func linked(_ media: some MediaImage) -> LinkedImage {
        let links = imageURLs(media)
        return LinkedImage(
            id: media.id, visibility: media.visibility, width: media.width, height: media.height,
            dominantColor: media.dominantColor, placeholder: media.placeholder, variants: links.map(\.0), urls: links.map(\.1))
    }
}
