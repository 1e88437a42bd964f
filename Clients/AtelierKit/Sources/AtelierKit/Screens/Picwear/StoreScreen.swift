import AtelierAPI
import Foundation
import Observation

/// A store's page in Picwear: the store, following it, and what hangs in it a page at a time.
@MainActor
@Observable
public final class StoreScreen {
    public let storeID: String
    public private(set) var store: Components.Schemas.Store?
    public let products: PagedListScreen<Components.Schemas.Product>
    public let activity = ScreenActivity()
    private let session: AtelierSession

    public init(session: AtelierSession, storeID: String, pageSize: Int = 20) {
        self.session = session
        self.storeID = storeID
        products = PagedListScreen(session.catalog.listStoreProductsItems(storeId: storeID, query: .init(limit: pageSize)))
    }

    /// The store and its first page of products.
    public func load() async {
        if let store = await activity.run({ [session, storeID] in try await session.catalog.getStore(storeId: storeID) }) {
            self.store = store
        }
        if products.items.isEmpty { await products.loadMore() }
    }

    public var isFollowing: Bool { store?.viewer?.following ?? false }

    /// Follows or unfollows at once; the server's count when it answers, the old state if it refuses.
    public func toggleFollow() async {
        guard let before = store else { return }
        let wanted = !isFollowing
        store?.viewer = .init(following: wanted)
        store?.followerCount = max(0, before.followerCount + (wanted ? 1 : -1))
        let answer = await activity.run(exclusive: false) { [session, storeID] in
            try await session.discovery.setFollowing(storeId: storeID, wanted)
        }
        if let answer {
            store?.viewer = .init(following: answer.following)
            store?.followerCount = answer.followerCount
        } else {
            store?.viewer = before.viewer
            store?.followerCount = before.followerCount
        }
    }
}
