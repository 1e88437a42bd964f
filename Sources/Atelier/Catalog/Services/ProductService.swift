import Fluent
import Foundation
import SQLKit

/// Creates, changes and deletes products. Every change that moves a store's active-product count
/// moves it in the same transaction, by a delta guarded by the row's previous status, so the
/// counter stays exact under concurrent requests.
struct ProductService {
    static let mediaOwnerType = "product"
    let db: any Database
    let core: CoreServices
    let catalogChanges: CatalogChanges
    let catalogIndexing: any CatalogIndexing
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }

    func create(in store: Store, draft input: ProductDraft, by user: User) async throws -> Product {
        let storeID = try store.requireID()
        let draft = try await ProductDraftValidator(db: db).validate(input, storeID: storeID, product: nil, uploaderID: user.requireID())
        let product = Product()
        product.id = .v7(at: now)
        product.$store.id = storeID
        product.likeCount = 0
        product.caseSize = 1
        product.reviewCount = 0
        product.ratingSum = 0
        product.createdAt = now
        product.feedSortKey = try await catalogIndexing.feedSortKey(forNewProductIn: storeID, at: now, on: db)
        apply(draft, to: product)
        product.status = draft.status.rawValue
        try await core.writeTransaction(on: db) { tx in
            try await product.create(on: tx)
            try await replaceVariants(of: product, with: draft.variants, on: tx)
            try await replacePhotos(of: product, with: draft.photoIDs, on: tx)
            try await catalogIndexing.refresh(.products([product.requireID()]), in: tx)
            if product.isActive { try await Self.bumpActiveCount(storeID, by: 1, on: tx) }
        }
        await catalogChanges.announce()
        return product
    }

    /// Replaces details, variants and photos; the status is changed with `setStatus`, not here.
    func replace(_ product: Product, draft input: ProductDraft, by user: User) async throws -> Product {
        let draft = try await ProductDraftValidator(db: db)
            .validate(input, storeID: product.$store.id, product: product, uploaderID: user.requireID())
        let dropped = try await photoIDs(of: product).filter { !draft.photoIDs.contains($0) }
        apply(draft, to: product)
        try await core.writeTransaction(on: db) { tx in
            try await product.save(on: tx)
            try await replaceVariants(of: product, with: draft.variants, on: tx)
            try await replacePhotos(of: product, with: draft.photoIDs, on: tx)
            try await catalogIndexing.refresh(.products([product.requireID()]), in: tx)
        }
        await catalogChanges.announce()
        try await deleteMedia(dropped)
        return product
    }

    func setPhotos(of product: Product, to ids: [UUID], by user: User) async throws -> Product {
        let current = try await draft(of: product)
        var draft = current
        draft.photoIDs = ids
        return try await replace(product, draft: draft, by: user)
    }

    /// Activates or deactivates; a no-op when the product already has that status.
    func setStatus(_ product: Product, to status: Product.Status) async throws -> Product {
        let productID = try product.requireID()
        let previous: Product.Status = status == .active ? .inactive : .active
        try await core.writeTransaction(on: db) { tx in
            let tsql = tx.sql
            let changed = try await tsql.raw("""
                UPDATE \(ident: Product.schema) SET status = \(bind: status.rawValue), updated_at = \(bind: now)
                WHERE id = \(bind: productID) AND status = \(bind: previous.rawValue) RETURNING id
                """).all()
            if !changed.isEmpty {
                try await Self.bumpActiveCount(product.$store.id, by: status == .active ? 1 : -1, on: tx)
            }
        }
        await catalogChanges.announce()
        guard let fresh = try await Product.find(productID, on: db) else { throw Problem.notFound("product") }
        return fresh
    }

    func delete(_ product: Product) async throws {
        let productID = try product.requireID()
        let photos = try await photoIDs(of: product)
        try await core.writeTransaction(on: db) { tx in
            try await catalogIndexing.refresh(.productRemoved(productID), in: tx)
            let deleted = try await tx.sql.raw("""
                DELETE FROM \(ident: Product.schema) WHERE id = \(bind: productID) RETURNING status
                """).all()
            if let status = try deleted.first?.decode(column: "status", as: String.self), status == Product.Status.active.rawValue {
                try await Self.bumpActiveCount(product.$store.id, by: -1, on: tx)
            }
        }
        await catalogChanges.announce()
        try await deleteMedia(photos)
    }

    /// The product as a draft, to change one part of it.
    func draft(of product: Product) async throws -> ProductDraft {
        let variants = try await ProductVariant.query(on: db).filter(\.$product.$id == product.requireID()).sort(\.$position).all()
        return ProductDraft(
            title: product.title, description: product.description, brandID: product.brandID, categoryID: product.categoryID,
            gender: product.gender, priceMinor: product.priceMinor, originalPriceMinor: product.originalPriceMinor,
            currency: product.currency, colors: product.colors, colorName: product.colorName, fabric: product.fabric,
            styles: product.styles,
            variants: variants.map { .init(size: $0.size, color: $0.color, stock: $0.stock, sku: $0.sku) },
            photoIDs: try await photoIDs(of: product), status: Product.Status(rawValue: product.status) ?? .inactive,
            minAge: product.minAge, externalURL: product.externalURL)
    }

    static func bumpActiveCount(_ storeID: UUID, by delta: Int, on db: any Database) async throws {
        try await db.sql.raw("""
            UPDATE \(ident: Store.schema) SET active_product_count = active_product_count + \(bind: delta) WHERE id = \(bind: storeID)
            """).run()
    }

    private func apply(_ draft: ProductDraft, to product: Product) {
        product.title = draft.title
        product.description = draft.description
        product.brandID = draft.brandID
        product.categoryID = draft.categoryID!
        product.gender = draft.gender
        product.priceMinor = draft.priceMinor
        product.originalPriceMinor = draft.originalPriceMinor
        product.currency = draft.currency
        product.colorsList = draft.colors.joined(separator: ",")
        product.colorName = draft.colorName
        product.fabric = draft.fabric
        product.stylesList = draft.styles.joined(separator: ",")
        product.minAge = draft.minAge
        product.externalURL = draft.externalURL
        product.updatedAt = now
    }

    private func photoIDs(of product: Product) async throws -> [UUID] {
        try await ProductPhoto.query(on: db).filter(\.$product.$id == product.requireID()).sort(\.$position).all().map { $0.$media.id }
    }

    /// Updates variants in place (matched by size and colour), so carts and orders keep pointing at
    /// them and the stock that orders took stays counted. A variant with stock taken by open orders
    /// can be neither removed nor set below what they took: that is a 409. Both are conditional
    /// statements, so a checkout taking stock at the same moment cannot slip under them, and
    /// existing rows are written in id order, the order checkouts take them in.
    private func replaceVariants(of product: Product, with variants: [ProductDraft.Variant], on tx: any Database) async throws {
        let productID = try product.requireID()
        let sql = tx.sql
        var existing = try await ProductVariant.query(on: tx).filter(\.$product.$id == productID).all()
        var kept: [(row: ProductVariant, draft: ProductDraft.Variant, position: Int)] = []
        for (position, variant) in variants.enumerated() {
            if let index = existing.firstIndex(where: { $0.size == variant.size && $0.color == variant.color }) {
                kept.append((existing.remove(at: index), variant, position))
                continue
            }
            let row = ProductVariant()
            row.id = UUID()
            row.$product.id = productID
            row.size = variant.size
            row.color = variant.color
            row.stock = variant.stock
            row.sku = variant.sku
            row.position = position
            row.held = 0
            row.allocated = 0
            row.lowStockAlerted = false
            try await row.create(on: tx)
        }
        for (row, variant, position) in kept.sorted(by: { $0.row.id!.uuidString < $1.row.id!.uuidString }) {
            let updated = try await sql.raw("""
                UPDATE \(ident: ProductVariant.schema) SET size = \(bind: variant.size), color = \(bind: variant.color),
                stock = \(bind: variant.stock), sku = \(bind: variant.sku), position = \(bind: position)
                WHERE id = \(bind: row.id!) AND held + allocated <= \(bind: variant.stock)
                AND (\(bind: variant.expectedStock) IS NULL OR stock = \(bind: variant.expectedStock)) RETURNING id
                """).first()
            guard updated != nil else {
                if let expected = variant.expectedStock, let now = try await ProductVariant.find(row.id!, on: tx)?.stock, now != expected {
                    throw Problem.conflict(
                        "Size \(variant.size) now has \(now) on hand (orders were handed over or someone else edited it since you opened the form); check the count and save again.",
                        field: "variants[\(position)].stock")
                }
                let taken = try await ProductVariant.find(row.id!, on: tx).map { $0.held + $0.allocated } ?? 0
                throw Problem.conflict(
                    "\(taken) of size \(variant.size) are taken by open orders; stock cannot go below that.", field: "variants[\(position)].stock")
            }
        }
        for gone in existing.sorted(by: { $0.id!.uuidString < $1.id!.uuidString }) {
            let deleted = try await sql.raw("""
                DELETE FROM \(ident: ProductVariant.schema) WHERE id = \(bind: gone.id!) AND held = 0 AND allocated = 0 RETURNING id
                """).first()
            guard deleted != nil else {
                throw Problem.conflict("Size \(gone.size) is taken by open orders and cannot be removed.", field: "variants")
            }
        }
    }

    /// Orders the photos and attaches them (made public: product pages are public and cacheable).
    /// A photo that another request attached meanwhile is a conflict, and the transaction rolls back.
    private func replacePhotos(of product: Product, with ids: [UUID], on tx: any Database) async throws {
        let productID = try product.requireID()
        try await ProductPhoto.query(on: tx).filter(\.$product.$id == productID).delete()
        guard !ids.isEmpty else { return }
        let claimed = try await tx.sql.raw("""
            UPDATE \(ident: Media.schema) SET owner_type = \(bind: Self.mediaOwnerType), owner_id = \(bind: productID),
            attached_at = \(bind: now), visibility = \(bind: Media.Visibility.public.rawValue)
            WHERE id IN (\(binds: ids)) AND (owner_type IS NULL OR (owner_type = \(bind: Self.mediaOwnerType) AND owner_id = \(bind: productID)))
            RETURNING id
            """).all()
        guard claimed.count == ids.count else {
            throw Problem.conflict("A photo was just used for another product; upload it again.", field: "photoIds")
        }
        for (position, mediaID) in ids.enumerated() {
            let photo = ProductPhoto()
            photo.id = UUID()
            photo.$product.id = productID
            photo.$media.id = mediaID
            photo.position = position
            try await photo.create(on: tx)
        }
    }

    private func deleteMedia(_ ids: [UUID]) async throws {
        guard !ids.isEmpty else { return }
        let media = MediaService(db: db, core: core, mediaLibrary: mediaLibrary)
        for row in try await Media.query(on: db).filter(\.$id ~~ ids).all() { try await media.delete(row) }
    }
}
