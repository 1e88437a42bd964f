import Fluent
import Foundation

/// A store's owners and staff, and invitations by email.
struct StaffService {
    struct Entry: Sendable {
        var id: UUID
        var userID: UUID?
        var displayName: String?
        var email: String
        var role: StoreMember.Role
        var pending: Bool
    }

    let db: any Database
    let core: CoreServices
    let mailOutbox: MailOutbox

    private var now: Date { core.clock.now() }

    func list(_ store: Store) async throws -> [Entry] {
        let storeID = try store.requireID()
        let members = try await StoreMember.query(on: db).filter(\.$store.$id == storeID).with(\.$user).sort(\.$createdAt).all()
        let invites = try await StoreInvite.query(on: db).filter(\.$store.$id == storeID).sort(\.$createdAt).all()
        return members.map {
            Entry(id: $0.id!, userID: $0.$user.id, displayName: $0.user.displayName, email: $0.user.email ?? "",
                  role: StoreMember.Role(rawValue: $0.role) ?? .staff, pending: false)
        } + invites.map {
            Entry(id: $0.id!, userID: nil, displayName: nil, email: $0.email, role: StoreMember.Role(rawValue: $0.role) ?? .staff, pending: true)
        }
    }

    /// An existing account joins at once (and is told by mail); any other address gets an invitation to sign up.
    func invite(email raw: String, role: StoreMember.Role, to store: Store, by inviter: User) async throws -> Entry {
        var errors = FieldErrors()
        guard let email = AccountRules.email(raw, into: &errors) else { try errors.throwIfAny(); throw Problem.invalid("email", "is invalid") }
        let storeID = try store.requireID()
        if let user = try await User.query(on: db).filter(\.$email == email).first() {
            if try await StoreMember.query(on: db).filter(\.$store.$id == storeID).filter(\.$user.$id == user.requireID()).count() > 0 {
                throw Problem.conflict("\(email) already works at \(store.name).", field: "email")
            }
            let member = try await db.transaction { tx in
                let member = try await addMember(user, to: store, role: role, on: tx)
                try await mailOutbox.enqueue(
                    Mail(to: email, subject: "You were added to \(store.name) on Atelier",
                         text: "\(inviter.displayName) added you to \(store.name) as \(role.rawValue).\n\nOpen the store portal: \(core.config.publicBaseURL)/portal\n"),
                    on: tx)
                return member
            }
            return Entry(id: member.id!, userID: user.id, displayName: user.displayName, email: email, role: role, pending: false)
        }
        if try await StoreInvite.query(on: db).filter(\.$store.$id == storeID).filter(\.$email == email).count() > 0 {
            throw Problem.conflict("\(email) is already invited.", field: "email")
        }
        let invite = StoreInvite()
        invite.id = .v7(at: now)
        invite.$store.id = storeID
        invite.email = email
        invite.role = role.rawValue
        invite.createdAt = now
        try await db.transaction { tx in
            try await invite.create(on: tx)
            try await mailOutbox.enqueue(
                Mail(to: email, subject: "Join \(store.name) on Atelier",
                     text: "\(inviter.displayName) invited you to help run \(store.name) on Atelier.\n\nCreate your account with this address and confirm it, then open \(core.config.publicBaseURL)/portal\n"),
                on: tx)
        }
        return Entry(id: invite.id!, userID: nil, displayName: nil, email: email, role: role, pending: true)
    }

    /// Removes a member or withdraws an invitation; a store always keeps at least one owner.
    func remove(_ id: UUID, from store: Store) async throws {
        let storeID = try store.requireID()
        if let invite = try await StoreInvite.query(on: db).filter(\.$id == id).filter(\.$store.$id == storeID).first() {
            try await invite.delete(on: db)
            return
        }
        guard let member = try await StoreMember.query(on: db).filter(\.$id == id).filter(\.$store.$id == storeID).first() else {
            throw Problem.notFound("member")
        }
        if member.role == StoreMember.Role.owner.rawValue,
            try await StoreMember.query(on: db).filter(\.$store.$id == storeID).filter(\.$role == StoreMember.Role.owner.rawValue).count() <= 1
        {
            throw Problem.conflict("\(store.name) needs at least one owner; make someone else owner first.")
        }
        try await member.delete(on: db)
    }

    /// Adds (or promotes) a member.
    @discardableResult
    func addMember(_ user: User, to store: Store, role: StoreMember.Role, on tx: (any Database)? = nil) async throws -> StoreMember {
        let db = tx ?? self.db
        let storeID = try store.requireID()
        if let existing = try await StoreMember.query(on: db).filter(\.$store.$id == storeID).filter(\.$user.$id == user.requireID()).first() {
            if role == .owner, existing.role != role.rawValue {
                existing.role = role.rawValue
                try await existing.save(on: db)
            }
            return existing
        }
        let member = StoreMember()
        member.id = .v7(at: now)
        member.$store.id = storeID
        member.$user.id = try user.requireID()
        member.role = role.rawValue
        member.createdAt = now
        try await member.create(on: db)
        return member
    }
}
