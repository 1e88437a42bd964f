import AtelierServerAPI
import Foundation
import Vapor

/// `/me/invite-links`, `/invite-links/{token}…`: invite links that connect.
extension APIHandler {
    func createInviteLink(_ input: Operations.CreateInviteLink.Input) async throws -> Operations.CreateInviteLink.Output {
        let (req, user) = try await socialCaller()
        let made = try await InviteLinkService(db: req.db, core: services.core).make(by: user)
        return .created(.init(body: .json(.init(url: made.url, token: made.token, expiresAt: made.expiresAt))))
    }

    func getInviteLink(_ input: Operations.GetInviteLink.Input) async throws -> Operations.GetInviteLink.Output {
        let req = try request()
        switch try await InviteLinkService(db: req.db, core: services.core).preview(input.path.token) {
        case .success(let preview):
            let avatar = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).avatars(of: [preview.inviter], viewer: nil)
            return .ok(.init(body: .json(.init(
                inviter: .init(
                    displayName: preview.inviter.displayName, username: preview.inviter.username,
                    avatar: preview.inviter.id.flatMap { avatar[$0] }.map(Components.Schemas.Image.init)),
                expiresAt: preview.expiresAt))))
        case .failure(let refusal):
            throw InviteLinkService.problem(refusal == .own ? .unknown : refusal, field: "token")
        }
    }

    func acceptInviteLink(_ input: Operations.AcceptInviteLink.Input) async throws -> Operations.AcceptInviteLink.Output {
        let (req, user) = try await socialCaller()
        let inviterID = try await InviteLinkService(db: req.db, core: services.core).accept(input.path.token, by: user)
        guard let person = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).person(inviterID, viewer: user.requireID()) else {
            throw Problem.notFound("invite link")
        }
        return .ok(.init(body: .json(.init(person))))
    }
}
