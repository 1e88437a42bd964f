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
            let (user, _) = try await AccountService(db: app.db, services: app.atelier).signUp(
                .init(email: demo.email, password: Self.demoPassword, displayName: demo.name, timeZone: demo.timeZone),
                clientAddress: "seed")
            user.homeCity = demo.city
            user.emailVerifiedAt = app.atelier.clock.now()
            try await user.save(on: app.db)
            created += 1
        }
        context.console.success("Demo data ready (\(created) new accounts). Sign in as \(Self.demoUsers[0].email) / \(Self.demoPassword).")
    }
}
