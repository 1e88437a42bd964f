import Fluent
import Vapor

/// `atelier seed-demo`: fills an empty installation with demo data so a new user sees a living
/// product. Idempotent: running it again changes nothing. Each domain adds its part here as it lands.
struct SeedDemoCommand: AsyncCommand {
    struct Signature: CommandSignature {}

    var help: String { "Fills the database with demo data (safe to run again)." }

    static let demoPassword = "atelier-demo-2026"
    static let demoUsers: [(email: String, name: String, city: String, timeZone: String)] = [
        ("ana@demo.atelier.test", "Ana Lindqvist", "Gothenburg", "Europe/Stockholm"),
        ("mihai@demo.atelier.test", "Mihai Popescu", "Bucharest", "Europe/Bucharest"),
        ("sara@demo.atelier.test", "Sara Holm", "Gothenburg", "Europe/Stockholm"),
    ]

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        var created = 0
        for demo in Self.demoUsers where try await User.query(on: app.db).filter(\.$email == demo.email).count() == 0 {
            let (user, _) = try await AccountService(db: app.db, core: app.core, accountParts: app.atelier.accountParts, mailOutbox: app.atelier.mailOutbox).signUp(
                .init(email: demo.email, password: Self.demoPassword, displayName: demo.name, timeZone: demo.timeZone),
                clientAddress: "seed")
            user.homeCity = demo.city
            user.emailVerifiedAt = app.atelier.clock.now()
            try await user.save(on: app.db)
            created += 1
        }
        let users = try await User.query(on: app.db).filter(\.$email ~~ Self.demoUsers.map(\.email)).all()
        guard let ana = users.first(where: { $0.email == Self.demoUsers[0].email }),
            let mihai = users.first(where: { $0.email == Self.demoUsers[1].email }),
            let sara = users.first(where: { $0.email == Self.demoUsers[2].email })
        else { throw Abort(.internalServerError, reason: "The demo accounts are missing.") }
        if !mihai.isAdmin || !mihai.isEditor {
            mihai.isAdmin = true
            mihai.isEditor = true
            try await mihai.save(on: app.db)
        }
        let products = try await CatalogDemoSeed(app: app).run(owner: ana, others: sara, console: context.console)
        let drinks = try await CommerceDemoSeed(app: app, password: Self.demoPassword).run(fashionOwner: ana)
        let issues = try await MagazineDemoSeed(app: app).run()
        let closet = try await WardrobeDemoSeed(app: app).run(shopper: sara)
        context.console.success(
            "Demo data ready (\(created) new accounts, \(products) new products, \(drinks) new wholesale drinks, \(issues) new magazine issues, \(closet) closet items for \(sara.displayName)).")
        context.console.info("Sign in as \(Self.demoUsers[0].email) (store owner), \(Self.demoUsers[1].email) (admin) or \(Self.demoUsers[2].email); password \(Self.demoPassword).")
        context.console.info(
            "The drinks wholesaler (sign-in-to-browse, trade prices): \(CommerceDemoSeed.ownerEmail) (owner) and \(CommerceDemoSeed.barEmail) (an approved trade customer); same password.")
    }
}
