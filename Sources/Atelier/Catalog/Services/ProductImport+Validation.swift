import Fluent
import Foundation
import ZIPFoundation

/// Checking one product's rows: names to ids, text to numbers, photo names to zip entries, and
/// then everything `ProductDraftValidator` checks, each error put back at its row and column.
extension ProductImport {
    struct Lookups: Sendable {
        /// Brands this store may use, by slug.
        var brands: [String: Brand] = [:]
        var categories: [Category] = []
    }

    /// An error message for one cell.
    struct Message: Error {
        var text: String
    }

    /// The files in the photos zip (macOS resource forks left out).
    struct PhotoIndex: Sendable {
        private var sizes: [String: UInt64] = [:]
        private var pathsByName: [String: [String]] = [:]
        private let maxBytes: Int

        init(_ archive: Archive, maxBytes: Int) {
            self.maxBytes = maxBytes
            for entry in archive where entry.type == .file {
                let name = (entry.path as NSString).lastPathComponent
                if entry.path.hasPrefix("__MACOSX/") || name.hasPrefix("._") { continue }
                sizes[entry.path] = entry.uncompressedSize
                pathsByName[name.lowercased(), default: []].append(entry.path)
            }
        }

        /// The entry a CSV name means: that exact path, or else the one file with that name in any folder.
        func path(for name: String) throws(Message) -> String {
            var path = name
            if sizes[name] == nil {
                let matches = pathsByName[(name as NSString).lastPathComponent.lowercased()] ?? []
                guard !matches.isEmpty else { throw Message(text: "\"\(name)\" is not in the zip") }
                guard matches.count == 1 else {
                    throw Message(text: "\"\(name)\" matches several files in the zip (\(matches.sorted().joined(separator: ", "))); give its path")
                }
                path = matches[0]
            }
            guard sizes[path]! <= UInt64(maxBytes) else {
                throw Message(text: "\"\(name)\" is larger than \(maxBytes / 1_048_576) MB")
            }
            return path
        }
    }

    func lookups(for groups: [[Row]], storeID: UUID) async throws -> Lookups {
        var lookups = Lookups()
        let slugs = Set(groups.map { Slug.make($0[0]["brand"]) }.filter { !$0.isEmpty })
        if !slugs.isEmpty {
            for brand in try await Brand.query(on: db).filter(\.$slug ~~ Array(slugs)).all()
            where brand.isApproved || brand.proposedByStoreID == storeID {
                lookups.brands[brand.slug] = brand
            }
        }
        if groups.contains(where: { !$0[0]["category"].isEmpty }) {
            lookups.categories = try await Category.query(on: db).all()
        }
        return lookups
    }

