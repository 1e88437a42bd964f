import Foundation
import NIOConcurrencyHelpers

extension MediaVariant {
    /// The variants a media row lists, parsed once per distinct list: every image in every product
    /// answer needs them, and decoding JSON for each was a tenth of a product list's cost (issue 9).
    /// Keyed by the JSON itself, so a changed row never gets an old answer.
    static func parsed(_ json: String) -> [MediaVariant] {
        if let known = parsedLists.withLockedValue({ $0[json] }) { return known }
        let variants = (try? JSONDecoder().decode([MediaVariant].self, from: Data(json.utf8))) ?? []
        parsedLists.withLockedValue { lists in
            if lists.count >= parsedListsCapacity { lists.removeAll(keepingCapacity: true) }
            lists[json] = variants
        }
        return variants
    }

    /// About 2 KB per entry.
    private static let parsedListsCapacity = 4096
    private static let parsedLists = NIOLockedValueBox<[String: [MediaVariant]]>([:])
}
