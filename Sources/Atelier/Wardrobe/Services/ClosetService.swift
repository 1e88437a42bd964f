import Fluent
import Foundation
import SQLKit

/// Adds, changes, archives and removes closet items. Photos become items at once and are cut
/// out afterwards by the wardrobe image queue (`cutoutStatus` pending → ready), so a bulk upload
/// answers quickly and a crash mid-way leaves pending items that the queue picks up again.
struct ClosetService {
    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary
    let wardrobeImages: WakeSignal

    private var now: Date { core.clock.now() }

    struct PhotoSource: Sendable {
        var mediaID: UUID
        var maskMediaID: UUID?
    }

    static let maxPhotosAtOnce = 20

    /// The caller's own item, or 404 (another person's item does not exist for them).
    func own(_ id: UUID, of ownerID: UUID) async throws -> ClosetItem {
        guard let item = try await ClosetItem.find(id, on: db), item.ownerID == ownerID else { throw Problem.notFound("closet item") }
        return item
    }

    /// One item per photo, all in one transaction: either every photo becomes an item or none does.
    func addPhotos(_ photos: [PhotoSource], draft: ClosetItemDraft, owner: User) async throws -> [ClosetItem] {
        let ownerID = try owner.requireID()
        guard !photos.isEmpty, photos.count <= Self.maxPhotosAtOnce else {
            throw Problem.invalid("photos", "send 1 to \(Self.maxPhotosAtOnce) photos")
        }
        let allIDs = photos.flatMap { [$0.mediaID] + ($0.maskMediaID.map { [$0] } ?? []) }
        guard Set(allIDs).count == allIDs.count else { throw Problem.invalid("photos", "the same upload appears twice") }
        let today = try await self.today(owner)
        var items: [ClosetItem] = []
        for photo in photos {
            let item = newItem(ownerID: ownerID)
            item.type = ClosetItem.Kind.top.rawValue
            item.typeGuessed = draft.type == nil
            try await draft.apply(to: item, today: today, on: db)
            item.photoMediaID = photo.mediaID
            item.maskMediaID = photo.maskMediaID
            item.cutoutStatus = ClosetItem.CutoutStatus.pending.rawValue
            items.append(item)
        }
        let now = self.now
        let created = items
        try await core.writeTransaction(on: db) { tx in
            for (item, photo) in zip(created, photos) {
                // Uploads first: one that does not exist is a 404, not a foreign-key failure of the item.
                try await Self.claimUpload(photo.mediaID, field: "photos.mediaId", for: item, uploader: ownerID, now: now, on: tx)
                if let mask = photo.maskMediaID {
                    try await Self.claimUpload(mask, field: "photos.maskMediaId", for: item, uploader: ownerID, now: now, on: tx)
                }
                try await item.create(on: tx)
            }
        }
        wardrobeImages.signal()
        return items
    }

    /// "Add to my closet" from a catalog product: photo, type, colour, brand and price copied.
    func addProduct(_ productID: UUID, size: String?, draft: ClosetItemDraft, owner: User) async throws -> ClosetItem {
        guard let product = try await Product.find(productID, on: db), product.isActive else { throw Problem.notFound("product") }
        return try await addCopy(of: product, size: size, priceMinor: product.priceMinor, currency: product.currency, orderLineID: nil,
            draft: draft, owner: owner)
    }

