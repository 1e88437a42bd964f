import Fluent
import Foundation

/// Who may see and change a store's things. Anyone who may not see something gets a 404,
/// so that existence does not leak (spec/README.md, access model).
struct StoreAccess {
    let db: any Database

    func role(of user: User?, in storeID: UUID) async throws -> StoreMember.Role? {
        guard let userID = user?.id else { return nil }
        let member = try await StoreMember.query(on: db).filter(\.$store.$id == storeID).filter(\.$user.$id == userID).first()
        return member.flatMap { StoreMember.Role(rawValue: $0.role) }
    }

    /// Staff of the store and admins see inactive products, stats and reports.
    func canManage(_ store: some StoreColumns, user: User?) async throws -> Bool {
        guard let user else { return false }
        if user.isAdmin { return true }
        return try await role(of: user, in: store.requireID()) != nil
    }

    /// Whether `user` is an approved trade customer of the store.
    func isTradeCustomer(_ user: User?, of storeID: UUID) async throws -> Bool {
        guard let userID = user?.id else { return false }
        return try await TradeCustomer.query(on: db).filter(\.$storeID == storeID).filter(\.$userID == userID)
            .filter(\.$status == TradeCustomer.Status.approved.rawValue).count() > 0
    }

    /// Trade prices and case sizes are for the store's approved trade customers and its staff.
    func seesTradeTerms(of store: some StoreColumns, user: User?) async throws -> Bool {
        guard user != nil else { return false }
        if try await isTradeCustomer(user, of: store.requireID()) { return true }
        return try await canManage(store, user: user)
    }

    /// The stores among `storeIDs` whose trade terms `user` sees (`seesTradeTerms`), in two statements for a whole page.
    func storesShowingTradeTerms(among storeIDs: [UUID], to user: User) async throws -> Set<UUID> {
        let ids = Array(Set(storeIDs))
        guard !ids.isEmpty, let userID = user.id else { return [] }
        if user.isAdmin { return Set(ids) }
        let customers = try await TradeCustomer.query(on: db).filter(\.$userID == userID).filter(\.$storeID ~~ ids)
            .filter(\.$status == TradeCustomer.Status.approved.rawValue).all(\.$storeID)
        let staff = try await StoreMember.query(on: db).filter(\.$user.$id == userID).filter(\.$store.$id ~~ ids).all(\.$store.$id)
        return Set(customers + staff)
    }

    /// Whether `user` may see an active store's catalogue: everyone for a public store; for a
    /// sign-in-to-browse one, its staff, admins and approved trade customers.
    func canBrowse(_ store: some StoreColumns, user: User?) async throws -> Bool {
        guard store.isActive else { return try await canManage(store, user: user) }
        if !store.membersOnly { return true }
        if try await isTradeCustomer(user, of: store.requireID()) { return true }
        return try await canManage(store, user: user)
    }

    /// A store everyone may see: active ones; suspended ones only for admins and its staff;
    /// sign-in-to-browse ones only for its staff, admins and approved trade customers.
    func visibleStore(_ idOrSlug: String, to user: User?) async throws -> Store {
        let store: Store?
        if let id = UUID(text: idOrSlug) {
            store = try await Store.find(id, on: db)
        } else {
            store = try await Store.query(on: db).filter(\.$slug == idOrSlug.lowercased()).first()
        }
        guard let store else { throw Problem.notFound("store") }
        if store.isPublic { return store }
        guard try await canBrowse(store, user: user) else { throw Problem.notFound("store") }
        return store
    }

    /// The store, when `user` is its staff (or owner, when `ownerOnly`) or an admin; 404 otherwise.
    func managedStore(_ rawID: String, by user: User, ownerOnly: Bool = false) async throws -> Store {
        guard let id = UUID(text: rawID), let store = try await Store.find(id, on: db) else { throw Problem.notFound("store") }
        if user.isAdmin { return store }
        guard let role = try await role(of: user, in: id) else { throw Problem.notFound("store") }
        if ownerOnly, role != .owner {
            throw Problem(.forbidden, detail: "Only an owner of \(store.name) may do this.")
        }
        guard store.isActive else {
            throw Problem.conflict("\(store.name) is suspended; contact the Atelier team.")
        }
        return store
    }

    /// Stores the user works in. Pending invitations to the user's verified address are taken up here.
    func memberships(of user: User) async throws -> [(Store, StoreMember.Role)] {
        try await claimInvites(for: user)
        let members = try await StoreMember.query(on: db).filter(\.$user.$id == user.requireID()).with(\.$store).all()
        return members.compactMap { member in StoreMember.Role(rawValue: member.role).map { (member.store, $0) } }
            .sorted { $0.0.name.localizedCaseInsensitiveCompare($1.0.name) == .orderedAscending }
    }

    private func claimInvites(for user: User) async throws {
        guard let email = user.email, user.emailVerifiedAt != nil else { return }
        let invites = try await StoreInvite.query(on: db).filter(\.$email == email).all()
        guard !invites.isEmpty else { return }
        try await db.transaction { tx in
            for invite in invites {
                if try await StoreMember.query(on: tx).filter(\.$store.$id == invite.$store.id).filter(\.$user.$id == user.requireID()).count() == 0 {
                    let member = StoreMember()
                    member.id = UUID()
                    member.$store.id = invite.$store.id
                    member.$user.id = try user.requireID()
                    member.role = invite.role
                    member.createdAt = invite.createdAt
                    try await member.create(on: tx)
                }
                try await invite.delete(on: tx)
            }
        }
    }
}

extension User {
    func requireAdmin() throws {
        guard isAdmin else { throw Problem(.forbidden, detail: "This needs the admin role.") }
    }
}
