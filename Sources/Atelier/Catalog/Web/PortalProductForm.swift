import Fluent
import OpenAPIRuntime
import Vapor

/// The new/edit product form: fields, sizes with stock, and photos. New photos arrive in the same
/// multipart post, each with the crop and rotation chosen in the browser (crop.js); without
/// JavaScript they are taken as they are. Kept photos are reordered by their position fields.
enum PortalProductForm {
    static let maxBodySize: ByteCount = "120mb"

    static func register(_ store: any RoutesBuilder) {
        store.get("products", "new", use: newForm)
        store.on(.POST, "products", body: .collect(maxSize: maxBodySize), use: create)
        store.get("products", ":productID", "edit", use: editForm)
        store.on(.POST, "products", ":productID", "edit", body: .collect(maxSize: maxBodySize), use: update)
    }

    struct Form: Content {
        var title: String?
        var description: String?
        var brandId: String?
        var categoryId: String?
        var gender: String?
        var price: String?
        var originalPrice: String?
        var currency: String?
        var colors: [String]?
        var colorName: String?
        var fabric: String?
        var styles: [String]?
        var sizes: [String]?
        var variantColors: [String]?
        var stocks: [String]?
        /// The counts the form showed when it was opened (hidden), so a save cannot undo a handover.
        var loadedStocks: [String]?
        var skus: [String]?
        var photoIds: [String]?
        var positions: [String]?
        var removePhotos: [String]?
        var photos: [File]?
        var crops: [String]?
        var rotations: [String]?
        var minAge: String?
        var externalUrl: String?
        var status: String?
    }