    /// From a line of one of the caller's completed orders: what they paid and the size they got.
    /// A line goes in once; asking again is a 409 naming `orderLineId` (`itemFrom(orderLine:)` finds it).
    func addOrderLine(_ lineID: UUID, draft: ClosetItemDraft, owner: User) async throws -> ClosetItem {
        let ownerID = try owner.requireID()
        guard let line = try await OrderLine.find(lineID, on: db), let order = try await Order.find(line.orderID, on: db),
            order.userID == ownerID
        else { throw Problem.notFound("order line") }
        if try await itemFrom(orderLine: lineID, owner: ownerID) != nil {
            throw Problem.conflict("This piece is in your closet already.", field: "orderLineId")
        }
        guard order.status == Order.Status.completed.rawValue else {
            throw Problem(.conflict, type: "https://atelier.dev/problems/order-not-completed", title: "Order not completed",
                detail: "Only lines of completed orders can go into the closet; this order is \(order.status).")
        }
        guard let productID = line.productID, let product = try await Product.find(productID, on: db) else {
            throw Problem(.conflict, type: "https://atelier.dev/problems/product-gone", title: "Product gone",
                detail: "The product of this order line no longer exists; add the item from a photo instead.")
        }
        return try await addCopy(of: product, size: line.size, priceMinor: line.unitPriceMinor, currency: order.currency,
            orderLineID: lineID, draft: draft, owner: owner)
    }

    /// The owner's closet item made from this order line, if there is one.
    func itemFrom(orderLine lineID: UUID, owner ownerID: UUID) async throws -> ClosetItem? {
        try await ClosetItem.query(on: db).filter(\.$ownerID == ownerID).filter(\.$orderLineID == lineID).first()
    }

