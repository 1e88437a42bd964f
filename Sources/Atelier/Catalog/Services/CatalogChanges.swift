import Foundation
import NIOConcurrencyHelpers

/// The one way a committed catalogue write that can change what lists and searches show is announced
/// (a product, a store, a category, a review's rating): every listener registered at start-up hears it,
/// in order. The composition root registers this instance's caches (search results, public lists,
/// members-only stores) and the cluster bus, which tells the other instances before `announce`
/// returns, so before the writer's response.
final class CatalogChanges: Sendable {
    private let listeners = NIOLockedValueBox<[@Sendable () async -> Void]>([])

    func listen(_ listener: @escaping @Sendable () async -> Void) {
        listeners.withLockedValue { $0.append(listener) }
    }

    func announce() async {
        for listener in listeners.withLockedValue({ $0 }) { await listener() }
    }
}
