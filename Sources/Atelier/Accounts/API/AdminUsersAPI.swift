import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/admin/users…`: find accounts, suspend them, grant roles (admins).
extension APIHandler {
    func listUsers(_ input: Operations.ListUsers.Input) async throws -> Operations.ListUsers.Output {
        let req = try request()
        try await req.requireCaller().user.requireAdmin()
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let users = try await AdminUserService(db: req.db, core: services.core).search(input.query.q, page: page)
        return .ok(.init(body: .json(.init(items: users.items.map(Components.Schemas.AdminUser.init), nextCursor: users.nextCursor))))
    }

    func updateUserRoles(_ input: Operations.UpdateUserRoles.Input) async throws -> Operations.UpdateUserRoles.Output {
        let req = try request()
        let admin = try await req.requireCaller().user
        try admin.requireAdmin()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        guard let id = UUID(uuidString: input.path.userId), let user = try await User.find(id, on: req.db) else { throw Problem.notFound("account") }
        let updated = try await AdminUserService(db: req.db, core: services.core)
            .update(user, suspended: body.suspended, isEditor: body.isEditor, isAdmin: body.isAdmin, by: admin)
        return .ok(.init(body: .json(.init(updated))))
    }
}
