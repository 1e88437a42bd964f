import Foundation

/// What drawing a photo takes: the image columns of a media row. `Media` (the model) has them, and
/// so does `MediaLine`, the plain row a card reads (issue 19): a Fluent model per card cost more
/// to fill and free than the card's own JSON.
protocol MediaImage: Sendable {
    var id: UUID? { get }
    var visibility: String { get }
    var width: Int { get }
    var height: Int { get }
    var dominantColor: String { get }
    var placeholder: String { get }
    var variants: [MediaVariant] { get }
}

extension Media: MediaImage {}

/// A photo as a card shows it, read without a model (`ProductCardReader`).
struct MediaLine: MediaImage {
    var id: UUID?
    var visibility: String
    var width: Int
    var height: Int
    var dominantColor: String
    var placeholder: String
    /// JSON list of `MediaVariant`, as stored.
    var variantsJSON: String

    var variants: [MediaVariant] { MediaVariant.parsed(variantsJSON) }

    /// The columns `init(_:prefix:)` reads from media `m`, named `prefix` + column.
    static func columns(prefix: String) -> String {
        ["id", "visibility", "width", "height", "dominant_color", "placeholder", "variants"]
            .map { "m.\($0) AS \(prefix)\($0)" }.joined(separator: ", ")
    }

    init(_ row: FastColumns, prefix: String) throws {
        id = try row.uuid(prefix + "id")
        visibility = try row.value(prefix + "visibility", as: String.self)
        width = try row.value(prefix + "width", as: Int.self)
        height = try row.value(prefix + "height", as: Int.self)
        dominantColor = try row.value(prefix + "dominant_color", as: String.self)
        placeholder = try row.value(prefix + "placeholder", as: String.self)
        variantsJSON = try row.value(prefix + "variants", as: String.self)
    }
}
