import Fluent
import Vapor

/// The signed-in home page (web.md, Home): today first — the outfit of the day and the outfit
/// planned for today — then invitations and the moments coming up, then the following feed.
/// Each part links to its own page; this one only gathers what matters this morning.
enum MemberHome {
    static let feedSize = 12
    static let momentCount = 4

    struct Today: Encodable {
        var postedOOTD: Bool
        /// Friends' outfits of today that show once the person posts theirs.
        var friendsWaiting: Int
        var plannedOutfit: PlannedOutfit?
    }

    struct PlannedOutfit: Encodable {
        var name: String
        var url: String
        var note: String?
        var worn: Bool
    }

    struct Context: WebPageContext {
        var page: PageContext
        var today: Today
        var invitations: [MomentCard]
        var upcoming: [MomentCard]
        var products: [PublicCatalogPages.ProductCard]
        var moreFeed: Bool
        var filtersNote: String
    }

    static func render(_ req: Request, user: User) async throws -> View {
        let userID = try user.requireID()
        let visibility = try await req.storeVisibility(for: user)
        let (filters, feed) = try await req.reading { db in
            let filters = try await FeedFilters.resolve(
                .following, for: user, overriding: .init(preferences: nil), preferences: req.atelier.shoppingPreferences, db: db)
            return (filters, try await FeedService(db: db, core: req.core)
                .page(.following, for: user, filters: filters, asOf: nil, cursor: nil, limit: feedSize, visibility: visibility))
        }
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let ootd = try await PostFeed(db: req.db, core: req.core).friends(of: user, page: PageRequest(limit: 1, cursor: nil))
        let lists = MomentLists(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let invited = try await lists.openInvitations(userID, limit: momentCount)
        let upcoming = try await lists.upcoming(userID, limit: momentCount)
        let cards = try await MomentWebPages.cards(invited + upcoming, viewer: user, req: req)
        return try await req.renderPage("discovery/home-member", Context(
            page: PageContext(req, title: "Home"),
            today: Today(postedOOTD: ootd.postedToday, friendsWaiting: ootd.hiddenToday,
                         plannedOutfit: try await plannedOutfit(of: userID, on: ootd.today, req: req)),
            invitations: invited.compactMap { cards[$0.id!] }, upcoming: upcoming.compactMap { cards[$0.id!] },
            products: PublicCatalogPages.productCards(cards: feed.items, media: media), moreFeed: feed.nextCursor != nil,
            filtersNote: DiscoveryWebRoutes.describe(filters)))
    }

    /// The first outfit planned for the person's today, if any.
    private static func plannedOutfit(of userID: UUID, on day: LocalDay, req: Request) async throws -> PlannedOutfit? {
        guard let plan = try await OutfitPlan.query(on: req.db).filter(\.$ownerID == userID).filter(\.$day == day.description)
            .sort(\.$id).first(),
            let outfit = try await Outfit.query(on: req.db).filter(\.$id == plan.outfitID).filter(\.$ownerID == userID).first()
        else { return nil }
        return PlannedOutfit(name: outfit.name, url: "/outfits/\(plan.outfitID.idString)", note: plan.note.isEmpty ? nil : plan.note,
                             worn: plan.wornAt != nil)
    }
}