    static func newForm(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "products")
        var values = ["currency": "SEK", "gender": "women", "status": "inactive"]
        if let last = try await Product.query(on: req.db).filter(\.$store.$id == store.requireID()).sort(\.$id, .descending).first() {
            values["currency"] = last.currency
        }
        return try await render(req, store: store, nav: nav, product: nil, values: values, variants: [], photoIDs: [])
    }

    static func editForm(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "products")
        let product = try await PortalRoutes.managedProduct(req, in: store)
        let draft = try await ProductService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media).draft(of: product)
        let values: [String: String] = [
            "title": draft.title, "description": draft.description, "brandId": draft.brandID?.idString ?? "",
            "categoryId": draft.categoryID?.idString ?? "", "gender": draft.gender,
            "price": MoneyText.plain(draft.priceMinor, draft.currency),
            "originalPrice": draft.originalPriceMinor.map { MoneyText.plain($0, draft.currency) } ?? "", "currency": draft.currency,
            "colors": draft.colors.joined(separator: ","), "colorName": draft.colorName, "fabric": draft.fabric,
            "styles": draft.styles.joined(separator: ","), "minAge": draft.minAge.map(String.init) ?? "",
            "externalUrl": draft.externalURL ?? "", "status": product.status,
        ]
        return try await render(req, store: store, nav: nav, product: product, values: values, variants: draft.variants, photoIDs: draft.photoIDs)
    }

    static func create(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "products")
        return try await save(req, store: store, nav: nav, product: nil)
    }

    static func update(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "products")
        let product = try await PortalRoutes.managedProduct(req, in: store)
        return try await save(req, store: store, nav: nav, product: product)
    }

    /// Reads the form, stores new photos, saves; any problem re-renders the form with the messages
    /// at their fields and the photos already uploaded kept.
    static func save(_ req: Request, store: Store, nav: PortalRoutes.StoreNav, product: Product?) async throws -> Response {
        let user = try req.requireWebUser()
        let form = try req.content.decode(Form.self)
        var errors = FieldErrors()
        let (draft, values, variants) = ProductFormReader.draft(from: form, errors: &errors)
        var draftWithPhotos = draft
        var photoIDs = ProductFormReader.keptPhotos(form)
        photoIDs += try await ingestNewPhotos(form, user: user, req: req, errors: &errors)
        draftWithPhotos.photoIDs = photoIDs
        do {
            try errors.throwIfAny()
            let service = ProductService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media)
            let saved: Product
            if let product {
                saved = try await service.replace(product, draft: draftWithPhotos, by: user)
                if saved.status != draft.status.rawValue { _ = try await service.setStatus(saved, to: draft.status) }
            } else {
                saved = try await service.create(in: store, draft: draftWithPhotos, by: user)
            }
            Flash.set("success", "\(saved.title) was saved as \(draft.status.rawValue).", on: req)
            return req.redirect(to: "/portal/stores/\(nav.id)/products?tab=\(draft.status.rawValue)")
        } catch let problem as Problem where problem.status.code < 500 {
            let fieldErrors = ProductFormReader.formFields(problem.errors)
            let formError = fieldErrors.isEmpty ? (problem.detail ?? problem.title) : "Check the fields marked below."
            return try await render(
                req, store: store, nav: nav, product: product, values: values, variants: variants, photoIDs: photoIDs,
                errors: fieldErrors, formError: formError, status: problem.status)
        }
    }

    /// Each new photo goes through the media pipeline with its crop and rotation.
    static func ingestNewPhotos(_ form: Form, user: User, req: Request, errors: inout FieldErrors) async throws -> [UUID] {
        let files = (form.photos ?? []).filter { $0.data.readableBytes > 0 }
        var ids: [UUID] = []
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        for (index, file) in files.enumerated() {
            do {
                let crop = (form.crops?[safe: index]).flatMap { $0.isEmpty ? nil : $0 }
                let rotate = (form.rotations?[safe: index]).flatMap { Int($0) } ?? 0
                let edits = ImageEdits(crop: try crop.map(MediaParameters.crop), rotate: rotate, whiteBackground: false)
                let upload = MediaService.Upload(
                    uploaderID: try user.requireID(), claimed: ImageFormat.claimed(mediaType: file.contentType?.description, filename: file.filename),
                    edits: edits, visibility: .private)
                let stored = try await media.ingest(upload, body: HTTPBody(Array(file.data.readableBytesView)))
                ids.append(try stored.requireID())
            } catch let problem as Problem where problem.status.code < 500 {
                errors.add("photos", "\(file.filename): \(problem.detail ?? problem.title)")
            }
        }
        return ids
    }

    struct Option: Encodable {
        var value: String
        var label: String
        var selected: Bool
    }

    struct PhotoRow: Encodable {
        var id: String
        var position: Int
        var image: WebImage?
    }

    struct VariantRow: Encodable {
        var index: Int
        var row: Int
        var size: String
        var color: String
        var stock: String
        var loadedStock: String
        var sku: String
    }

    struct Page: WebPageContext {
        var page: PageContext
        var store: PortalRoutes.StoreNav
        var isNew: Bool
        var action: String
        var productID: String?
        var values: [String: String]
        var errors: [String: String]
        var formError: String?
        var categories: [Option]
        var brands: [Option]
        var genders: [Option]
        var currencies: [Option]
        var colors: [Option]
        var styles: [Option]
        var variants: [VariantRow]
        var photos: [PhotoRow]
        var maxNewPhotos: Int
    }

    static func render(
        _ req: Request, store: Store, nav: PortalRoutes.StoreNav, product: Product?, values: [String: String],
        variants: [ProductDraft.Variant], photoIDs: [UUID], errors: [String: String] = [:], formError: String? = nil,
        status: HTTPStatus = .ok
    ) async throws -> Response {
        let options = try await ProductFormOptions.load(req: req, store: store, values: values)
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let rows = try await Media.query(on: req.db).filter(\.$id ~~ photoIDs).all()
        let photos = photoIDs.enumerated().compactMap { index, id -> PhotoRow? in
            guard let row = rows.first(where: { $0.id == id }) else { return nil }
            return PhotoRow(id: id.idString, position: index + 1, image: WebImage(row, alt: "Photo \(index + 1)", service: media, preferredWidth: 270))
        }
        var variantRows = variants.enumerated().map { index, variant in
            VariantRow(
                index: index, row: index + 1, size: variant.size, color: variant.color ?? "", stock: String(variant.stock),
                loadedStock: variant.expectedStock.map(String.init) ?? String(variant.stock), sku: variant.sku ?? "")
        }
        while variantRows.count < max(4, variants.count + 2) {
            variantRows.append(VariantRow(index: variantRows.count, row: variantRows.count + 1, size: "", color: "", stock: "", loadedStock: "", sku: ""))
        }
        let productID = product?.id?.idString
        let action = productID.map { "/portal/stores/\(nav.id)/products/\($0)/edit" } ?? "/portal/stores/\(nav.id)/products"
        let page = Page(
            page: PageContext(req, title: product == nil ? "New product" : "Edit \(product!.title)"), store: nav, isNew: product == nil,
            action: action, productID: productID, values: values, errors: errors, formError: formError, categories: options.categories,
            brands: options.brands, genders: options.genders, currencies: options.currencies, colors: options.colors,
            styles: options.styles, variants: variantRows, photos: photos,
            maxNewPhotos: max(0, CatalogVocabulary.maxPhotos - photos.count))
        return try await req.renderPage("catalog/portal-product-form", page).encodeResponse(status: status, for: req)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
