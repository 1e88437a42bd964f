import Fluent
import Vapor

/// `atelier create-admin --email ADDRESS [--password PASSWORD] [--name NAME]`: makes an account an
/// admin, creating it if needed. Without --password a new account gets a generated one, printed once.
struct CreateAdminCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Option(name: "email", help: "The admin's email address") var email: String?
        @Option(name: "password", help: "Password for a new account (generated when left out)") var password: String?
        @Option(name: "name", help: "Display name for a new account") var name: String?
    }

    var help: String { "Creates the first admin (or makes an existing account an admin)." }

    func run(using context: CommandContext, signature: Signature) async throws {
        guard let rawEmail = signature.email else {
            context.console.error("Give the admin's address: atelier create-admin --email you@example.com")
            throw Abort(.badRequest)
        }
        let app = context.application
        let services = app.atelier
        var errors = FieldErrors()
        guard let email = AccountRules.email(rawEmail, into: &errors) else {
            context.console.error("Not an email address: \(rawEmail)")
            throw Abort(.badRequest)
        }
        if let user = try await User.query(on: app.db).filter(\.$email == email).first() {
            user.isAdmin = true
            user.updatedAt = services.clock.now()
            try await user.save(on: app.db)
            context.console.success("\(email) is now an admin.")
            return
        }
        let password = signature.password ?? TokenHash.randomToken()
        let (user, _) = try await AccountService(db: app.db, core: services.core, accountParts: services.accountParts, mailOutbox: services.mailOutbox).signUp(
            .init(email: email, password: password, displayName: signature.name ?? "Administrator"),
            clientAddress: "cli")
        user.isAdmin = true
        user.emailVerifiedAt = services.clock.now()
        try await user.save(on: app.db)
        context.console.success("Created admin \(email).")
        if signature.password == nil {
            context.console.info("Generated password (shown once): \(password)")
        }
    }
}
