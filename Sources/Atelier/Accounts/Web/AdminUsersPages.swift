import Fluent
import Vapor

/// `/admin/users`: search accounts; suspend or reinstate them; grant or take editor and admin.
enum AdminUsersPages {
    static func register(_ admin: any RoutesBuilder) {
        admin.get("users", use: list)
        admin.post("users", ":id", ":action", use: change)
    }

    struct Page: WebPageContext {
        var page: PageContext
        var q: String
        var users: [Row]
        var nextCursor: String?
    }

    struct Row: Encodable {
        var id: String
        var name: String
        var email: String
        var username: String
        var isEditor: Bool
        var isAdmin: Bool
        var suspended: Bool
    }

    static func list(_ req: Request) async throws -> View {
        let q = req.query[String.self, at: "q"] ?? ""
        let page = try PageRequest(limit: 50, cursor: req.query[String.self, at: "cursor"])
        let users = try await AdminUserService(db: req.db, core: req.core).search(q, page: page)
        return try await req.renderPage("admin/users", Page(
            page: PageContext(req, title: "Users"), q: q,
            users: users.items.map {
                Row(id: $0.id!.idString, name: $0.displayName, email: $0.email ?? "", username: $0.username, isEditor: $0.isEditor,
                    isAdmin: $0.isAdmin, suspended: $0.suspendedAt != nil)
            },
            nextCursor: users.nextCursor))
    }

    static func change(_ req: Request) async throws -> Response {
        try await AdminActions.act(req, back: "/admin/users") { admin in
            guard let user = try await User.find(try AdminActions.id(req), on: req.db) else { throw Problem.notFound("account") }
            let service = AdminUserService(db: req.db, core: req.core)
            switch req.parameters.get("action") {
            case "suspend": _ = try await service.update(user, suspended: true, isEditor: nil, isAdmin: nil, by: admin)
            case "reinstate": _ = try await service.update(user, suspended: false, isEditor: nil, isAdmin: nil, by: admin)
            case "grant-editor": _ = try await service.update(user, suspended: nil, isEditor: true, isAdmin: nil, by: admin)
            case "revoke-editor": _ = try await service.update(user, suspended: nil, isEditor: false, isAdmin: nil, by: admin)
            case "grant-admin": _ = try await service.update(user, suspended: nil, isEditor: nil, isAdmin: true, by: admin)
            case "revoke-admin": _ = try await service.update(user, suspended: nil, isEditor: nil, isAdmin: false, by: admin)
            default: throw Problem.notFound()
            }
            return "\(user.displayName) was updated."
        }
    }
}
