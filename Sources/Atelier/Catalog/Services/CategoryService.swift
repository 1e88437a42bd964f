import Fluent
import Foundation
import SQLKit

/// The category tree: add, rename, move (with the whole subtree), merge and delete.
struct CategoryService {
    struct Node: Sendable {
        var category: Category
        var children: [Node]

        /// Every category of `nodes` and below, parents first.
        static func all(_ nodes: [Node]) -> [Category] { nodes.flatMap { [$0.category] + all($0.children) } }
    }

    let db: any Database
    let core: CoreServices
    let catalogChanges: CatalogChanges
    let catalogIndexing: any CatalogIndexing
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }

    /// All categories as a tree, siblings by name.
    func tree() async throws -> [Node] {
        let all = try await Category.query(on: db).sort(\.$depth).all()
        let byParent = Dictionary(grouping: all, by: { $0.parentID })
        func build(_ parent: UUID?) -> [Node] {
            (byParent[parent] ?? [])
                .sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
                .map { Node(category: $0, children: build($0.id)) }
        }
        return build(nil)
    }

    func find(_ id: UUID) async throws -> Category {
        guard let category = try await Category.find(id, on: db) else { throw Problem.notFound("category") }
        return category
    }

    /// Names from the top down to `category`, read from its path.
    func trail(of category: Category) async throws -> [String] {
        let ids = Self.ancestorIDs(path: category.path)
        let rows = try await Category.query(on: db).filter(\.$id ~~ ids).all()
        return ids.compactMap { id in rows.first { $0.id == id }?.name }
    }

    func create(name rawName: String, gender: String, parentID: UUID?) async throws -> Category {
        let name = try Self.validName(rawName)
        guard CatalogVocabulary.genders.contains(gender) else { throw Problem.invalid("gender", "must be women, men or unisex") }
        var parent: Category?
        if let parentID {
            guard let found = try await Category.find(parentID, on: db) else { throw Problem.invalid("parentId", "does not exist") }
            parent = found
        }
        try await requireFreeName(name, parentID: parentID, except: nil)
        let category = Category()
        let id = UUID.v7(at: now)
        category.id = id
        category.parentID = parentID
        category.name = name
        category.slug = Slug.make(name)
        category.gender = gender
        category.path = (parent?.path ?? "") + Category.segment(id)
        category.depth = (parent?.depth ?? -1) + 1
        category.createdAt = now
        category.description = ""
        try await category.create(on: db)
        await catalogChanges.announce()
        return category
    }

    static let maxDescriptionLength = 2000

    /// What an admin may change about a category besides its place in the tree.
    struct Changes: Sendable {
        var name: String?
        var gender: String?
        var description: String?
        /// `.some(nil)` removes the picture.
        var imageID: UUID??
    }

    func update(_ category: Category, name rawName: String?, gender: String?) async throws -> Category {
        try await update(category, Changes(name: rawName, gender: gender), by: nil)
    }

    func update(_ category: Category, _ changes: Changes, by admin: User?) async throws -> Category {
        let rawName = changes.name, gender = changes.gender
        var errors = FieldErrors()
        if let description = changes.description, description.count > Self.maxDescriptionLength {
            errors.add("description", "must be at most \(Self.maxDescriptionLength) characters")
        }
        var picture: Media?
        if let imageID = changes.imageID ?? nil {
            picture = try? await MediaService(db: db, core: core, mediaLibrary: mediaLibrary).visible(imageID, to: admin?.id)
            if picture == nil || !(picture!.ownerType == nil || (picture!.ownerType == "category" && picture!.ownerID == category.id)) {
                errors.add("imageId", "is not an upload of yours")
            }
        }
        try errors.throwIfAny()
        if let description = changes.description { category.description = description.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let imageID = changes.imageID { category.imageMediaID = imageID }
        var renamed = false
        if let rawName {
            let name = try Self.validName(rawName)
            try await requireFreeName(name, parentID: category.parentID, except: category.id)
            renamed = category.name != name
            category.name = name
            category.slug = Slug.make(name)
        }
        if let gender {
            guard CatalogVocabulary.genders.contains(gender) else { throw Problem.invalid("gender", "must be women, men or unisex") }
            category.gender = gender
        }
        let now = core.clock.now()
        try await core.writeTransaction(on: db) { [category, renamed, picture] tx in
            if let picture {
                picture.ownerType = "category"
                picture.ownerID = category.id
                picture.attachedAt = now
                picture.visibility = Media.Visibility.public.rawValue
                try await picture.save(on: tx)
            }
            try await category.save(on: tx)
            if renamed { try await catalogIndexing.refresh(.categorySubtree(path: category.path), in: tx) }
        }
        await catalogChanges.announce()
        return category
    }

    /// Moves `category` and everything under it below `newParentID` (nil: to the top level),
    /// rewriting the subtree's paths in one statement.
    func move(_ category: Category, under newParentID: UUID?) async throws -> Category {
        var newParent: Category?
        if let newParentID {
            guard let found = try await Category.find(newParentID, on: db) else { throw Problem.invalid("parentId", "does not exist") }
            guard !found.path.hasPrefix(category.path) else {
                throw Problem.conflict("A category cannot be moved under itself or one of its own children.", field: "parentId")
            }
            newParent = found
        }
        try await requireFreeName(category.name, parentID: newParentID, except: category.id)
        let oldPath = category.path
        let newPath = (newParent?.path ?? "") + Category.segment(try category.requireID())
        let depthDelta = ((newParent?.depth ?? -1) + 1) - category.depth
        try await core.writeTransaction(on: db) { tx in
            try await Category.query(on: tx).filter(\.$id == category.requireID()).set(\.$parentID, to: newParentID).update()
            try await tx.sql.raw("""
                UPDATE \(ident: Category.schema)
                SET path = \(bind: newPath) || substr(path, CAST(\(bind: oldPath.count + 1) AS INTEGER)), depth = depth + CAST(\(bind: depthDelta) AS INTEGER)
                WHERE path >= \(bind: oldPath) AND path < \(bind: Category.subtreeEnd(oldPath))
                """).run()
            try await catalogIndexing.refresh(.categorySubtree(path: newPath), in: tx)
        }
        await catalogChanges.announce()
        return try await find(category.requireID())
    }

    /// Moves the products and children of `source` into `target`, then deletes `source`.
    func merge(_ source: Category, into target: Category) async throws -> Category {
        guard source.id != target.id else { throw Problem.conflict("A category cannot be merged into itself.", field: "intoId") }
        guard !target.path.hasPrefix(source.path) else {
            throw Problem.conflict("A category cannot be merged into one of its own children.", field: "intoId")
        }
        for child in try await Category.query(on: db).filter(\.$parentID == source.requireID()).all() {
            _ = try await move(child, under: target.requireID())
        }
        try await core.writeTransaction(on: db) { tx in
            try await Product.query(on: tx).filter(\.$categoryID == source.requireID()).set(\.$categoryID, to: target.requireID()).update()
            try await source.delete(on: tx)
            try await catalogIndexing.refresh(.categorySubtree(path: target.path), in: tx)
        }
        await catalogChanges.announce()
        return target
    }

    func delete(_ category: Category) async throws {
        let id = try category.requireID()
        if try await Category.query(on: db).filter(\.$parentID == id).count() > 0 {
            throw Problem.conflict("This category has subcategories; move or merge them first.")
        }
        if try await Product.query(on: db).filter(\.$categoryID == id).count() > 0 {
            throw Problem.conflict("Products are filed under this category; move or merge it instead.")
        }
        try await category.delete(on: db)
        await catalogChanges.announce()
    }

    /// The ids in a path, top first.
    static func ancestorIDs(path: String) -> [UUID] {
        stride(from: 0, to: path.count, by: 32).compactMap { offset in
            let start = path.index(path.startIndex, offsetBy: offset)
            let hex = path[start..<path.index(start, offsetBy: 32)]
            return UUID(uuidString: hex.enumerated().map { i, c in [8, 12, 16, 20].contains(i) ? "-\(c)" : "\(c)" }.joined())
        }
    }

    private static func validName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...80).contains(name.count), !Slug.make(name).isEmpty else { throw Problem.invalid("name", "must be 1 to 80 characters with a letter or digit") }
        return name
    }

    private func requireFreeName(_ name: String, parentID: UUID?, except id: UUID?) async throws {
        let siblings = try await Category.query(on: db).filter(\.$parentID == parentID).all()
        if siblings.contains(where: { $0.id != id && $0.slug == Slug.make(name) }) {
            throw Problem.conflict("There is already a category named \(name) here.", field: "name")
        }
    }
}
