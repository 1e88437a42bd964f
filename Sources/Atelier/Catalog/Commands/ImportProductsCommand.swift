import Fluent
import Vapor

/// `atelier import-products --store ID|SLUG [--dry-run] [--as EMAIL] FILE.csv [PHOTOS.zip]`: imports
/// a store's products from a CSV and a zip of their photos (docs/catalog-import.md) with a progress
/// bar. Each problem is printed as `row 5, brand: no brand named "Acme"`, and the command then fails.
struct ImportProductsCommand: AsyncCommand {
    struct Signature: CommandSignature {
        // ConsoleKit loads these in declaration order: the options go first so that an option's
        // value is never taken for the file.
        @Option(name: "store", help: "The store's id or slug") var store: String?
        @Flag(name: "dry-run", help: "Check every row and write nothing") var dryRun: Bool
        @Option(name: "as", help: "Email of the acting user (default: the store's first owner)") var actingEmail: String?
        @Argument(name: "file", help: "The CSV, one row per variant; a zip of the photos may follow") var file: String
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    var help: String { "Imports products from FILE.csv and the photos in PHOTOS.zip (--dry-run checks only)." }

    /// The photos zip is an optional second argument, which `@Argument` cannot express.
    func run(using context: inout CommandContext) async throws {
        let signature = try Signature(from: &context.input)
        let rest = context.input.arguments
        guard rest.count <= 1, rest.allSatisfy({ !$0.hasPrefix("-") }) else {
            throw CommandError.unknownInput(rest.joined(separator: " "))
        }
        try await run(context, signature, zip: rest.first)
    }

    func run(using context: CommandContext, signature: Signature) async throws {
        try await run(context, signature, zip: nil)
    }

    private func run(_ context: CommandContext, _ signature: Signature, zip: String?) async throws {
        let app = context.application
        guard let storeRef = signature.store else { throw fail(context, "Name the store: --store <id or slug>.") }
        let store: Store? = if let id = UUID(uuidString: storeRef) {
            try await Store.find(id, on: app.db)
        } else {
            try await Store.query(on: app.db).filter(\.$slug == storeRef.lowercased()).first()
        }
        guard let store else { throw fail(context, "No store with the id or slug \(storeRef).") }
        let user = try await actingUser(signature.actingEmail, store: store, db: app.db, context: context)
        let csv: Data
        do {
            csv = try Data(contentsOf: URL(fileURLWithPath: signature.file))
        } catch {
            throw fail(context, "Cannot read \(signature.file).")
        }
        if let zip, !FileManager.default.fileExists(atPath: zip) { throw fail(context, "Cannot read \(zip).") }

        let bar = context.console.progressBar(title: signature.dryRun ? "Checking" : "Importing")
        bar.start()
        let report: ProductImport.Report
        do {
            report = try await ProductImport(db: app.db, core: app.core, catalogChanges: app.atelier.catalogChanges, catalogIndexing: app.atelier.catalogIndexing, mediaLibrary: app.atelier.media).run(
                storeID: try store.requireID(), csv: csv, photos: zip.map { URL(fileURLWithPath: $0) }, dryRun: signature.dryRun,
                by: user, progress: { done, total in bar.activity.currentProgress = Double(done) / Double(max(total, 1)) })
        } catch let problem as Problem {
            bar.fail()
            for error in problem.errors { context.console.error("\(error.field): \(error.message)") }
            throw fail(context, problem.detail ?? problem.title)
        } catch {
            bar.fail()
            throw error
        }
        let summary = "\(report.products) products (\(report.variants) variants, \(report.photos) photos)"
        guard report.errors.isEmpty else {
            bar.fail()
            for error in report.errors { context.console.error(error.description) }
            throw fail(context, ProductImport.problem(report.errors).detail ?? "The file has problems.")
        }
        bar.succeed()
        if signature.dryRun {
            context.console.success("Dry run: \(summary) are ready to import into \(store.name); nothing was written.")
        } else {
            context.console.success("Imported \(summary) into \(store.name).")
        }
    }

    private func actingUser(_ email: String?, store: Store, db: any Database, context: CommandContext) async throws -> User {
        if let email {
            guard let user = try await User.query(on: db).filter(\.$email == email.lowercased()).first() else {
                throw fail(context, "No account with the address \(email).")
            }
            return user
        }
        let owner = try await StoreMember.query(on: db).filter(\.$store.$id == store.requireID())
            .filter(\.$role == StoreMember.Role.owner.rawValue).sort(\.$createdAt).with(\.$user).first()
        guard let owner else { throw fail(context, "\(store.name) has no owner; name the acting user with --as <email>.") }
        return owner.user
    }

    private func fail(_ context: CommandContext, _ message: String) -> Failed {
        context.console.error(message)
        return Failed(description: message)
    }
}
