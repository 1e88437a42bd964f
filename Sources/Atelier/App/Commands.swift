import Vapor

/// The `atelier` commands besides Vapor's own `serve` and `routes` and Fluent's `migrate`.
public enum Commands {
    public static func register(_ app: Application) {
        app.asyncCommands.use(CreateAdminCommand(), as: "create-admin")
        app.asyncCommands.use(SeedDemoCommand(), as: "seed-demo")
        app.asyncCommands.use(BenchMediaCommand(), as: "bench-media")
        app.asyncCommands.use(BenchCutoutCommand(), as: "bench-cutout")
        app.asyncCommands.use(ImportProductsCommand(), as: "import-products")
        app.asyncCommands.use(SearchReindexCommand(), as: "search-reindex")
        app.asyncCommands.use(BackupCommand(), as: "backup")
    }
}
