import AtelierAPI
import Foundation
import Observation

/// Picwear's discover feed: product cards a page at a time (the pages keep the feed's `asOf`, so
/// new products never shift what is being scrolled) and the heart on each card.
@MainActor
@Observable
public final class DiscoverScreen {
    public let feed: PagedListScreen<Components.Schemas.ProductCard>
    public let activity = ScreenActivity()
    private let session: AtelierSession

    public init(session: AtelierSession, query: Operations.GetDiscoverFeed.Input.Query = .init()) {
        self.session = session
        feed = PagedListScreen(session.discovery.getDiscoverFeedItems(query: query))
    }

    /// The heart changes at once; if the server refuses, it goes back and `activity.error` says why.
    public func toggleLike(productID: String) async {
        guard let card = feed.items.first(where: { $0.id == productID }) else { return }
        let (before, wanted) = (card.likeState, card.toggled)
        feed.update(where: { $0.id == productID }) { $0.show(wanted) }
        let answer = await activity.run(exclusive: false) { [session] in
            try await session.discovery.setLiked(productId: productID, wanted.liked)
        }
        feed.update(where: { $0.id == productID }) { $0.show(answer ?? before) }
    }
}
