import Foundation

extension Array {
    /// The rows read for `ids` (by `WHERE id IN …`, which keeps no order), in the order of `ids`;
    /// ids without a row are left out, an id asked for twice is answered twice.
    func inOrder(of ids: [UUID], id: (Element) -> UUID) -> [Element] {
        let byID = Dictionary(map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }
}
