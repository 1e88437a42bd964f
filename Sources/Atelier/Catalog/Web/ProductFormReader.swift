import Fluent
import Vapor

/// Turns the portal's product form into a `ProductDraft`, and the service's field names back into
/// the form's, so messages appear next to the right field.
enum ProductFormReader {
    static func draft(
        from form: PortalProductForm.Form, errors: inout FieldErrors
    ) -> (ProductDraft, [String: String], [ProductDraft.Variant]) {
        let currency = (form.currency ?? "SEK").trimmingCharacters(in: .whitespaces).uppercased()
        var values: [String: String] = [
            "title": form.title ?? "", "description": form.description ?? "", "brandId": form.brandId ?? "",
            "categoryId": form.categoryId ?? "", "gender": form.gender ?? "", "price": form.price ?? "",
            "originalPrice": form.originalPrice ?? "", "currency": currency, "colors": (form.colors ?? []).joined(separator: ","),
            "colorName": form.colorName ?? "", "fabric": form.fabric ?? "", "styles": (form.styles ?? []).joined(separator: ","),
            "minAge": form.minAge ?? "", "externalUrl": form.externalUrl ?? "", "status": form.status ?? "inactive",
        ]
        let price = MoneyText.minorUnits(form.price ?? "", currency: currency)
        if price == nil { errors.add("price", "must be an amount like 499 or 499.50") }
        var original: Int?
        if let text = form.originalPrice, !text.trimmingCharacters(in: .whitespaces).isEmpty {
            original = MoneyText.minorUnits(text, currency: currency)
            if original == nil { errors.add("originalPrice", "must be an amount like 699 or 699.50") }
        }
        var minAge: Int?
        if let text = form.minAge?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            minAge = Int(text)
            if minAge == nil { errors.add("minAge", "must be a whole number of years") }
        }
        var variants: [ProductDraft.Variant] = []
        let sizes = form.sizes ?? []
        for (index, size) in sizes.enumerated() {
            let stockText = (form.stocks?[safe: index] ?? "").trimmingCharacters(in: .whitespaces)
            let color = form.variantColors?[safe: index] ?? ""
            let sku = form.skus?[safe: index] ?? ""
            if size.trimmingCharacters(in: .whitespaces).isEmpty {
                if !stockText.isEmpty || !sku.isEmpty { errors.add("variants", "Row \(index + 1) has stock or a SKU but no size") }
                continue
            }
            let stock = stockText.isEmpty ? 0 : Int(stockText)
            if stock == nil { errors.add("variants", "Row \(index + 1): stock must be a whole number") }
            let loaded = Int((form.loadedStocks?[safe: index] ?? "").trimmingCharacters(in: .whitespaces))
            variants.append(.init(size: size, color: color.isEmpty ? nil : color, stock: stock ?? 0, sku: sku.isEmpty ? nil : sku, expectedStock: loaded))
        }
        values["variantCount"] = String(variants.count)
        let draft = ProductDraft(
            title: form.title ?? "", description: form.description ?? "",
            brandID: (form.brandId ?? "").isEmpty ? nil : UUID(uuidString: form.brandId!),
            categoryID: UUID(uuidString: form.categoryId ?? ""), gender: form.gender ?? "", priceMinor: price ?? 0,
            originalPriceMinor: original, currency: currency, colors: form.colors ?? [], colorName: form.colorName ?? "",
            fabric: form.fabric ?? "", styles: form.styles ?? [], variants: variants, photoIDs: [],
            status: form.status == "active" ? .active : .inactive, minAge: minAge, externalURL: form.externalUrl)
        return (draft, values, variants)
    }

    /// Kept photos in the order of their position fields (ties keep the page order), minus removed ones.
    static func keptPhotos(_ form: PortalProductForm.Form) -> [UUID] {
        let removed = Set((form.removePhotos ?? []).compactMap(UUID.init(uuidString:)))
        let ids = form.photoIds ?? []
        return ids.enumerated()
            .compactMap { index, raw in UUID(uuidString: raw).map { ($0, Int(form.positions?[safe: index] ?? "") ?? index + 1, index) } }
            .filter { !removed.contains($0.0) }
            .sorted { ($0.1, $0.2) < ($1.1, $1.2) }
            .map { $0.0 }
    }

    /// Service field names ("price.amount", "photoIds[2]", "variants[0].stock") to form fields.
    static func formFields(_ errors: [Problem.FieldError]) -> [String: String] {
        var result: [String: String] = [:]
        for error in errors {
            let field: String
            switch error.field {
            case "price.amount": field = "price"
            case "price.currency", "originalPrice.currency": field = "currency"
            case "originalPrice.amount": field = "originalPrice"
            case let name where name.hasPrefix("photoIds"): field = "photos"
            case let name where name.hasPrefix("variants"): field = "variants"
            default: field = error.field
            }
            let message = error.field.hasPrefix("variants[") ? "\(error.field): \(error.message)" : error.message
            result[field] = result[field].map { "\($0); \(message)" } ?? message
        }
        return result
    }
}

/// The choices of the product form.
struct ProductFormOptions {
    var categories: [PortalProductForm.Option]
    var brands: [PortalProductForm.Option]
    var genders: [PortalProductForm.Option]
    var currencies: [PortalProductForm.Option]
    var colors: [PortalProductForm.Option]
    var styles: [PortalProductForm.Option]

    static func load(req: Request, store: Store, values: [String: String]) async throws -> ProductFormOptions {
        let tree = try await CategoryService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media).tree()
        // The values may be what the browser posted, in either case.
        func chosen(_ field: String) -> UUID? { values[field].flatMap(UUID.init(uuidString:)) }
        var categories: [PortalProductForm.Option] = []
        func walk(_ nodes: [CategoryService.Node], trail: [String]) {
            for node in nodes {
                let names = trail + [node.category.name]
                categories.append(.init(value: node.category.id!.idString, label: names.joined(separator: " › "),
                                        selected: chosen("categoryId") == node.category.id))
                walk(node.children, trail: names)
            }
        }
        walk(tree, trail: [])
        let brands = try await Brand.query(on: req.db)
            .group(.or) { $0.filter(\.$status == Brand.Status.approved.rawValue).filter(\.$proposedByStoreID == store.id) }
            .sort(\.$slug).all()
        let chosenColors = Set((values["colors"] ?? "").split(separator: ",").map(String.init))
        let chosenStyles = Set((values["styles"] ?? "").split(separator: ",").map(String.init))
        return ProductFormOptions(
            categories: categories,
            brands: brands.map { .init(value: $0.id!.idString, label: $0.name + ($0.isApproved ? "" : " (awaiting approval)"),
                                       selected: chosen("brandId") == $0.id) },
            genders: CatalogVocabulary.genders.map { .init(value: $0, label: $0.capitalized, selected: values["gender"] == $0) },
            currencies: CatalogVocabulary.currencies.keys.sorted().map { .init(value: $0, label: $0, selected: values["currency"] == $0) },
            colors: CatalogVocabulary.colors.map { .init(value: $0, label: $0.capitalized, selected: chosenColors.contains($0)) },
            styles: CatalogVocabulary.styles.map { .init(value: $0, label: $0.capitalized, selected: chosenStyles.contains($0)) })
    }
}
