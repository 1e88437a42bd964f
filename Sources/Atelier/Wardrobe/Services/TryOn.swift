import Fluent
import Foundation

/// The mannequin view of closet items and catalog products together: pieces go by slot, the
/// figure by the person's size profile. Drawn on request (a few hundred milliseconds on an image
/// thread); nothing is stored.
struct TryOn {
    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    static let maxPieces = 8

    func render(ownerID: UUID, closetItemIDs: [UUID], productIDs: [UUID]) async throws -> Data {
        var errors = FieldErrors()
        if closetItemIDs.isEmpty && productIDs.isEmpty { errors.add("closetItemIds", "give at least one item or product") }
        if closetItemIDs.count + productIDs.count > Self.maxPieces { errors.add("closetItemIds", "at most \(Self.maxPieces) pieces at once") }
        let items = closetItemIDs.isEmpty ? [] : try await ClosetItem.query(on: db).filter(\.$id ~~ closetItemIDs).filter(\.$ownerID == ownerID).all()
        for (index, id) in closetItemIDs.enumerated() where !items.contains(where: { $0.id == id }) {
            errors.add("closetItemIds[\(index)]", "is not an item in your closet")
        }
        let products = productIDs.isEmpty ? [] : try await Product.query(on: db).filter(\.$id ~~ productIDs)
            .filter(\.$status == Product.Status.active.rawValue).all()
        for (index, id) in productIDs.enumerated() where !products.contains(where: { $0.id == id }) {
            errors.add("productIds[\(index)]", "is not an active product")
        }
        try errors.throwIfAny()

        let media = MediaService(db: db, core: core, mediaLibrary: mediaLibrary)
        let work = mediaLibrary.scratch.url.appendingPathComponent("tryon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var pieces: [(file: URL, slot: ClosetItem.Slot)] = []
        for item in items {
            guard let pictureID = item.cutoutMediaID ?? item.photoMediaID, let picture = try await Media.find(pictureID, on: db) else { continue }
            let file = work.appendingPathComponent("item-\(pieces.count)")
            try await media.download(key: picture.originalKey, to: file)
            pieces.append((file, item.kind.slot))
        }
        for product in products {
            guard let photo = try await ProductPhoto.query(on: db).filter(\.$product.$id == product.requireID()).sort(\.$position).first(),
                let picture = try await Media.find(photo.$media.id, on: db)
            else { continue }
            let category = try await Category.find(product.categoryID, on: db)
            let file = work.appendingPathComponent("product-\(pieces.count)")
            try await media.download(key: picture.originalKey, to: file)
            pieces.append((file, GarmentTypeGuess.from(text: "\(category?.name ?? "") \(product.title)").slot))
        }
        let profile = try await SizeProfile.query(on: db).filter(\.$userID == ownerID).first()
        let drawn = pieces
        let folder = work
        return try await mediaLibrary.imageWorkers.run { try Mannequin.render(drawn, profile: profile, workDirectory: folder) }
    }
}
