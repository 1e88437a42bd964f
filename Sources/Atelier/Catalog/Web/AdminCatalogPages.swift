import Fluent
import OpenAPIRuntime
import Vapor

/// `/admin`'s catalogue pages: brands (with approval of proposals), the category tree, stores, on the
/// admin group the shell gives (`AdminShell`). Every action redirects back with a message; refusals
/// are shown the same way.
enum AdminCatalogPages {
    static func register(_ admin: any RoutesBuilder) {
        admin.get("brands", use: brands)
        admin.post("brands") { req in try await AdminActions.act(req, back: "/admin/brands") { user in
            _ = try await BrandService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media).create(
                name: try req.content.get(String.self, at: "name"), logoID: nil, status: .approved, proposedBy: nil, by: user)
            return "Brand added."
        } }
        admin.post("brands", ":id", "approve") { req in try await AdminActions.act(req, back: "/admin/brands") { _ in
            let service = BrandService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media)
            let brand = try await service.approve(try await service.find(try AdminActions.id(req)))
            return "\(brand.name) is approved."
        } }
        admin.post("brands", ":id", "rename") { req in try await AdminActions.act(req, back: "/admin/brands") { user in
            let service = BrandService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media)
            _ = try await service.update(try await service.find(try AdminActions.id(req)), name: try req.content.get(String.self, at: "name"), logoID: nil, by: user)
            return "Brand renamed."
        } }
        admin.get("categories", use: categories)
        admin.post("categories") { req in try await AdminActions.act(req, back: "/admin/categories") { _ in
            let parent = (try? req.content.get(String.self, at: "parentId")).flatMap(UUID.init(uuidString:))
            _ = try await CategoryService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media).create(
                name: try req.content.get(String.self, at: "name"), gender: try req.content.get(String.self, at: "gender"), parentID: parent)
            return "Category added."
        } }
        admin.post("categories", ":id", ":action", use: categoryAction)
        admin.get("stores", use: stores)
        admin.post("stores") { req in try await AdminActions.act(req, back: "/admin/stores") { _ in
            struct Form: Content { var name: String; var street: String; var postalCode: String?; var city: String; var lat: String; var lng: String; var ownerEmail: String? }
            let form = try req.content.decode(Form.self)
            guard let lat = Double(form.lat), let lng = Double(form.lng) else { throw Problem.invalid("location", "needs numbers for latitude and longitude") }
            let store = try await StoreService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mailOutbox: req.atelier.mailOutbox, mediaLibrary: req.atelier.media).create(.init(
                name: form.name, street: form.street, postalCode: form.postalCode ?? "", city: form.city, lat: lat, lng: lng,
                ownerEmail: (form.ownerEmail ?? "").isEmpty ? nil : form.ownerEmail))
            return "\(store.name) was created."
        } }
        admin.post("stores", ":id", ":action", use: storeAction)
    }

    struct BrandsPage: WebPageContext {
        var page: PageContext
        var proposals: [Row]
        var approved: [Row]
    }

    struct Row: Encodable {
        var id: String
        var name: String
        var detail: String
    }

    static func brands(_ req: Request) async throws -> View {
        let all = try await Brand.query(on: req.db).sort(\.$slug).all()
        let rows = { (brands: [Brand]) in brands.map { Row(id: $0.id!.idString, name: $0.name, detail: $0.slug) } }
        return try await req.renderPage("admin/brands", BrandsPage(
            page: PageContext(req, title: "Brands"), proposals: rows(all.filter { !$0.isApproved }), approved: rows(all.filter(\.isApproved))))
    }

    struct CategoriesPage: WebPageContext {
        var page: PageContext
        var nodes: [Node]
    }

    struct Node: Encodable {
        var id: String
        var name: String
        var label: String
        var gender: String
        var depth: Int
        var description: String
        var image: WebImage?
    }

    static func categories(_ req: Request) async throws -> View {
        var nodes: [Node] = []
        func walk(_ level: [CategoryService.Node], trail: [String]) {
            for node in level {
                let names = trail + [node.category.name]
                nodes.append(Node(id: node.category.id!.idString, name: node.category.name, label: names.joined(separator: " › "),
                                  gender: node.category.gender, depth: node.category.depth, description: node.category.description,
                                  image: WebImage(node.category.imageMediaID.flatMap { pictures[$0] }, alt: node.category.name, service: media)))
                walk(node.children, trail: names)
            }
        }
        let tree = try await CategoryService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media).tree()
        let pictures = try await ProductViewReader(db: req.db).media(ids: CategoryService.Node.all(tree).compactMap(\.imageMediaID))
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        walk(tree, trail: [])
        return try await req.renderPage("admin/categories", CategoriesPage(page: PageContext(req, title: "Categories"), nodes: nodes))
    }

    static func categoryAction(_ req: Request) async throws -> Response {
        try await AdminActions.act(req, back: "/admin/categories") { _ in
            let service = CategoryService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media)
            let category = try await service.find(try AdminActions.id(req))
            switch req.parameters.get("action") {
            case "rename":
                _ = try await service.update(category, name: try req.content.get(String.self, at: "name"), gender: nil)
                return "Renamed."
            case "move":
                let parent = (try? req.content.get(String.self, at: "parentId")).flatMap(UUID.init(uuidString:))
                _ = try await service.move(category, under: parent)
                return "\(category.name) moved, with everything under it."
            case "describe":
                struct Form: Content { var description: String?; var image: File?; var removeImage: String? }
                let form = try req.content.decode(Form.self)
                var imageID: UUID?? = form.removeImage == "on" ? .some(nil) : nil
                if let file = form.image, file.data.readableBytes > 0 {
                    let admin = try req.requireWebUser()
                    let upload = MediaService.Upload(
                        uploaderID: try admin.requireID(), claimed: ImageFormat.claimed(mediaType: file.contentType?.description, filename: file.filename),
                        edits: ImageEdits(), visibility: .public)
                    imageID = .some(try await MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
                        .ingest(upload, body: HTTPBody(Array(file.data.readableBytesView))).requireID())
                }
                _ = try await service.update(category, .init(description: form.description, imageID: imageID), by: try req.requireWebUser())
                return "\(category.name): description and picture saved."
            case "merge":
                guard let into = (try? req.content.get(String.self, at: "intoId")).flatMap(UUID.init(uuidString:)) else {
                    throw Problem.invalid("intoId", "choose the category to merge into")
                }
                let target = try await service.merge(category, into: try await service.find(into))
                return "\(category.name) was merged into \(target.name)."
            case "delete":
                try await service.delete(category)
                return "\(category.name) was deleted."
            default:
                throw Problem.notFound()
            }
        }
    }

    struct StoresPage: WebPageContext {
        var page: PageContext
        var stores: [StoreRow]
    }

    struct StoreRow: Encodable {
        var id: String
        var name: String
        var slug: String
        var city: String
        var suspended: Bool
        var products: Int
    }

    static func stores(_ req: Request) async throws -> View {
        let all = try await Store.query(on: req.db).sort(\.$name).all()
        return try await req.renderPage("admin/stores", StoresPage(page: PageContext(req, title: "Stores"), stores: all.map {
            StoreRow(id: $0.id!.idString, name: $0.name, slug: $0.slug, city: $0.city, suspended: !$0.isActive, products: $0.activeProductCount)
        }))
    }

    static func storeAction(_ req: Request) async throws -> Response {
        try await AdminActions.act(req, back: "/admin/stores") { user in
            guard let store = try await Store.find(try AdminActions.id(req), on: req.db) else { throw Problem.notFound("store") }
            let service = StoreService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mailOutbox: req.atelier.mailOutbox, mediaLibrary: req.atelier.media)
            switch req.parameters.get("action") {
            case "suspend":
                _ = try await service.setStatus(store, .suspended)
                return "\(store.name) is suspended."
            case "reinstate":
                _ = try await service.setStatus(store, .active)
                return "\(store.name) is active again."
            case "owner":
                let email = try req.content.get(String.self, at: "email").trimmingCharacters(in: .whitespaces).lowercased()
                guard let owner = try await User.query(on: req.db).filter(\.$email == email).first() else {
                    throw Problem.invalid("email", "belongs to no account")
                }
                try await StaffService(db: req.db, core: req.core, mailOutbox: req.atelier.mailOutbox).addMember(owner, to: store, role: .owner)
                return "\(email) now owns \(store.name)."
            default:
                throw Problem.notFound()
            }
        }
    }
}
