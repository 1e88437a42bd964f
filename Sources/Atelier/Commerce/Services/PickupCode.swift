import Crypto
import Foundation

/// The code a shopper shows at the counter for a pickup or reservation, and staff read on the
/// order in their queue: six characters from Crockford's alphabet (no I, L, O or U to misread),
/// made from the order's id, so it needs no storage and reads the same offline from a saved page.
/// It is a reference for matching, not a secret: the order page shows it to whoever may see the order.
enum PickupCode {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    static func of(_ orderID: UUID) -> String {
        let digest = SHA256.hash(data: Data(orderID.uuidString.lowercased().utf8))
        var bits = digest.prefix(4).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var code = ""
        for _ in 0..<6 {
            code.append(alphabet[Int(bits & 31)])
            bits >>= 5
        }
        return code
    }

    /// Orders collected in the shop have one; delivered ones do not.
    static func of(_ order: Order) -> String? {
        guard let id = order.id, order.fulfilment != "delivery" else { return nil }
        return of(id)
    }
}
