import AtelierAPI
import Foundation
import Observation

/// OOTD's closet: the person's clothes a page at a time, narrowed by a filter (type, colour,
/// season, favourites, words), with the star and "worn today" on each.
@MainActor
@Observable
public final class ClosetScreen {
    public private(set) var filter: Operations.ListClosetItems.Input.Query
    public private(set) var items: PagedListScreen<Components.Schemas.ClosetItem>
    public let activity = ScreenActivity()
    private let session: AtelierSession

    public init(session: AtelierSession, filter: Operations.ListClosetItems.Input.Query = .init(limit: 40)) {
        self.session = session
        self.filter = filter
        items = PagedListScreen(session.wardrobe.listClosetItemsItems(query: filter))
    }

    /// Shows the closet through another filter, from its first page.
    public func show(_ filter: Operations.ListClosetItems.Input.Query) async {
        self.filter = filter
        items = PagedListScreen(session.wardrobe.listClosetItemsItems(query: filter))
        await items.loadMore()
    }

    public func load() async {
        await items.reload()
    }

    public func setFavourite(itemID: String, _ favourite: Bool) async {
        await change(itemID) { session in
            try await session.wardrobe.updateClosetItem(itemId: itemID, .init(favourite: favourite))
        }
        // Under "favourites only", an item that lost its star leaves the list.
        if filter.favourite == true, !favourite, activity.error == nil { items.remove { $0.id == itemID } }
    }

    /// Logs the item worn on a day (`yyyy-MM-dd`; today in the person's time zone when nil), once
    /// however often it is tapped.
    public func worn(itemID: String, on date: String? = nil) async {
        await change(itemID) { session in try await session.wardrobe.logClosetWear(itemId: itemID, query: .init(date: date)) }
    }

    private func change(_ itemID: String, _ call: @escaping @Sendable (AtelierSession) async throws -> Components.Schemas.ClosetItem) async {
        guard let item = await activity.run(exclusive: false, { [session] in try await call(session) }) else { return }
        items.update(where: { $0.id == itemID }) { $0 = item }
    }
}
