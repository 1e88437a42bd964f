import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// Lookbook boards.
extension APIHandler {
    func listMyBoards(_ input: Operations.ListMyBoards.Input) async throws -> Operations.ListMyBoards.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let boards = try await BoardService(db: req.db, core: services.core).boards(of: user.requireID())
        return .ok(.init(body: .json(.init(items: try await boardBodies(boards, req)))))
    }

    func createBoard(_ input: Operations.CreateBoard.Input) async throws -> Operations.CreateBoard.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let service = BoardService(db: req.db, core: services.core)
        let board = try await service.create(name: body.name, isPublic: body.isPublic ?? false, by: user)
        return .created(.init(body: .json(try await boardBodies([service.summary(board)], req)[0])))
    }

    func getBoard(_ input: Operations.GetBoard.Input) async throws -> Operations.GetBoard.Output {
        let req = try request()
        let caller = try await req.optionalCaller()
        let service = BoardService(db: req.db, core: services.core)
        let board = try await service.readable(try PathID.parse(input.path.boardId, "board"), by: caller?.user)
        return .ok(.init(body: .json(try await boardBodies([service.summary(board)], req)[0])))
    }

    func updateBoard(_ input: Operations.UpdateBoard.Input) async throws -> Operations.UpdateBoard.Output {
        let (req, service, board) = try await ownedBoard(input.path.boardId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let updated = try await service.update(board, name: body.name, isPublic: body.isPublic)
        return .ok(.init(body: .json(try await boardBodies([service.summary(updated)], req)[0])))
    }

    func deleteBoard(_ input: Operations.DeleteBoard.Input) async throws -> Operations.DeleteBoard.Output {
        let (_, service, board) = try await ownedBoard(input.path.boardId)
        try await service.delete(board)
        return .noContent(.init())
    }

    func listBoardItems(_ input: Operations.ListBoardItems.Input) async throws -> Operations.ListBoardItems.Output {
        let req = try request()
        let caller = try await req.optionalCaller()
        let service = BoardService(db: req.db, core: services.core)
        let board = try await service.readable(try PathID.parse(input.path.boardId, "board"), by: caller?.user)
        let page = try await service.items(of: board, page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(.init(items: try await productCards(page.items, req), nextCursor: page.nextCursor))))
    }

    func addBoardItem(_ input: Operations.AddBoardItem.Input) async throws -> Operations.AddBoardItem.Output {
        let (req, service, board) = try await ownedBoard(input.path.boardId)
        let user = try await req.requireCaller().user
        try await service.add(try PathID.parse(input.path.productId, "product"), to: board, by: user)
        return .noContent(.init())
    }

    func removeBoardItem(_ input: Operations.RemoveBoardItem.Input) async throws -> Operations.RemoveBoardItem.Output {
        let (_, service, board) = try await ownedBoard(input.path.boardId)
        try await service.remove(try PathID.parse(input.path.productId, "product"), from: board)
        return .noContent(.init())
    }

    private func ownedBoard(_ rawID: String) async throws -> (Request, BoardService, Board) {
        let req = try request()
        let user = try await req.requireCaller().user
        let service = BoardService(db: req.db, core: services.core)
        return (req, service, try await service.owned(try PathID.parse(rawID, "board"), by: user))
    }

    /// Boards with their cover (the first photo of the most recently pinned product) and, for a
    /// signed-in caller, whether each is theirs.
    private func boardBodies(_ summaries: [BoardService.Summary], _ req: Request) async throws -> [Components.Schemas.Board] {
        let mediaService = MediaService(db: req.db, core: services.core, mediaLibrary: services.media)
        let callerID = try await req.optionalCaller()?.user.id
        return summaries.map { summary in
            .init(
                id: summary.board.id!.idString, name: summary.board.name, isPublic: summary.board.isPublic, itemCount: summary.itemCount,
                cover: summary.cover.map { .init($0, service: mediaService) },
                webUrl: "\(services.config.publicBaseURL)/boards/\(summary.board.id!.idString)",
                createdAt: summary.board.createdAt,
                viewer: callerID.map { .init(owner: summary.board.userID == $0) })
        }
    }
}
