import Fluent
import Foundation

/// Everything a store sets on a product, as plain values from the API or a portal form.
struct ProductDraft: Sendable {
    struct Variant: Sendable, Equatable {
        var size: String
        var color: String?
        var stock: Int
        var sku: String?
        /// The count on hand the editor loaded (form or API); when the count changed since (a handover,
        /// another edit), the save is a 409 instead of writing the old count back.
        var expectedStock: Int? = nil
    }

    var title: String
    var description: String = ""
    var brandID: UUID?
    var categoryID: UUID?
    var gender: String
    var priceMinor: Int
    var originalPriceMinor: Int?
    var currency: String
    var colors: [String] = []
    var colorName: String = ""
    var fabric: String = ""
    var styles: [String] = []
    var variants: [Variant] = []
    var photoIDs: [UUID] = []
    var status: Product.Status = .inactive
    var minAge: Int?
    var externalURL: String?
}

/// Checks a draft against the vocabulary and the database; every problem is reported at its field.
struct ProductDraftValidator {
    let db: any Database

    /// The validated draft (trimmed, normalised); throws a 422 naming each bad field, or 404-free
    /// 422s for ids that do not exist, so nothing is written.
    func validate(_ input: ProductDraft, storeID: UUID, product: Product?, uploaderID: UUID) async throws -> ProductDraft {
        var draft = input
        var errors = FieldErrors()
        draft.title = input.title.trimmingCharacters(in: .whitespacesAndNewlines)
        if draft.title.isEmpty { errors.add("title", "is required") }
        if draft.title.count > 200 { errors.add("title", "must be at most 200 characters") }
        draft.description = input.description.trimmingCharacters(in: .whitespacesAndNewlines)
        if draft.description.count > 5000 { errors.add("description", "must be at most 5000 characters") }
        if !CatalogVocabulary.genders.contains(draft.gender) { errors.add("gender", "must be women, men or unisex") }

        draft.currency = input.currency.trimmingCharacters(in: .whitespaces).uppercased()
        if CatalogVocabulary.currencies[draft.currency] == nil {
            errors.add("price.currency", "is not a currency we know (use an ISO 4217 code such as SEK or EUR)")
        }
        if draft.priceMinor < 0 { errors.add("price.amount", "must not be negative") }
        if draft.priceMinor > 100_000_000_00 { errors.add("price.amount", "is too large") }
        if let original = draft.originalPriceMinor, original <= draft.priceMinor {
            errors.add("originalPrice.amount", "must be higher than the price (it is the price before the sale)")
        }

        draft.colors = Array(Set(input.colors.map { $0.lowercased() })).sorted()
        for color in draft.colors where !CatalogVocabulary.colors.contains(color) {
            errors.add("colors", "\(color) is not in the palette (\(CatalogVocabulary.colors.joined(separator: ", ")))")
        }
        draft.styles = Array(Set(input.styles.map { $0.lowercased() })).sorted()
        for style in draft.styles where !CatalogVocabulary.styles.contains(style) {
            errors.add("styles", "\(style) is not a style we know (\(CatalogVocabulary.styles.joined(separator: ", ")))")
        }
        draft.colorName = input.colorName.trimmingCharacters(in: .whitespaces)
        if draft.colorName.count > 60 { errors.add("colorName", "must be at most 60 characters") }
        draft.fabric = input.fabric.trimmingCharacters(in: .whitespaces)
        if draft.fabric.count > 120 { errors.add("fabric", "must be at most 120 characters") }
        if let age = draft.minAge, !(0...99).contains(age) { errors.add("minAge", "must be between 0 and 99") }
        if let url = input.externalURL?.trimmingCharacters(in: .whitespaces), !url.isEmpty {
            if let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil, url.count <= 2000 {
                draft.externalURL = url
            } else {
                errors.add("externalUrl", "must be an http(s) address")
            }
        } else {
            draft.externalURL = nil
        }

        validateVariants(&draft, errors: &errors)
        try await validatePhotos(draft.photoIDs, product: product, uploaderID: uploaderID, errors: &errors)

        if let categoryID = draft.categoryID {
            if try await Category.find(categoryID, on: db) == nil { errors.add("categoryId", "does not exist") }
        } else {
            errors.add("categoryId", "is required")
        }
        if let brandID = draft.brandID {
            let brand = try await Brand.find(brandID, on: db)
            if brand == nil || !(brand!.isApproved || brand!.proposedByStoreID == storeID) {
                errors.add("brandId", "does not exist")
            }
        }
        try errors.throwIfAny()
        return draft
    }

    private func validateVariants(_ draft: inout ProductDraft, errors: inout FieldErrors) {
        if draft.variants.isEmpty { errors.add("variants", "needs at least one size") }
        if draft.variants.count > CatalogVocabulary.maxVariants { errors.add("variants", "may hold at most \(CatalogVocabulary.maxVariants) sizes") }
        var seen = Set<String>()
        for index in draft.variants.indices {
            var variant = draft.variants[index]
            variant.size = variant.size.trimmingCharacters(in: .whitespaces)
            variant.color = variant.color?.trimmingCharacters(in: .whitespaces).nilIfEmpty
            variant.sku = variant.sku?.trimmingCharacters(in: .whitespaces).nilIfEmpty
            if variant.size.isEmpty || variant.size.count > 20 { errors.add("variants[\(index)].size", "must be 1 to 20 characters") }
            if variant.stock < 0 { errors.add("variants[\(index)].stock", "must not be negative") }
            if (variant.sku?.count ?? 0) > 64 { errors.add("variants[\(index)].sku", "must be at most 64 characters") }
            let key = "\(variant.size.lowercased())|\(variant.color?.lowercased() ?? "")"
            if !seen.insert(key).inserted { errors.add("variants[\(index)].size", "is listed twice") }
            draft.variants[index] = variant
        }
    }

    private func validatePhotos(_ ids: [UUID], product: Product?, uploaderID: UUID, errors: inout FieldErrors) async throws {
        if ids.isEmpty { errors.add("photoIds", "needs at least one photo") }
        if ids.count > CatalogVocabulary.maxPhotos { errors.add("photoIds", "may hold at most \(CatalogVocabulary.maxPhotos) photos") }
        if Set(ids).count != ids.count { errors.add("photoIds", "lists a photo twice") }
        guard !ids.isEmpty, ids.count <= CatalogVocabulary.maxPhotos else { return }
        let found = try await Media.query(on: db).filter(\.$id ~~ ids).all()
        let productID = product?.id
        for (index, id) in ids.enumerated() {
            guard let media = found.first(where: { $0.id == id }) else {
                errors.add("photoIds[\(index)]", "is not an upload of yours")
                continue
            }
            let onThisProduct = media.ownerType == ProductService.mediaOwnerType && productID != nil && media.ownerID == productID
            if !onThisProduct {
                if media.$uploader.id != uploaderID || media.ownerType != nil {
                    errors.add("photoIds[\(index)]", "is not an upload of yours")
                }
            }
        }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
