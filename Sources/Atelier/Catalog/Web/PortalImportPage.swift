import Vapor

/// The portal's bulk import: a CSV and a zip of photos; "Check" is the dry run, "Import" the
/// all-or-nothing real run (docs/catalog-import.md).
enum PortalImportPage {
    static func register(_ store: any RoutesBuilder) {
        store.get("import") { req in try await render(req) }
        store.on(.POST, "import", body: .collect(maxSize: PortalProductForm.maxBodySize), use: run)
    }

    struct Form: Content {
        var csv: File?
        var photos: File?
        var mode: String?
    }

    struct Result: Encodable {
        var dryRun: Bool
        var imported: Bool
        var products: Int
        var variants: Int
        var photos: Int
        var errors: [Line]
    }

    struct Line: Encodable {
        var row: Int
        var column: String
        var message: String
    }

    struct Page: WebPageContext {
        var page: PageContext
        var store: PortalRoutes.StoreNav
        var result: Result?
        var formError: String?
    }

    static func render(_ req: Request, result: Result? = nil, formError: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "import")
        return try await req.renderPage("catalog/portal-import", Page(page: PageContext(req, title: "\(store.name) · import"), store: nav, result: result, formError: formError))
            .encodeResponse(status: status, for: req)
    }

    static func run(_ req: Request) async throws -> Response {
        let (store, _) = try await PortalRoutes.managedStore(req, section: "import")
        let form = try req.content.decode(Form.self)
        guard let csv = form.csv, csv.data.readableBytes > 0 else {
            return try await render(req, formError: "Choose the CSV file.", status: .unprocessableEntity)
        }
        let dryRun = form.mode != "import"
        var zipURL: URL?
        if let photos = form.photos, photos.data.readableBytes > 0 {
            let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("atelier-import-\(UUID().uuidString).zip")
            try Data(buffer: photos.data).write(to: url)
            zipURL = url
        }
        defer { if let zipURL { try? FileManager.default.removeItem(at: zipURL) } }
        let importer = ProductImport(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media)
        do {
            let report = try await importer.run(
                storeID: store.requireID(), csv: Data(buffer: csv.data), photos: zipURL, dryRun: dryRun, by: try req.requireWebUser())
            let lines = report.errors.map { Line(row: $0.row, column: $0.column, message: $0.message) }
            let result = Result(
                dryRun: dryRun, imported: !dryRun && lines.isEmpty, products: report.products, variants: report.variants, photos: report.photos,
                errors: lines)
            return try await render(req, result: result, status: lines.isEmpty ? .ok : .unprocessableEntity)
        } catch let problem as Problem where problem.status.code < 500 {
            let lines = problem.errors.map { Line(row: 0, column: $0.field, message: $0.message) }
            let result = Result(dryRun: dryRun, imported: false, products: 0, variants: 0, photos: 0, errors: lines)
            return try await render(req, result: lines.isEmpty ? nil : result, formError: problem.detail ?? problem.title, status: problem.status)
        }
    }
}
