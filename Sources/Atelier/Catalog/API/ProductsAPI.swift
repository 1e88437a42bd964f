import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// Products: public reads, staff writes under `/stores/{storeId}/products`, unavailable reports.
extension APIHandler {
    func getProduct(_ input: Operations.GetProduct.Input) async throws -> Operations.GetProduct.Output {
        let req = try request()
        let caller = try await req.optionalCaller()
        let id = try PathID.parse(input.path.productId, "product")
        let view = try await req.reading { db in try await ProductCatalog(db: db).visibleView(id, to: caller?.user) }
        if view.product.isActive {
            let (productID, storeID) = (view.product.id, view.store.id)
            await services.catalogCounters.add(.view, productID: productID, storeID: storeID)
            req.repeatWhenKept { await $0.atelier.catalogCounters.add(.view, productID: productID, storeID: storeID) }
        }
        return .ok(.init(body: .json(try await productBody(view: view, req))))
    }

    func listProducts(_ input: Operations.ListProducts.Input) async throws -> Operations.ListProducts.Output {
        let req = try request()
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        var errors = FieldErrors()
        func price(_ value: Int64?, _ field: String) -> Int? {
            guard let value else { return nil }
            guard value >= 0, let minor = Int(exactly: value), minor < 1 << 50 else { errors.add(field, "must be between 0 and 2^50"); return nil }
            return minor
        }
        let filter = ProductCatalog.ListFilter(
            categoryID: try input.query.categoryId.map { try PathID.parse($0, "category") },
            brandID: try input.query.brandId.map { try PathID.parse($0, "brand") },
            priceMin: price(input.query.priceMin, "priceMin"), priceMax: price(input.query.priceMax, "priceMax"),
            visibility: try await req.storeVisibility(for: req.optionalCaller()?.user))
        if let min = filter.priceMin, let max = filter.priceMax, min > max { errors.add("priceMax", "must not be below priceMin") }
        try errors.throwIfAny()
        let products = try await req.reading { db in try await ProductCatalog(db: db).activeProducts(filter, page: page) }
        return .ok(.init(body: .json(.init(items: try await productCards(cards: products.items, req), nextCursor: products.nextCursor))))
    }

    func listStoreProducts(_ input: Operations.ListStoreProducts.Input) async throws -> Operations.ListStoreProducts.Output {
        let req = try request()
        let caller = try await req.optionalCaller()
        let access = StoreAccess(db: req.db)
        let store = try await access.visibleStore(input.path.storeId, to: caller?.user)
        let status: Product.Status = input.query.status == .inactive ? .inactive : .active
        if status == .inactive, !(try await access.canManage(store, user: caller?.user)) {
            // Signed out or not staff: the inactive tab does not exist for them.
            throw Problem.notFound("store")
        }
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let storeID = try store.requireID()
        let categoryID = try input.query.categoryId.map { try PathID.parse($0, "category") }
        let products = try await req.reading { db in
            try await ProductCatalog(db: db).storeProducts(storeID, status: status, categoryID: categoryID, page: page)
        }
        return .ok(.init(body: .json(.init(items: try await productBodies(products.items, req), nextCursor: products.nextCursor))))
    }

