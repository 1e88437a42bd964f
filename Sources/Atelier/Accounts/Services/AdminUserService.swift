import Fluent
import Foundation

/// What admins do to accounts: find them, suspend and reinstate them, grant and take roles.
struct AdminUserService {
    let db: any Database
    let core: CoreServices

    func search(_ raw: String?, page: PageRequest) async throws -> Page<User> {
        var query = User.query(on: db)
        if let words = raw?.trimmingCharacters(in: .whitespaces).lowercased(), !words.isEmpty {
            query = query.group(.or) { $0.filter(\.$email ~~ words).filter(\.$username ~~ words).filter(\.$displayName ~~ words) }
        }
        let rows = try await query.newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// Suspending signs the account out everywhere. Admins cannot suspend or demote themselves,
    /// so an installation never loses its last admin by accident.
    func update(_ user: User, suspended: Bool?, isEditor: Bool?, isAdmin: Bool?, by admin: User) async throws -> User {
        if user.id == admin.id, suspended == true || isAdmin == false {
            throw Problem.conflict("You cannot suspend yourself or take your own admin role; ask another admin.")
        }
        let now = core.clock.now()
        if let isEditor { user.isEditor = isEditor }
        if let isAdmin { user.isAdmin = isAdmin }
        try await db.transaction { tx in
            if let suspended {
                if suspended, user.suspendedAt == nil {
                    user.suspendedAt = now
                    try await SessionFamily.query(on: tx).filter(\.$user.$id == user.requireID()).filter(\.$revokedAt == nil)
                        .set(\.$revokedAt, to: now).update()
                } else if !suspended {
                    user.suspendedAt = nil
                }
            }
            user.updatedAt = now
            try await user.save(on: tx)
        }
        return user
    }
}
