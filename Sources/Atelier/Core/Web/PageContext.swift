import Vapor

/// What every page template gets; pages add their own fields next to it.
struct PageContext: Encodable {
    var title: String
    /// Link-preview tags for pages people share (products, stores, boards).
    var share: ShareMeta?
    var user: WebUser?
    var csrfToken: String
    var flash: Flash?

    init(_ req: Request, title: String) {
        self.title = title
        self.user = req.webUser
        self.csrfToken = req.csrfToken
        self.flash = Flash.take(from: req)
    }
}

/// A one-time message shown on the next page (after a redirect).
struct Flash: Codable {
    var kind: String
    var message: String

    static func set(_ kind: String, _ message: String, on req: Request) {
        req.session.data["flash.kind"] = kind
        req.session.data["flash.message"] = message
    }

    static func take(from req: Request) -> Flash? {
        guard req.hasSession, let kind = req.session.data["flash.kind"], let message = req.session.data["flash.message"] else {
            return nil
        }
        req.session.data["flash.kind"] = nil
        req.session.data["flash.message"] = nil
        return Flash(kind: kind, message: message)
    }
}

/// A page's own context; rendered with the common page fields (user, CSRF token, flash, title)
/// at the top level, where the layout reads them.
protocol WebPageContext: Encodable {
    var page: PageContext { get }
}

private struct FlatPage<Content: WebPageContext>: Encodable {
    let content: Content

    func encode(to encoder: any Encoder) throws {
        try content.page.encode(to: encoder)
        try content.encode(to: encoder)
    }
}

extension Request {
    func renderPage<Content: WebPageContext>(_ template: String, _ context: Content) async throws -> View {
        try await view.render(template, FlatPage(content: context))
    }
}