    func createProduct(_ input: Operations.CreateProduct.Input) async throws -> Operations.CreateProduct.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: user)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let product = try await ProductService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).create(in: store, draft: try ProductDraft(body), by: user)
        return .created(.init(body: .json(try await productBody(product, req))))
    }

    func replaceProduct(_ input: Operations.ReplaceProduct.Input) async throws -> Operations.ReplaceProduct.Output {
        let (req, user, product) = try await managedProduct(input.path.storeId, input.path.productId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let updated = try await ProductService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).replace(product, draft: try ProductDraft(body), by: user)
        return .ok(.init(body: .json(try await productBody(updated, req))))
    }

    func deleteProduct(_ input: Operations.DeleteProduct.Input) async throws -> Operations.DeleteProduct.Output {
        let (req, _, product) = try await managedProduct(input.path.storeId, input.path.productId)
        try await ProductService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).delete(product)
        return .noContent(.init())
    }

    func activateProduct(_ input: Operations.ActivateProduct.Input) async throws -> Operations.ActivateProduct.Output {
        let (req, _, product) = try await managedProduct(input.path.storeId, input.path.productId)
        let updated = try await ProductService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).setStatus(product, to: .active)
        return .ok(.init(body: .json(try await productBody(updated, req))))
    }

    func deactivateProduct(_ input: Operations.DeactivateProduct.Input) async throws -> Operations.DeactivateProduct.Output {
        let (req, _, product) = try await managedProduct(input.path.storeId, input.path.productId)
        let updated = try await ProductService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).setStatus(product, to: .inactive)
        return .ok(.init(body: .json(try await productBody(updated, req))))
    }

    func setProductPhotos(_ input: Operations.SetProductPhotos.Input) async throws -> Operations.SetProductPhotos.Output {
        let (req, user, product) = try await managedProduct(input.path.storeId, input.path.productId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        var errors = FieldErrors()
        let ids = body.photoIds.enumerated().compactMap { index, raw in
            UUID(uuidString: raw) ?? { errors.add("photoIds[\(index)]", "is not an id"); return nil }()
        }
        try errors.throwIfAny()
        let updated = try await ProductService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).setPhotos(of: product, to: ids, by: user)
        return .ok(.init(body: .json(try await productBody(updated, req))))
    }

    func reportProductUnavailable(_ input: Operations.ReportProductUnavailable.Input) async throws -> Operations.ReportProductUnavailable.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let product = try await ProductCatalog(db: req.db).visibleProduct(try PathID.parse(input.path.productId, "product"), to: user)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let report = try await UnavailableReportService(db: req.db, core: services.core).report(product, by: user, note: body.note)
        report.$product.value = product
        return .created(.init(body: .json(.init(report))))
    }

    func listUnavailableReports(_ input: Operations.ListUnavailableReports.Input) async throws -> Operations.ListUnavailableReports.Output {
        let req = try request()
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: try await req.requireCaller().user)
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let reports = try await UnavailableReportService(db: req.db, core: services.core).open(for: store.requireID(), page: page)
        return .ok(.init(body: .json(.init(items: reports.items.map(Components.Schemas.UnavailableReport.init), nextCursor: reports.nextCursor))))
    }

    func resolveUnavailableReport(_ input: Operations.ResolveUnavailableReport.Input) async throws -> Operations.ResolveUnavailableReport.Output {
        let req = try request()
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: try await req.requireCaller().user)
        let report = try await UnavailableReportService(db: req.db, core: services.core)
            .resolve(try PathID.parse(input.path.reportId, "report"), in: store.requireID())
        return .ok(.init(body: .json(.init(report))))
    }

    // MARK: Helpers

    /// The product of a store the caller manages; another store's product is a 404.
    func managedProduct(_ storeID: String, _ productID: String) async throws -> (Request, User, Product) {
        let req = try request()
        let user = try await req.requireCaller().user
        let store = try await StoreAccess(db: req.db).managedStore(storeID, by: user)
        guard let product = try await Product.find(try PathID.parse(productID, "product"), on: req.db),
            product.$store.id == store.id
        else { throw Problem.notFound("product") }
        return (req, user, product)
    }

    /// One product's body; a 404 when it was deleted meanwhile (a delete racing this request).
    func productBody(_ product: Product, _ req: Request) async throws -> Components.Schemas.Product {
        guard let body = try await productBodies([product], req).first else { throw Problem.notFound("product") }
        return body
    }

    func productBody(view: ProductView, _ req: Request) async throws -> Components.Schemas.Product {
        guard let body = try await productBodies(views: [view], req).first else { throw Problem.notFound("product") }
        return body
    }

    func productBodies(_ products: [Product], _ req: Request) async throws -> [Components.Schemas.Product] {
        try await productBodies(views: ProductCatalog(db: req.db).views(products), req)
    }

    /// Cards for a list (`ProductCard`); `origin` is the place the list is about, for distances.
    func productCards(cards: [ProductCardView], _ req: Request, from origin: Components.Schemas.ProductCard.Origin? = nil)
        async throws -> [Components.Schemas.ProductCard]
    {
        let media = MediaService(db: req.db, core: services.core, mediaLibrary: services.media)
        var bodies = cards.map { Components.Schemas.ProductCard($0, media: media, baseURL: services.config.publicBaseURL, from: origin) }
        try await addViewerState(
            to: &bodies, of: cards.map { ($0.id, $0.store.id, $0.currency, $0.tradePriceMinor, $0.caseSize) }, req,
            viewer: \.viewer, tradePrice: \.tradePrice, caseSize: \.caseSize)
        return bodies
    }

    func productCards(_ products: [Product], _ req: Request, from origin: Components.Schemas.ProductCard.Origin? = nil)
        async throws -> [Components.Schemas.ProductCard]
    {
        try await productCards(cards: try await ProductCardReader(db: req.db).cards(ids: products.compactMap(\.id)), req, from: origin)
    }

    func productBodies(views: [ProductView], _ req: Request) async throws -> [Components.Schemas.Product] {
        let images = try await CatalogImages.load(
            stores: views.map(\.store), brands: views.compactMap(\.brand), media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media))
        var bodies = views.map { Components.Schemas.Product($0, images: images, baseURL: services.config.publicBaseURL) }
        try await addViewerState(
            to: &bodies, of: views.map { ($0.product.id, $0.store.id, $0.product.currency, $0.product.tradePriceMinor, $0.product.caseSize) },
            req, viewer: \.viewer, tradePrice: \.tradePrice, caseSize: \.caseSize)
        return bodies
    }
}
