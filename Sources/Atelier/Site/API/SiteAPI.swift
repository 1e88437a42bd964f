import AtelierServerAPI
import Foundation
import Vapor

/// `/site-pages/{slug}`, `/admin/site-pages/{slug}`, `/feedback`: the privacy policy and terms,
/// and the contact form.
extension APIHandler {
    func getSitePage(_ input: Operations.GetSitePage.Input) async throws -> Operations.GetSitePage.Output {
        let req = try request()
        let page = try await SitePageService(db: req.db, core: services.core).page(input.path.slug.rawValue)
        return .ok(.init(body: .json(.init(page))))
    }

    func updateSitePage(_ input: Operations.UpdateSitePage.Input) async throws -> Operations.UpdateSitePage.Output {
        let req = try request()
        let admin = try await req.requireCaller().user
        try admin.requireAdmin()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let page = try await SitePageService(db: req.db, core: services.core)
            .update(input.path.slug.rawValue, title: body.title, markdown: body.body, by: admin)
        return .ok(.init(body: .json(.init(page))))
    }

    func sendFeedback(_ input: Operations.SendFeedback.Input) async throws -> Operations.SendFeedback.Output {
        let req = try request()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let sender = try await req.optionalCaller()?.user
        _ = try await FeedbackService(db: req.db, core: services.core, live: services.live).send(
            .init(email: body.email, subject: body.subject, message: body.message), from: sender, clientAddress: req.clientAddress)
        return .accepted(.init())
    }
}

extension Components.Schemas.SitePage {
    init(_ page: SitePage) {
        self.init(
            slug: .init(rawValue: page.id ?? "") ?? .privacy, title: page.title, html: page.html, markdown: page.markdown,
            updatedAt: page.updatedAt)
    }
}
