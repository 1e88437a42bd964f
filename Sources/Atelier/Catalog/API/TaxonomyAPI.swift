import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/brands…` and `/categories…`: public reads, admin writes, store brand proposals.
extension APIHandler {
    func listBrands(_ input: Operations.ListBrands.Input) async throws -> Operations.ListBrands.Output {
        let req = try request()
        let status: Brand.Status = input.query.status == .proposed ? .proposed : .approved
        if status == .proposed { try await req.requireCaller().user.requireAdmin() }
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let brands = try await BrandService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).list(prefix: input.query.q, status: status, page: page)
        let images = try await CatalogImages.load(brands: brands.items, media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media))
        var bodies = brands.items.map { Components.Schemas.Brand($0, images: images) }
        try await addViewerState(to: &bodies, req)
        return .ok(.init(body: .json(.init(items: bodies, nextCursor: brands.nextCursor))))
    }

    func createBrand(_ input: Operations.CreateBrand.Input) async throws -> Operations.CreateBrand.Output {
        let req = try request()
        let admin = try await req.requireCaller().user
        try admin.requireAdmin()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let brand = try await BrandService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media)
            .create(name: body.name, logoID: try logoID(body.logoId), status: .approved, proposedBy: nil, by: admin)
        return .created(.init(body: .json(try await brandBody(brand, req))))
    }

    func proposeBrand(_ input: Operations.ProposeBrand.Input) async throws -> Operations.ProposeBrand.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: user)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let brand = try await BrandService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media)
            .create(name: body.name, logoID: try logoID(body.logoId), status: .proposed, proposedBy: store.requireID(), by: user)
        return .created(.init(body: .json(try await brandBody(brand, req))))
    }

    func updateBrand(_ input: Operations.UpdateBrand.Input) async throws -> Operations.UpdateBrand.Output {
        let req = try request()
        let admin = try await req.requireCaller().user
        try admin.requireAdmin()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let service = BrandService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media)
        let brand = try await service.find(try PathID.parse(input.path.brandId, "brand"))
        let updated = try await service.update(brand, name: body.name, logoID: try logoID(body.logoId), by: admin)
        return .ok(.init(body: .json(try await brandBody(updated, req))))
    }

    func approveBrand(_ input: Operations.ApproveBrand.Input) async throws -> Operations.ApproveBrand.Output {
        let req = try request()
        try await req.requireCaller().user.requireAdmin()
        let service = BrandService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media)
        let brand = try await service.approve(try await service.find(try PathID.parse(input.path.brandId, "brand")))
        return .ok(.init(body: .json(try await brandBody(brand, req))))
    }

    func listCategories(_ input: Operations.ListCategories.Input) async throws -> Operations.ListCategories.Output {
        let req = try request()
        let tree = try await CategoryService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).tree()
        let images = try await CatalogImages.load(categories: CategoryService.Node.all(tree), media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media))
        return .ok(.init(body: .json(.init(items: tree.map { .init($0, images: images) }))))
    }

    func createCategory(_ input: Operations.CreateCategory.Input) async throws -> Operations.CreateCategory.Output {
        let req = try request()
        try await req.requireCaller().user.requireAdmin()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let parentID = try body.parentId.map { raw in
            guard let id = UUID(uuidString: raw) else { throw Problem.invalid("parentId", "is not an id") }
            return id
        }
        let category = try await CategoryService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media)
            .create(name: body.name, gender: body.gender.rawValue, parentID: parentID)
        return .created(.init(body: .json(try await categoryBody(category, req))))
    }

    func renameCategory(_ input: Operations.RenameCategory.Input) async throws -> Operations.RenameCategory.Output {
        let (service, category) = try await adminCategory(input.path.categoryId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        var errors = FieldErrors()
        var imageID: UUID?? = body.removeImage == true ? .some(nil) : nil
        if let raw = body.imageId {
            if let id = UUID(uuidString: raw) { imageID = .some(id) } else { errors.add("imageId", "is not an id") }
        }
        try errors.throwIfAny()
        let admin = try await request().requireCaller().user
        let updated = try await service.update(
            category, .init(name: body.name, gender: body.gender?.rawValue, description: body.description, imageID: imageID), by: admin)
        return .ok(.init(body: .json(try await categoryBody(updated, try request()))))
    }

    func deleteCategory(_ input: Operations.DeleteCategory.Input) async throws -> Operations.DeleteCategory.Output {
        let (service, category) = try await adminCategory(input.path.categoryId)
        try await service.delete(category)
        return .noContent(.init())
    }

    func moveCategory(_ input: Operations.MoveCategory.Input) async throws -> Operations.MoveCategory.Output {
        let (service, category) = try await adminCategory(input.path.categoryId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let parentID = try body.parentId.map { raw in
            guard let id = UUID(uuidString: raw) else { throw Problem.invalid("parentId", "is not an id") }
            return id
        }
        let moved = try await service.move(category, under: parentID)
        return .ok(.init(body: .json(try await categoryBody(moved, try request()))))
    }

    func mergeCategory(_ input: Operations.MergeCategory.Input) async throws -> Operations.MergeCategory.Output {
        let (service, category) = try await adminCategory(input.path.categoryId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        guard let intoID = UUID(uuidString: body.intoId), let target = try? await service.find(intoID) else {
            throw Problem.invalid("intoId", "does not exist")
        }
        let merged = try await service.merge(category, into: target)
        return .ok(.init(body: .json(try await categoryBody(merged, try request()))))
    }

    // MARK: Helpers

    private func adminCategory(_ raw: String) async throws -> (CategoryService, Category) {
        let req = try request()
        try await req.requireCaller().user.requireAdmin()
        let service = CategoryService(db: req.db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media)
        return (service, try await service.find(try PathID.parse(raw, "category")))
    }

    private func logoID(_ raw: String?) throws -> UUID? {
        try raw.map { raw in
            guard let id = UUID(uuidString: raw) else { throw Problem.invalid("logoId", "is not an id") }
            return id
        }
    }

    private func categoryBody(_ category: Category, _ req: Request) async throws -> Components.Schemas.Category {
        .init(category: category, images: try await CatalogImages.load(categories: [category], media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media)))
    }

    private func brandBody(_ brand: Brand, _ req: Request) async throws -> Components.Schemas.Brand {
        .init(brand, images: try await CatalogImages.load(brands: [brand], media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media)))
    }
}
