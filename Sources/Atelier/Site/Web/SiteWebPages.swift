import Vapor

/// The privacy policy and terms (`/privacy`, `/terms`), the contact form (`/contact`), and the
/// admins' editor for the two pages and list of messages (`/admin/pages`, `/admin/feedback`).
enum SiteWebPages {
    struct Page: WebPageContext {
        var page: PageContext
        var slug: String
        var title: String
        var html: String
        var updatedOn: String
    }

    struct ContactPage: WebPageContext {
        var page: PageContext
        var signedIn: Bool
        var values: [String: String]
        var errors: [String: String]
    }

    struct EditPage: WebPageContext {
        var page: PageContext
        var pages: [Editable]
    }

    struct Editable: Encodable {
        var slug: String
        var title: String
        var markdown: String
        var updatedOn: String
    }

    struct FeedbackPage: WebPageContext {
        var page: PageContext
        var messages: [Row]
    }

    struct Row: Encodable {
        var from: String
        var subject: String
        var message: String
        var at: String
    }

    static func register(_ web: any RoutesBuilder) {
        for slug in SitePage.Slug.allCases {
            web.get(.constant(slug.rawValue)) { req in try await page(req, slug) }
        }
        web.get("contact") { req in try await contactPage(req) }
        web.post("contact", use: sendContact)
        let admin = web.grouped("admin").grouped(RequireWebUser(), RequireWebAdmin())
        admin.get("pages", use: editPages)
        admin.post("pages", ":slug", use: savePage)
        admin.get("feedback", use: feedback)
    }

    static func page(_ req: Request, _ slug: SitePage.Slug) async throws -> View {
        let page = try await SitePageService(db: req.db, core: req.core).page(slug.rawValue)
        return try await req.renderPage("site/page", Page(
            page: PageContext(req, title: page.title), slug: slug.rawValue, title: page.title, html: page.html, updatedOn: day(page.updatedAt)))
    }

    static func contactPage(_ req: Request, status: HTTPStatus = .ok, values: [String: String] = [:], errors: [String: String] = [:]) async throws -> Response {
        try await req.renderPage("site/contact", ContactPage(
            page: PageContext(req, title: "Contact us"), signedIn: req.webSessionUser != nil, values: values, errors: errors
        )).encodeResponse(status: status, for: req)
    }

    struct ContactForm: Content {
        var email: String?
        var subject: String?
        var message: String?
    }

    static func sendContact(_ req: Request) async throws -> Response {
        let form = try req.content.decode(ContactForm.self)
        let values = ["email": form.email ?? "", "subject": form.subject ?? "", "message": form.message ?? ""]
        do {
            _ = try await FeedbackService(db: req.db, core: req.core, live: req.atelier.live).send(
                .init(email: form.email, subject: form.subject ?? "", message: form.message ?? ""),
                from: req.webSessionUser, clientAddress: req.clientAddress)
            Flash.set("success", "Thank you. Your message has reached us; we answer by email.", on: req)
            return req.redirect(to: "/contact")
        } catch let problem as Problem where problem.status.code < 500 {
            var errors = problem.messagesByField
            if errors.isEmpty { errors["form"] = problem.detail ?? problem.title }
            let response = try await contactPage(req, status: problem.status, values: values, errors: errors)
            for (name, value) in problem.headers { response.headers.replaceOrAdd(name: name, value: value) }
            return response
        }
    }

    static func editPages(_ req: Request) async throws -> View {
        let service = SitePageService(db: req.db, core: req.core)
        var pages: [Editable] = []
        for slug in SitePage.Slug.allCases {
            let page = try await service.page(slug.rawValue)
            pages.append(Editable(slug: slug.rawValue, title: page.title, markdown: page.markdown, updatedOn: day(page.updatedAt)))
        }
        return try await req.renderPage("admin/pages", EditPage(page: PageContext(req, title: "Pages"), pages: pages))
    }

    static func savePage(_ req: Request) async throws -> Response {
        struct Form: Content { var title: String?; var body: String? }
        return try await AdminActions.act(req, back: "/admin/pages") { admin in
            let form = try req.content.decode(Form.self)
            let page = try await SitePageService(db: req.db, core: req.core)
                .update(req.parameters.get("slug") ?? "", title: form.title ?? "", markdown: form.body ?? "", by: admin)
            return "\(page.title) is saved."
        }
    }

    static func feedback(_ req: Request) async throws -> View {
        let messages = try await FeedbackService(db: req.db, core: req.core, live: req.atelier.live).recent(limit: 100)
        return try await req.renderPage("admin/feedback", FeedbackPage(
            page: PageContext(req, title: "Contact form"),
            messages: messages.map { Row(from: $0.email, subject: $0.subject, message: $0.message, at: day($0.createdAt)) }))
    }

    private static func day(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .long, time: .omitted, locale: Locale(identifier: "en_GB"), timeZone: TimeZone(identifier: "UTC")!))
    }
}
