import Vapor

/// Invite links on the web: making one (from /friends) and the page a link opens, which signs a
/// new person up or offers a signed-in one to connect.
enum InviteWebPages {
    struct MadePage: WebPageContext {
        var page: PageContext
        var url: String
        var expiresOn: String
    }

    struct AcceptPage: WebPageContext {
        var page: PageContext
        var token: String
        var inviter: PersonCard?
        /// Why the link does not work, when it does not.
        var refusal: String?
    }

    static func register(_ web: any RoutesBuilder) {
        web.grouped(RequireWebUser()).post("friends", "invite-link", use: make)
        web.get("invite", ":token", use: open)
        web.grouped(RequireWebUser()).post("invite", ":token", "accept", use: accept)
    }

    static func make(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        do {
            let made = try await InviteLinkService(db: req.db, core: req.core).make(by: user)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_GB")
            formatter.dateStyle = .long
            return try await req.renderPage("social/invite-link", MadePage(
                page: PageContext(req, title: "Invite someone"), url: made.url, expiresOn: formatter.string(from: made.expiresAt)
            )).encodeResponse(for: req)
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", problem.detail ?? problem.title, on: req)
            return req.redirect(to: "/friends")
        }
    }

    /// Signed out, the sign-up form carrying the link; signed in, an offer to connect.
    static func open(_ req: Request) async throws -> Response {
        let token = req.parameters.get("token") ?? ""
        let result = try await InviteLinkService(db: req.db, core: req.core).preview(token)
        guard let viewer = req.webSessionUser else {
            guard case .success(let preview) = result else {
                return try await refused(req, token: token, result: result)
            }
            return try await AccountsWebRoutes.render(
                req, "accounts/signup", title: "Join \(preview.inviter.displayName) on Atelier",
                values: ["inviteToken": token, "inviterName": preview.inviter.displayName])
        }
        guard case .success(let preview) = result, preview.inviter.id != viewer.id else {
            return try await refused(req, token: token, result: result)
        }
        let person = try await PeopleDirectory(db: req.db, core: req.core, mediaLibrary: req.atelier.media).person(preview.inviter.requireID(), viewer: viewer.requireID())
        return try await req.renderPage("social/invite", AcceptPage(
            page: PageContext(req, title: "Invitation from \(preview.inviter.displayName)"), token: token,
            inviter: person.map(PersonCard.init), refusal: nil)).encodeResponse(for: req)
    }

    static func accept(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let token = req.parameters.get("token") ?? ""
        return try await req.formAction(redirectTo: "/friends") {
            let inviterID = try await InviteLinkService(db: req.db, core: req.core).accept(token, by: user)
            let name = try await User.find(inviterID, on: req.db)?.displayName ?? "them"
            return "You and \(name) are connected: you can invite each other to moments."
        }
    }

    private static func refused(_ req: Request, token: String, result: Result<InviteLinkService.Preview, InviteLinkService.Refusal>) async throws -> Response {
        let reason: String
        switch result {
        case .failure(.used): reason = "This invite link has been used already. Ask for a new one."
        case .failure(.expired): reason = "This invite link has expired. Ask for a new one."
        case .success: reason = "This is your own invite link. Send it to someone you want to connect with."
        default: reason = "This invite link does not work. Check that it was copied whole, or ask for a new one."
        }
        let status: HTTPStatus = if case .failure(.unknown) = result { .notFound } else { .ok }
        return try await req.renderPage("social/invite", AcceptPage(
            page: PageContext(req, title: "Invite link"), token: token, inviter: nil, refusal: reason)).encodeResponse(status: status, for: req)
    }
}
