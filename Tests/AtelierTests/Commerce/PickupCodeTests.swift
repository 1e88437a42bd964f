import Foundation
import Testing

@testable import Atelier

@Suite("Commerce: pickup codes")
struct PickupCodeTests {
    @Test("six characters a person reads aloud without confusion, the same for an order every time, different across orders")
    func codes() {
        let ids = (0..<2_000).map { _ in UUID() }
        let codes = ids.map(PickupCode.of)
        #expect(codes.allSatisfy { $0.count == 6 && $0.allSatisfy { "0123456789ABCDEFGHJKMNPQRSTVWXYZ".contains($0) } })
        #expect(ids.map(PickupCode.of) == codes)
        #expect(Set(codes).count >= 1_995, "2 000 orders, at most a handful share a code (30 bits)")
    }
}
