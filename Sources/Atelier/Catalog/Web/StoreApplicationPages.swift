import Fluent
import Vapor

/// Applying to open a store (`/open-a-store`) and the admins' list to decide
/// (`/admin/store-applications`).
enum StoreApplicationPages {
    struct ApplyPage: WebPageContext {
        var page: PageContext
        var mine: [Row]
        var values: [String: String]
        var errors: [String: String]
    }

    struct AdminPage: WebPageContext {
        var page: PageContext
        var pending: [Row]
        var decided: [Row]
    }

    struct Row: Encodable {
        var id: String
        var name: String
        var address: String
        var about: String
        var status: String
        var reason: String?
        var storeURL: String?
        var applicant: String?
    }

    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.get("open-a-store") { req in try await applyPage(req) }
        signedIn.post("open-a-store", use: apply)
        let admin = web.grouped("admin").grouped(RequireWebUser(), RequireWebAdmin())
        admin.get("store-applications", use: adminPage)
        admin.post("store-applications", ":id", "approve") { req in
            try await AdminActions.act(req, back: "/admin/store-applications") { admin in
                let (_, store) = try await StoreApplicationService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, live: req.atelier.live, mailOutbox: req.atelier.mailOutbox, mediaLibrary: req.atelier.media).approve(try AdminActions.id(req), by: admin)
                return "\(store.name) is open; its applicant owns it."
            }
        }
        admin.post("store-applications", ":id", "decline") { req in
            try await AdminActions.act(req, back: "/admin/store-applications") { admin in
                let reason = (try? req.content.get(String.self, at: "reason")) ?? ""
                let application = try await StoreApplicationService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, live: req.atelier.live, mailOutbox: req.atelier.mailOutbox, mediaLibrary: req.atelier.media)
                    .decline(try AdminActions.id(req), reason: reason, by: admin)
                return "The application for \(application.name) is declined."
            }
        }
    }

    static func applyPage(_ req: Request, status: HTTPStatus = .ok, values: [String: String] = [:], errors: [String: String] = [:]) async throws -> Response {
        let user = try req.requireWebUser()
        let mine = try await StoreApplicationService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, live: req.atelier.live, mailOutbox: req.atelier.mailOutbox, mediaLibrary: req.atelier.media).mine(user.requireID())
        return try await req.renderPage("catalog/open-a-store", ApplyPage(
            page: PageContext(req, title: "Open a store"), mine: mine.map { row($0, applicant: nil) }, values: values, errors: errors
        )).encodeResponse(status: status, for: req)
    }

    struct Form: Content {
        var name: String?
        var street: String?
        var postalCode: String?
        var city: String?
        var lat: String?
        var lng: String?
        var about: String?
    }

    static func apply(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let form = try req.content.decode(Form.self)
        let values = [
            "name": form.name ?? "", "street": form.street ?? "", "postalCode": form.postalCode ?? "", "city": form.city ?? "",
            "lat": form.lat ?? "", "lng": form.lng ?? "", "about": form.about ?? "",
        ]
        do {
            guard let lat = form.lat.flatMap(Double.init), let lng = form.lng.flatMap(Double.init) else {
                throw Problem.invalid("location", "needs the latitude and longitude of the shop, as numbers")
            }
            _ = try await StoreApplicationService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, live: req.atelier.live, mailOutbox: req.atelier.mailOutbox, mediaLibrary: req.atelier.media).apply(.init(
                name: form.name ?? "", street: form.street ?? "", postalCode: form.postalCode ?? "", city: form.city ?? "",
                lat: lat, lng: lng, about: form.about ?? ""), by: user)
            Flash.set("success", "Thank you. Your application is with the admins; you will hear from them in your inbox.", on: req)
            return req.redirect(to: "/open-a-store")
        } catch let problem as Problem where problem.status.code < 500 {
            var errors = problem.messagesByField
            if errors.isEmpty { errors["form"] = problem.detail ?? problem.title }
            return try await applyPage(req, status: problem.status, values: values, errors: errors)
        }
    }

    static func adminPage(_ req: Request) async throws -> View {
        let service = StoreApplicationService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, live: req.atelier.live, mailOutbox: req.atelier.mailOutbox, mediaLibrary: req.atelier.media)
        let pending = try await service.list(status: .pending, page: PageRequest(limit: 100, cursor: nil)).items
        let decided = try await service.list(status: nil, page: PageRequest(limit: 100, cursor: nil)).items.filter { $0.status != "pending" }
        let applicants = Dictionary(
            try await User.query(on: req.db).filter(\.$id ~~ Set((pending + decided).map(\.applicantID))).all().map { ($0.id!, $0) },
            uniquingKeysWith: { a, _ in a })
        func name(_ application: StoreApplication) -> String? {
            applicants[application.applicantID].map { "\($0.displayName)\($0.email.map { " · \($0)" } ?? "")" }
        }
        return try await req.renderPage("admin/store-applications", AdminPage(
            page: PageContext(req, title: "Store applications"),
            pending: pending.map { row($0, applicant: name($0)) }, decided: decided.map { row($0, applicant: name($0)) }))
    }

    private static func row(_ application: StoreApplication, applicant: String?) -> Row {
        Row(
            id: application.id!.idString, name: application.name,
            address: [application.street, application.postalCode, application.city].filter { !$0.isEmpty }.joined(separator: ", "),
            about: application.about, status: application.status, reason: application.declineReason,
            storeURL: application.storeID.map { "/portal/stores/\($0.idString)" }, applicant: applicant)
    }
}
