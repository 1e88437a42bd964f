import Fluent
import Foundation
import SQLKit

/// Lookbook boards (discovery.md): named collections of products, private or public. A public
/// board is readable by anyone with its link; a private one only by its owner (404 to others).
struct BoardService {
    static let nameLength = 1...60
    static let maxPerUser = 100

    struct Summary: Sendable {
        var board: Board
        var itemCount: Int
        /// The first photo of the most recently pinned product still on sale.
        var cover: Media?
    }

    let db: any Database
    let core: CoreServices

    private var now: Date { core.clock.now() }

    func boards(of userID: UUID, publicOnly: Bool = false) async throws -> [Summary] {
        var query = Board.query(on: db).filter(\.$userID == userID)
        if publicOnly { query = query.filter(\.$isPublic == true) }
        return try await summaries(query.sort(\.$id, .descending).all())
    }

    func summary(_ board: Board) async throws -> Summary {
        try await summaries([board])[0]
    }

    func create(name rawName: String, isPublic: Bool, by user: User) async throws -> Board {
        let userID = try user.requireID()
        let name = try Self.validName(rawName)
        let mine = try await Board.query(on: db).filter(\.$userID == userID).all()
        try Self.requireFree(name, among: mine, except: nil)
        if mine.count >= Self.maxPerUser { throw Problem.conflict("You can keep at most \(Self.maxPerUser) boards.") }
        let board = Board()
        board.id = .v7(at: now)
        board.userID = userID
        board.name = name
        board.isPublic = isPublic
        board.createdAt = now
        board.updatedAt = now
        try await save(board)
        return board
    }

    func update(_ board: Board, name rawName: String?, isPublic: Bool?) async throws -> Board {
        if let rawName {
            let name = try Self.validName(rawName)
            try Self.requireFree(name, among: try await Board.query(on: db).filter(\.$userID == board.userID).all(), except: board.id)
            board.name = name
        }
        if let isPublic { board.isPublic = isPublic }
        board.updatedAt = now
        try await save(board)
        return board
    }

    func delete(_ board: Board) async throws {
        try await board.delete(on: db)
    }

    /// The board if `user` may read it: its owner always, anyone when it is public.
    /// A public board, or the caller's own; a board of someone who blocked the caller is a 404.
    func readable(_ id: UUID, by user: User?) async throws -> Board {
        guard let board = try await Board.find(id, on: db), board.isPublic || board.userID == user?.id else {
            throw Problem.notFound("board")
        }
        if let viewerID = user?.id, viewerID != board.userID, try await SocialGraph(db: db).hasBlocked(board.userID, viewerID) {
            throw Problem.notFound("board")
        }
        return board
    }

    /// The board if `user` owns it; others get the same 404 as for a board that does not exist.
    func owned(_ id: UUID, by user: User) async throws -> Board {
        guard let board = try await Board.find(id, on: db), board.userID == user.id else { throw Problem.notFound("board") }
        return board
    }

    /// Pins a product (a no-op when it is there). The product must be one the owner can see.
    func add(_ productID: UUID, to board: Board, by user: User) async throws {
        let product = try await ProductCatalog(db: db).visibleProduct(productID, to: user)
        try await db.sql.raw("""
            INSERT INTO \(ident: BoardItem.schema) (id, board_id, product_id, created_at)
            VALUES (\(bind: UUID.v7(at: now)), \(bind: try board.requireID()), \(bind: try product.requireID()), \(bind: now))
            ON CONFLICT (board_id, product_id) DO NOTHING
            """).run()
    }

    func remove(_ productID: UUID, from board: Board) async throws {
        try await BoardItem.query(on: db).filter(\.$boardID == board.requireID()).filter(\.$product.$id == productID).delete()
    }

    /// The board's products still on sale, most recently pinned first.
    func items(of board: Board, page: PageRequest) async throws -> Page<Product> {
        let rows = try await BoardItem.query(on: db).filter(\.$boardID == board.requireID())
            .joiningVisibleProducts(\.$product.$id).newestFirst(page).all()
        let items = try rows.map { ($0, try $0.joined(Product.self)) }
        return Page(fetched: items, limit: page.limit) { PageCursor(id: $0.0.id!) }.map(\.1)
    }

    private func summaries(_ boards: [Board]) async throws -> [Summary] {
        var counted: [(board: Board, count: Int, latest: Product?)] = []
        for board in boards {
            let latest = try BoardItem.query(on: db).filter(\.$boardID == board.requireID())
                .joiningVisibleProducts(\.$product.$id).sort(\.$id, .descending)
            let count = try await latest.copy().count()
            counted.append((board, count, try await latest.first().map { try $0.joined(Product.self) }))
        }
        // The covers of all boards in two queries: each latest product's first photo, then its media row.
        let productIDs = counted.compactMap { $0.latest?.id }
        let photos = try await ProductPhoto.query(on: db).filter(\.$product.$id ~~ productIDs).filter(\.$position == 0).all()
        let media = try await Media.query(on: db).filter(\.$id ~~ photos.map { $0.$media.id }).all()
        return counted.map { entry in
            let photo = entry.latest.flatMap { product in photos.first { $0.$product.id == product.id } }
            return Summary(board: entry.board, itemCount: entry.count, cover: photo.flatMap { photo in media.first { $0.id == photo.$media.id } })
        }
    }

    private func save(_ board: Board) async throws {
        do {
            try await board.save(on: db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw Problem.conflict("You already have a board called \(board.name).", field: "name")
        }
    }

    private static func validName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard nameLength.contains(name.count) else { throw Problem.invalid("name", "must be 1 to \(nameLength.upperBound) characters") }
        return name
    }

    private static func requireFree(_ name: String, among boards: [Board], except id: UUID?) throws {
        if boards.contains(where: { $0.id != id && $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
            throw Problem.conflict("You already have a board called \(name).", field: "name")
        }
    }
}
