import Fluent
import Vapor

/// Lookbook boards on the web: the board page (shareable when public, with link-preview tags),
/// creating, pinning, sharing and deleting.
enum BoardWebPages {
    struct BoardOption: Encodable {
        var id: String
        var name: String
    }

    struct BoardCard: Encodable {
        var url: String
        var name: String
        var isPublic: Bool
        var itemCount: Int
        var cover: WebImage?
    }

    struct BoardPage: WebPageContext {
        var page: PageContext
        var board: BoardCard
        var id: String
        var ownerName: String
        var isOwner: Bool
        var shareURL: String
        var products: [PublicCatalogPages.ProductCard]
        var moreURL: String?
    }

    static func register(_ web: any RoutesBuilder) {
        web.get("boards", ":boardID", use: boardPage)
        let signedIn = web.grouped(RequireWebUser())
        signedIn.post("boards", use: create)
        signedIn.post("boards", ":boardID", "visibility", use: setVisibility)
        signedIn.post("boards", ":boardID", "delete", use: delete)
        signedIn.post("products", ":productID", "board", use: pin)
    }

    static func options(for user: User?, req: Request) async throws -> [BoardOption] {
        guard let user else { return [] }
        return try await Board.query(on: req.db).filter(\.$userID == user.requireID()).sort(\.$name).all()
            .map { BoardOption(id: $0.id!.idString, name: $0.name) }
    }

    static func cards(_ summaries: [BoardService.Summary], req: Request) -> [BoardCard] {
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        return summaries.map { summary in
            BoardCard(
                url: "/boards/\(summary.board.id!.idString)", name: summary.board.name, isPublic: summary.board.isPublic,
                itemCount: summary.itemCount, cover: WebImage(summary.cover, alt: summary.board.name, service: media, preferredWidth: 270))
        }
    }

    static func boardPage(_ req: Request) async throws -> View {
        let user = req.webSessionUser
        let service = BoardService(db: req.db, core: req.core)
        let board = try await service.readable(try boardID(req), by: user)
        let summary = try await service.summary(board)
        let page = try await service.items(of: board, page: PageRequest(limit: 24, cursor: req.query[String.self, at: "cursor"]))
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let productCards = try await PublicCatalogPages.productCards(page.items, req: req, media: media)
        let owner = try await User.find(board.userID, on: req.db)
        let id = board.id!.idString
        let shareURL = "\(req.atelier.config.publicBaseURL)/boards/\(id)"
        var context = PageContext(req, title: board.name)
        if board.isPublic {
            context.share = ShareMeta.board(board, itemCount: summary.itemCount, by: owner?.displayName ?? "Someone",
                                            cover: summary.cover, service: media, config: req.atelier.config)
        }
        return try await req.renderPage("discovery/board", BoardPage(
            page: context, board: cards([summary], req: req)[0], id: id, ownerName: owner?.displayName ?? "Someone",
            isOwner: board.userID == user?.id, shareURL: shareURL, products: productCards,
            moreURL: page.nextCursor.map { "/boards/\(id)?cursor=\($0)" }))
    }

    static func create(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        struct Form: Content { var name: String; var isPublic: String?; var productID: String? }
        let form = try req.content.decode(Form.self)
        let service = BoardService(db: req.db, core: req.core)
        let board = try await service.create(name: form.name, isPublic: form.isPublic == "true", by: user)
        if let productID = form.productID.flatMap(UUID.init(uuidString:)) {
            try await service.add(productID, to: board, by: user)
            Flash.set("success", "Pinned to \(board.name).", on: req)
            return req.redirect(to: "/products/\(productID.idString)")
        }
        Flash.set("success", "Board \(board.name) made.", on: req)
        return req.redirect(to: "/boards/\(board.id!.idString)")
    }

    /// Pins the product to the chosen board; "new" asks for a name first.
    static func pin(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        guard let productID = req.parameters.get("productID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("product") }
        let choice = try req.content.get(String.self, at: "board")
        let service = BoardService(db: req.db, core: req.core)
        guard let boardID = UUID(uuidString: choice) else {
            return req.redirect(to: "/lookbook?pin=\(productID.idString)#new-board")
        }
        let board = try await service.owned(boardID, by: user)
        try await service.add(productID, to: board, by: user)
        Flash.set("success", "Pinned to \(board.name).", on: req)
        return req.redirect(to: "/products/\(productID.idString)")
    }

    static func setVisibility(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let service = BoardService(db: req.db, core: req.core)
        let board = try await service.owned(try boardID(req), by: user)
        let isPublic = (try? req.content.get(String.self, at: "isPublic")) == "true"
        _ = try await service.update(board, name: nil, isPublic: isPublic)
        Flash.set("success", isPublic ? "Anyone with the link can see \(board.name) now." : "\(board.name) is private now.", on: req)
        return req.redirect(to: "/boards/\(board.id!.idString)")
    }

    static func delete(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let service = BoardService(db: req.db, core: req.core)
        let board = try await service.owned(try boardID(req), by: user)
        try await service.delete(board)
        Flash.set("success", "Board \(board.name) deleted; its pieces stay in your lookbook.", on: req)
        return req.redirect(to: "/lookbook")
    }

    private static func boardID(_ req: Request) throws -> UUID {
        guard let id = req.parameters.get("boardID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("board") }
        return id
    }
}

extension ShareMeta {
    static func board(_ board: Board, itemCount: Int, by owner: String, cover: Media?, service: MediaService, config: AppConfig) -> ShareMeta {
        ShareMeta(
            type: "website", title: board.name, description: "\(itemCount) \(itemCount == 1 ? "piece" : "pieces") collected by \(owner) on Atelier",
            url: "\(config.publicBaseURL)/boards/\(board.id!.idString)",
            image: image(cover, alt: board.name, service: service, baseURL: config.publicBaseURL),
            appleAppStoreID: config.appLinks.appleAppStoreID)
    }
}
