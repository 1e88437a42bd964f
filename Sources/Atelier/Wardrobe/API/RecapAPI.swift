import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/me/recaps` and `/recaps/{id}`: animated recaps of worn outfits.
extension APIHandler {
    func createRecap(_ input: Operations.CreateRecap.Input) async throws -> Operations.CreateRecap.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let recap = try await RecapMaker(db: req.db, core: services.core, mediaLibrary: services.media)
            .make(ownerID: user.requireID(), month: body.month, year: body.year, visibility: body.visibility?.rawValue)
        return .created(.init(body: .json(try await recapBody(recap, req))))
    }

    func getRecap(_ input: Operations.GetRecap.Input) async throws -> Operations.GetRecap.Output {
        let (req, user) = try await socialCaller()
        let recap = try await RecapAccess(db: req.db).visible(try PathID.parse(input.path.recapId, "recap"), to: user.requireID())
        return .ok(.init(body: .json(try await recapBody(recap, req))))
    }

    func recapBody(_ recap: Recap, _ req: Request) async throws -> Components.Schemas.WardrobeRecap {
        guard let media = try await Media.find(recap.mediaID, on: req.db) else { throw Problem.notFound("recap") }
        return .init(
            id: recap.id!.idString, ownerId: recap.ownerID.idString, period: recap.period, from: recap.fromDay,
            to: recap.toDay, frameCount: recap.frameCount, visibility: .init(rawValue: recap.visibility) ?? ._private,
            animationUrl: services.media.signer.privateURL(key: media.originalKey, now: services.clock.now()),
            shareUrl: "\(services.config.publicBaseURL)/recaps/\(recap.id!.idString)",
            outfitIds: recap.outfitIDs.map { $0.idString })
    }
}

/// Who may see a recap: its owner; friends when shared with friends; anyone (signed in or not)
/// when public; never someone blocked either way.
struct RecapAccess {
    let db: any Database

    func visible(_ id: UUID, to viewerID: UUID?) async throws -> Recap {
        guard let recap = try await Recap.find(id, on: db) else { throw Problem.notFound("recap") }
        if recap.ownerID == viewerID { return recap }
        let graph = SocialGraph(db: db)
        switch Outfit.Visibility(rawValue: recap.visibility) ?? .private {
        case .private:
            throw Problem.notFound("recap")
        case .friends:
            guard let viewerID, try await graph.areFriends(recap.ownerID, viewerID), try await !graph.blockedEitherWay(recap.ownerID, viewerID) else {
                throw Problem.notFound("recap")
            }
        case .public:
            if let viewerID, try await graph.blockedEitherWay(recap.ownerID, viewerID) { throw Problem.notFound("recap") }
        }
        return recap
    }
}
