import Fluent
import Vapor

/// The recap's share page (public recaps open signed out too) and the form that makes one.
enum RecapWebPages {
    struct Page: WebPageContext {
        var page: PageContext
        var id: String
        var period: String
        var animationURL: String
        var frameCount: Int
        var ownerName: String
        var isOwner: Bool
        var visibility: String
    }

    static func register(_ web: any RoutesBuilder) {
        web.get("recaps", ":recapID", use: recapPage)
        web.grouped(RequireWebUser()).post("recaps", use: create)
    }

    static func recapPage(_ req: Request) async throws -> View {
        guard let id = req.parameters.get("recapID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("recap") }
        let viewerID = req.webSessionUser?.id
        let recap = try await RecapAccess(db: req.db).visible(id, to: viewerID)
        guard let media = try await Media.find(recap.mediaID, on: req.db), let owner = try await User.find(recap.ownerID, on: req.db) else {
            throw Problem.notFound("recap")
        }
        return try await req.renderPage("wardrobe/recap", Page(
            page: PageContext(req, title: "\(owner.displayName)'s outfits, \(recap.period)"), id: id.idString, period: recap.period,
            animationURL: req.atelier.media.signer.privateURL(key: media.originalKey, now: req.atelier.clock.now()),
            frameCount: recap.frameCount, ownerName: owner.displayName, isOwner: recap.ownerID == viewerID, visibility: recap.visibility))
    }

    static func create(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let month = (try? req.content.get(String.self, at: "month")) ?? ""
        var made: Recap?
        let response = try await req.formAction(redirectTo: "/calendar?month=\(month.prefix(7).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")") {
            made = try await RecapMaker(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
                .make(ownerID: user.requireID(), month: month, year: nil, visibility: try? req.content.get(String.self, at: "visibility"))
            return "Your recap is ready."
        }
        return made.map { req.redirect(to: "/recaps/\($0.id!.idString)") } ?? response
    }
}