    /// The draft for one product's rows (without photo ids) and every error found in them.
    func plan(_ rows: [Row], lookups: Lookups, photos index: PhotoIndex?, storeID: UUID, user: User) async throws -> (Planned, [RowError]) {
        let first = rows[0]
        var errors: [RowError] = []
        func fail(_ column: String, _ message: String, row: Int? = nil) {
            errors.append(RowError(row: row ?? first.number, column: column, message: message))
        }

        var category: Category?
        if first["category"].isEmpty {
            fail("category", "is required")
        } else {
            do { category = try Self.category(first["category"], in: lookups.categories) } catch { fail("category", error.text) }
        }
        let brandName = first["brand"]
        let brand = brandName.isEmpty ? nil : lookups.brands[Slug.make(brandName)]
        if !brandName.isEmpty, brand == nil { fail("brand", "no brand named \"\(brandName)\"") }

        let currency = first["currency"].uppercased()
        let digits = CatalogVocabulary.currencies[currency]
        if currency.isEmpty {
            fail("currency", "is required")
        } else if digits == nil {
            fail("currency", "\"\(currency)\" is not a currency we know (use an ISO 4217 code such as SEK or EUR)")
        }
        func amount(_ column: String) -> Int? {
            let text = first[column]
            guard !text.isEmpty, let digits else { return nil }
            guard let minor = MoneyText.minorUnits(text, digits: digits) else {
                fail(column, "must be an amount like \(digits == 0 ? "499" : "499.00") (\(currency) has \(digits) decimals)")
                return nil
            }
            return minor
        }
        if first["price"].isEmpty { fail("price", "is required") }
        let price = amount("price")
        let originalPrice = amount("original_price")

        var status = Product.Status.inactive
        if !first["status"].isEmpty {
            if let parsed = Product.Status(rawValue: first["status"].lowercased()) { status = parsed } else { fail("status", "must be active or inactive") }
        }
        var minAge: Int?
        if !first["min_age"].isEmpty {
            if let age = Int(first["min_age"]) { minAge = age } else { fail("min_age", "must be a whole number") }
        }
        var variants: [ProductDraft.Variant] = []
        for row in rows {
            var stock = 0
            if !row["stock"].isEmpty {
                if let parsed = Int(row["stock"]) { stock = parsed } else { fail("stock", "must be a whole number", row: row.number) }
            }
            variants.append(.init(size: row["size"], color: row["variant_color"].nilIfEmpty, stock: stock, sku: row["sku"].nilIfEmpty))
        }

        let names = Self.list(first["photos"])
        var paths: [String] = []
        if names.isEmpty {
            fail("photos", "needs at least one photo")
        } else if names.count > CatalogVocabulary.maxPhotos {
            fail("photos", "may hold at most \(CatalogVocabulary.maxPhotos) photos")
        } else if let twice = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) })?.element {
            fail("photos", "lists \"\(twice)\" twice")
        } else if let index {
            for name in names {
                do { paths.append(try index.path(for: name)) } catch { fail("photos", error.text) }
            }
        } else {
            fail("photos", "no photos zip was given")
        }

        let gender = first["gender"].lowercased()
        let draft = ProductDraft(
            title: first["title"], description: first["description"], brandID: brand?.id, categoryID: category?.id,
            gender: gender.isEmpty ? category?.gender ?? "" : gender, priceMinor: price ?? 0, originalPriceMinor: originalPrice,
            currency: currency, colors: Self.list(first["colors"]), colorName: first["color_name"], fabric: first["fabric"],
            styles: Self.list(first["styles"]), variants: variants, photoIDs: [], status: status, minAge: minAge,
            externalURL: first["external_url"].nilIfEmpty)
        // Photos were checked against the zip; the validator sees none yet, so its photo errors are
        // dropped, and so is a missing gender when it would have come from a category not found.
        let ignored: Set<String> = gender.isEmpty && category == nil ? ["photos", "gender"] : ["photos"]
        do {
            _ = try await ProductDraftValidator(db: db).validate(draft, storeID: storeID, product: nil, uploaderID: user.requireID())
        } catch let problem as Problem where problem.status == .unprocessableEntity {
            for error in Self.rowErrors(problem, rows: rows)
            where !ignored.contains(error.column) && !errors.contains(where: { $0.row == error.row && $0.column == error.column }) {
                errors.append(error)
            }
        }
        return (Planned(rows: rows, draft: draft, photos: paths), errors)
    }

    /// A category by id, or by its path of names from the top ("Women > Tops > Shirts"), ignoring case.
    static func category(_ text: String, in all: [Category]) throws(Message) -> Category {
        if let id = UUID(uuidString: text) {
            guard let found = all.first(where: { $0.id == id }) else { throw Message(text: "no category has the id \(text)") }
            return found
        }
        var found: Category?
        var trail: [String] = []
        for name in text.split(separator: ">", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let next = all.first(where: { $0.parentID == found?.id && $0.name.lowercased() == name.lowercased() }) else {
                throw Message(text: trail.isEmpty
                    ? "no top-level category named \"\(name)\""
                    : "no category \"\(name)\" under \"\(trail.joined(separator: " > "))\"")
            }
            trail.append(next.name)
            found = next
        }
        return found!
    }

    /// The validator's field errors at the rows and columns of the CSV.
    static func rowErrors(_ problem: Problem, rows: [Row]) -> [RowError] {
        problem.errors.map { error in
            let (variant, column) = column(forField: error.field)
            let row = variant.flatMap { rows.indices.contains($0) ? rows[$0].number : nil } ?? rows[0].number
            return RowError(row: row, column: column, message: error.message)
        }
    }

    private static let fieldColumns = [
        "price.amount": "price", "price.currency": "currency", "originalPrice.amount": "original_price", "colorName": "color_name",
        "minAge": "min_age", "externalUrl": "external_url", "categoryId": "category", "brandId": "brand", "variants": "size",
    ]

    /// A validator field as (variant index, column): "variants[2].stock" is the third row's stock.
    static func column(forField field: String) -> (Int?, String) {
        if field.hasPrefix("photoIds") { return (nil, "photos") }
        if field.hasPrefix("variants["), let close = field.firstIndex(of: "]"),
            let index = Int(field[field.index(field.startIndex, offsetBy: 9)..<close]) {
            let part = String(field[close...].dropFirst(2))
            return (index, part == "color" ? "variant_color" : part)
        }
        return (nil, fieldColumns[field] ?? field)
    }
}
