import AtelierServerAPI
import Foundation
import Vapor

/// `/friends…` and `/me/blocks…`: requests, friendships and blocks.
extension APIHandler {
    func listFriends(_ input: Operations.ListFriends.Input) async throws -> Operations.ListFriends.Output {
        let (req, user) = try await socialCaller()
        let ids = try await FriendService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media)
            .friends(of: user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(try await userPage(ids, viewer: user, req))))
    }

    func removeFriend(_ input: Operations.RemoveFriend.Input) async throws -> Operations.RemoveFriend.Output {
        let (req, user) = try await socialCaller()
        try await FriendService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).remove(try PathID.parse(input.path.userId, "friend"), of: user.requireID())
        return .noContent(.init())
    }

    func sendFriendRequest(_ input: Operations.SendFriendRequest.Input) async throws -> Operations.SendFriendRequest.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        guard let otherID = UUID(uuidString: body.userId) else { throw Problem.invalid("userId", "is not an id") }
        let outcome = try await FriendService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).sendRequest(from: user, to: otherID)
        guard let person = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).person(otherID, viewer: user.requireID()) else {
            throw Problem.notFound("user")
        }
        return .created(.init(body: .json(.init(state: outcome == .friends ? .friends : .requested, user: .init(person)))))
    }

    func listIncomingFriendRequests(_ input: Operations.ListIncomingFriendRequests.Input) async throws -> Operations.ListIncomingFriendRequests.Output {
        let (req, user) = try await socialCaller()
        let page = try await FriendService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media)
            .incoming(to: user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(try await requestPage(page, other: \.fromID, viewer: user, req))))
    }

    func listOutgoingFriendRequests(_ input: Operations.ListOutgoingFriendRequests.Input) async throws -> Operations.ListOutgoingFriendRequests.Output {
        let (req, user) = try await socialCaller()
        let page = try await FriendService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media)
            .outgoing(from: user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(try await requestPage(page, other: \.toID, viewer: user, req))))
    }

    func cancelFriendRequest(_ input: Operations.CancelFriendRequest.Input) async throws -> Operations.CancelFriendRequest.Output {
        let (req, user) = try await socialCaller()
        try await FriendService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media)
            .cancelRequest(from: user.requireID(), to: try PathID.parse(input.path.userId, "friend request"))
        return .noContent(.init())
    }

    func acceptFriendRequest(_ input: Operations.AcceptFriendRequest.Input) async throws -> Operations.AcceptFriendRequest.Output {
        let (req, user) = try await socialCaller()
        let senderID = try PathID.parse(input.path.userId, "friend request")
        try await FriendService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).accept(from: senderID, by: user)
        guard let person = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).person(senderID, viewer: user.requireID()) else {
            throw Problem.notFound("user")
        }
        return .ok(.init(body: .json(.init(person))))
    }

    func declineFriendRequest(_ input: Operations.DeclineFriendRequest.Input) async throws -> Operations.DeclineFriendRequest.Output {
        let (req, user) = try await socialCaller()
        try await FriendService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media)
            .decline(from: try PathID.parse(input.path.userId, "friend request"), by: user.requireID())
        return .noContent(.init())
    }

    func listBlocks(_ input: Operations.ListBlocks.Input) async throws -> Operations.ListBlocks.Output {
        let (req, user) = try await socialCaller()
        let ids = try await BlockService(db: req.db, core: services.core)
            .blocked(by: user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(try await userPage(ids, viewer: user, req))))
    }

    func blockUser(_ input: Operations.BlockUser.Input) async throws -> Operations.BlockUser.Output {
        let (req, user) = try await socialCaller()
        try await BlockService(db: req.db, core: services.core).block(try PathID.parse(input.path.userId, "user"), by: user)
        return .noContent(.init())
    }

    func unblockUser(_ input: Operations.UnblockUser.Input) async throws -> Operations.UnblockUser.Output {
        let (req, user) = try await socialCaller()
        try await BlockService(db: req.db, core: services.core).unblock(try PathID.parse(input.path.userId, "user"), by: user.requireID())
        return .noContent(.init())
    }

    func socialCaller() async throws -> (Request, User) {
        let req = try request()
        return (req, try await req.requireCaller().user)
    }

    private func userPage(_ ids: Page<UUID>, viewer: User, _ req: Request) async throws -> Components.Schemas.UserPage {
        let people = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).people(ids.items, viewer: viewer.requireID())
        return .init(items: people.map(Components.Schemas.UserSummary.init), nextCursor: ids.nextCursor)
    }

    private func requestPage(
        _ page: Page<FriendRequest>, other: KeyPath<FriendRequest, UUID>, viewer: User, _ req: Request
    ) async throws -> Components.Schemas.FriendRequestPage {
        let byID = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media)
            .peopleByID(page.items.map { $0[keyPath: other] }, viewer: viewer.requireID())
        return .init(
            items: page.items.compactMap { request in
                byID[request[keyPath: other]].map { .init(user: .init($0), createdAt: request.createdAt) }
            },
            nextCursor: page.nextCursor)
    }
}
