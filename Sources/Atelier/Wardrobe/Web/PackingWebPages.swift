import Fluent
import Vapor

/// Packing lists on the web, and the outfit's mannequin picture.
enum PackingWebPages {
    struct OutfitOption: Encodable { var id: String; var name: String }
    struct ListRow: Encodable { var id: String; var name: String; var dates: String }
    struct IndexPage: WebPageContext {
        var page: PageContext
        var lists: [ListRow]
        var outfits: [OutfitOption]
    }
    struct Row: Encodable { var item: ClosetCard; var packed: Bool }
    struct ListPage: WebPageContext {
        var page: PageContext
        var id: String
        var name: String
        var dates: String
        var rows: [Row]
        var packedCount: Int
    }

    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.get("packing", use: indexPage)
        signedIn.post("packing", use: create)
        signedIn.get("packing", ":listID", use: listPage)
        signedIn.post("packing", ":listID", "items", ":itemID", "toggle", use: toggle)
        signedIn.get("outfits", ":outfitID", "mannequin.png", use: mannequin)
    }

    static func dates(_ list: PackingList) -> String {
        [list.fromDay, list.toDay].compactMap { $0 }.joined(separator: " – ")
    }

    static func indexPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let lists = try await PackingService(db: req.db, core: req.core).lists(of: user.requireID())
        let outfits = try await OutfitService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).list(of: user.requireID(), page: PageRequest(limit: 100, cursor: nil)).items
        return try await req.renderPage("wardrobe/packing", IndexPage(
            page: PageContext(req, title: "Packing lists"),
            lists: lists.map { ListRow(id: $0.id!.idString, name: $0.name, dates: dates($0)) },
            outfits: outfits.map { OutfitOption(id: $0.id!.idString, name: $0.name) }))
    }

    static func create(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        struct Form: Content { var name: String?; var from: String?; var to: String?; var outfitIds: [String]? }
        var made: PackingList?
        let response = try await req.formAction(redirectTo: "/packing") {
            let form = try req.content.decode(Form.self)
            made = try await PackingService(db: req.db, core: req.core).create(
                ownerID: user.requireID(), name: form.name ?? "", from: form.from.flatMap { $0.isEmpty ? nil : $0 }, to: form.to.flatMap { $0.isEmpty ? nil : $0 },
                outfitIDs: (form.outfitIds ?? []).compactMap(UUID.init(uuidString:)), itemIDs: [])
            return "Packing list made."
        }
        return made.map { req.redirect(to: "/packing/\($0.id!.idString)") } ?? response
    }

    static func listPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let list = try await ownList(req, user: user)
        let entries = try await PackingService(db: req.db, core: req.core).entries(of: list)
        let ids = entries.map(\.closetItemID)
        let items = ids.isEmpty ? [] : try await ClosetItem.query(on: req.db).filter(\.$id ~~ ids).all()
        let cards = Dictionary(uniqueKeysWithValues: try await ClosetCard.cards(items, req: req).map { ($0.id, $0) })
        let rows = entries.compactMap { entry in cards[entry.closetItemID.idString].map { Row(item: $0, packed: entry.packed) } }
        return try await req.renderPage("wardrobe/packing-list", ListPage(
            page: PageContext(req, title: list.name), id: list.id!.idString, name: list.name, dates: dates(list), rows: rows,
            packedCount: rows.filter(\.packed).count))
    }

    static func toggle(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let list = try await ownList(req, user: user)
        return try await req.formAction(redirectTo: "/packing/\(list.id!.idString)") {
            guard let itemID = req.parameters.get("itemID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("packing list item") }
            let service = PackingService(db: req.db, core: req.core)
            let packed = try await service.entries(of: list).first { $0.closetItemID == itemID }?.packed ?? false
            try await service.setPacked(list, itemID: itemID, !packed)
            return nil
        }
    }

    static func mannequin(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let outfit = try await OutfitWebPages.ownOutfit(req, user: user)
        let pieces = try await OutfitPieces(db: req.db).pieces(of: outfit.requireID())
        let png = try await TryOn(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
            .render(ownerID: user.requireID(), closetItemIDs: pieces.compactMap(\.closetItemID), productIDs: pieces.compactMap(\.productID))
        var headers = HTTPHeaders()
        headers.contentType = .png
        headers.replaceOrAdd(name: .cacheControl, value: "private, no-store")
        return Response(status: .ok, headers: headers, body: .init(data: png))
    }

    static func ownList(_ req: Request, user: User) async throws -> PackingList {
        guard let id = req.parameters.get("listID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("packing list") }
        return try await PackingService(db: req.db, core: req.core).own(id, of: user.requireID())
    }
}