    /// From a barcode: the catalog variant with that GTIN (on an active product).
    func addBarcode(_ gtin: String, draft: ClosetItemDraft, owner: User) async throws -> ClosetItem {
        let digits = gtin.trimmingCharacters(in: .whitespaces)
        guard [8, 12, 13, 14].contains(digits.count), digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
            throw Problem.invalid("gtin", "must be 8, 12, 13 or 14 digits")
        }
        guard let variant = try await ProductVariant.query(on: db).filter(\.$gtin == digits).first(),
            let product = try await Product.find(variant.$product.id, on: db), product.isActive
        else {
            throw Problem(.notFound, type: "https://atelier.dev/problems/gtin-unknown", title: "Barcode not found",
                detail: "No product in the catalog has the barcode \(digits); add the item from a photo instead.")
        }
        return try await addCopy(of: product, size: variant.size, priceMinor: product.priceMinor, currency: product.currency,
            orderLineID: nil, draft: draft, owner: owner)
    }

    private func addCopy(
        of product: Product, size: String?, priceMinor: Int, currency: String, orderLineID: UUID?, draft: ClosetItemDraft, owner: User
    ) async throws -> ClosetItem {
        let ownerID = try owner.requireID()
        let item = newItem(ownerID: ownerID)
        item.productID = try product.requireID()
        item.orderLineID = orderLineID
        let category = try await Category.find(product.categoryID, on: db)
        item.type = GarmentTypeGuess.from(text: [category?.name ?? "", product.title].joined(separator: " ")).rawValue
        item.typeGuessed = draft.type == nil
        item.size = size
        item.priceMinor = priceMinor
        item.currency = currency
        item.coloursList = ColourName.fromCatalog(product.colors).map(\.rawValue).joined(separator: ",")
        if let brandID = product.brandID, let brand = try await Brand.find(brandID, on: db) {
            item.brandID = brandID
            item.brandName = brand.name
        }
        // The product's first photo is shared, not copied: it stays the product's (and public).
        item.photoMediaID = try await ProductPhoto.query(on: db).filter(\.$product.$id == item.productID!).sort(\.$position).first()?.$media.id
        item.cutoutStatus = (item.photoMediaID == nil ? ClosetItem.CutoutStatus.none : .pending).rawValue
        try await draft.apply(to: item, today: try await today(owner), on: db)
        try await core.writeTransaction(on: db) { tx in try await item.create(on: tx) }
        wardrobeImages.signal()
        return item
    }

    func update(_ item: ClosetItem, draft: ClosetItemDraft, owner: User) async throws -> ClosetItem {
        try await draft.apply(to: item, today: try await today(owner), on: db)
        item.updatedAt = now
        try await core.writeTransaction(on: db) { tx in
            try await item.save(on: tx)
            try await OutfitRenderMarks.itemChanged(try item.requireID(), on: tx, now: item.updatedAt)
        }
        wardrobeImages.signal()
        return item
    }

    func archive(_ item: ClosetItem, reason: ClosetItem.ArchiveReason?) async throws -> ClosetItem {
        item.archivedAt = item.archivedAt ?? now
        item.archiveReason = reason?.rawValue
        item.updatedAt = now
        try await core.writeTransaction(on: db) { tx in try await item.save(on: tx) }
        return item
    }

    func unarchive(_ item: ClosetItem) async throws -> ClosetItem {
        item.archivedAt = nil
        item.archiveReason = nil
        item.updatedAt = now
        try await core.writeTransaction(on: db) { tx in try await item.save(on: tx) }
        return item
    }

    /// Cuts the item out again (after a failure, or with a new device mask).
    func redoCutout(_ item: ClosetItem, maskMediaID: UUID?, owner: User) async throws -> ClosetItem {
        guard item.photoMediaID != nil else { throw Problem.invalid("item", "has no photo to cut out") }
        let ownerID = try owner.requireID()
        let now = self.now
        item.cutoutStatus = ClosetItem.CutoutStatus.pending.rawValue
        item.cutoutAttempts = 0
        item.cutoutClaimedAt = nil
        item.updatedAt = now
        if let maskMediaID { item.maskMediaID = maskMediaID }
        try await core.writeTransaction(on: db) { tx in
            if let maskMediaID {
                try await Self.claimUpload(maskMediaID, field: "maskMediaId", for: item, uploader: ownerID, now: now, on: tx)
            }
            try await item.save(on: tx)
        }
        wardrobeImages.signal()
        return item
    }

    /// The item, its wears and its outfit pieces go in one transaction; then its own media.
    func delete(_ item: ClosetItem) async throws {
        let itemID = try item.requireID()
        try await core.writeTransaction(on: db) { tx in
            try await OutfitRenderMarks.itemChanged(itemID, on: tx, now: self.now)
            try await item.delete(on: tx)
        }
        wardrobeImages.signal()
        try await MediaService(db: db, core: core, mediaLibrary: mediaLibrary).deleteOwned(ownerType: ClosetItem.mediaOwnerType, ownerID: itemID)
    }

    func today(_ owner: User) async throws -> LocalDay { LocalDay(now, in: LocalDay.zone(owner.timeZone)) }

    private func newItem(ownerID: UUID) -> ClosetItem {
        let item = ClosetItem()
        item.id = .v7(at: now)
        item.ownerID = ownerID
        item.typeGuessed = false
        item.coloursList = ""
        item.coloursEdited = false
        item.seasonsList = ""
        item.tagsList = ""
        item.notes = ""
        item.favourite = false
        item.cutoutStatus = ClosetItem.CutoutStatus.none.rawValue
        item.cutoutAttempts = 0
        item.wearCount = 0
        item.searchText = ""
        item.createdAt = now
        item.updatedAt = now
        return item
    }

    /// Makes the caller's unattached private upload the item's, in one guarded statement: two
    /// requests racing for the same upload cannot both take it.
    static func claimUpload(_ mediaID: UUID, field: String, for item: ClosetItem, uploader: UUID, now: Date, on tx: any Database) async throws {
        let sql = tx.sql
        let claimed = try await sql.raw("""
            UPDATE \(ident: Media.schema) SET owner_type = \(bind: ClosetItem.mediaOwnerType), owner_id = \(bind: try item.requireID()),
              attached_at = \(bind: now)
            WHERE id = \(bind: mediaID) AND uploader_id = \(bind: uploader) AND owner_type IS NULL AND visibility = 'private'
            RETURNING id
            """).all()
        guard claimed.isEmpty else { return }
        guard let media = try await Media.find(mediaID, on: tx), media.$uploader.id == uploader else { throw Problem.notFound("media") }
        if media.visibility != Media.Visibility.private.rawValue {
            throw Problem.invalid(field, "was uploaded as public; upload the photo with visibility=private")
        }
        throw Problem.invalid(field, "is already used; upload the photo again")
    }
}
