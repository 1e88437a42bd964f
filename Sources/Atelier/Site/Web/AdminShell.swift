import Vapor

/// `/admin`: the group every admin page hangs on (signed in, an admin; 404 to anyone else) and its index.
/// The composition root registers each domain's admin pages on the group this returns.
enum AdminShell {
    struct IndexPage: WebPageContext {
        var page: PageContext
    }

    static func register(_ web: any RoutesBuilder) -> any RoutesBuilder {
        let admin = web.grouped("admin").grouped(RequireWebUser(), RequireWebAdmin())
        admin.get { req in try await req.renderPage("admin/index", IndexPage(page: PageContext(req, title: "Admin"))) }
        return admin
    }
}
