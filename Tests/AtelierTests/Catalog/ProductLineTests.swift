import Fluent
import Foundation
import Testing

@testable import Atelier

/// `ProductLine`, `VariantLine`, `StoreLine`, `BrandLine` and `CategoryLine` read a product page's rows
/// without Fluent (issue 19): their column lists, their `init`s and the models are kept by hand. The
/// same row read both ways must agree on every column, and a column added to a model fails here
/// until the line reads it or it is named as one the pages do not show.
@Suite("A product's rows read as plain lines and as models")
struct ProductLineTests {
    /// Columns no product page or API product answer shows.
    static let productColumnsNotShown: Set = ["feed_sort_key"]
    /// Stock-keeping columns: the staff's stock views read them through the model.
    static let variantColumnsNotShown: Set = ["position", "low_stock_threshold", "low_stock_alerted", "gtin"]

    @Test("every column of the product, its sizes, store, brand and category reads the same as a line and as a model")
    func sameRowBothWays() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let created = try await t.product(
                .init(title: "Wool coat", description: "Long, lined", category: f.shirts, brand: f.brand, price: 120_000,
                      originalPrice: 150_000, colors: ["navy", "grey"], sizes: [("S", 2), ("M", 0)]),
                in: f.storeA, owner: f.ownerA)
            // Every optional column set, every default changed, so that no column reads as a default by accident.
            let product = try #require(try await Product.find(created.id, on: t.app.db))
            product.colorName = "Midnight"
            product.fabric = "Wool"
            product.stylesList = "classic,minimal"
            product.minAge = 16
            product.externalURL = "https://shop.example/coat"
            product.tradePriceMinor = 90_000
            product.caseSize = 6
            product.reviewCount = 3
            product.ratingSum = 13
            product.likeCount = 7
            try await product.save(on: t.app.db)
            let variants = try await ProductVariant.query(on: t.app.db).filter(\.$product.$id == created.id!).all()
            for (index, variant) in variants.enumerated() {
                variant.color = "navy"
                variant.sku = "COAT-\(index)"
                variant.held = index + 1
                variant.allocated = index + 2
                try await variant.save(on: t.app.db)
            }

            // The store's and brand's too: no two text, id or count columns alike.
            let (logo, cover, brandLogo) = (try await t.placeholderPhoto(uploader: f.ownerA.user.id),
                                            try await t.placeholderPhoto(uploader: f.ownerA.user.id), try await t.placeholderPhoto(uploader: f.admin.user.id))
            let storeModel = try #require(try await Store.find(f.storeA.id, on: t.app.db))
            storeModel.about = "Since 1971"
            storeModel.phone = "+46 8 123 45"
            storeModel.email = "shop@example.com"
            storeModel.website = "https://shop.example"
            storeModel.logoMediaID = UUID(uuidString: logo)
            storeModel.coverMediaID = UUID(uuidString: cover)
            storeModel.timeZone = "Europe/Stockholm"
            storeModel.followerCount = 11
            storeModel.activeProductCount = 4
            storeModel.openingHours = [.init(weekday: 1, opens: "10:00", closes: "18:00")]
            try await storeModel.save(on: t.app.db)
            let brandModel = try #require(try await Brand.find(f.brand.id, on: t.app.db))
            brandModel.logoMediaID = UUID(uuidString: brandLogo)
            brandModel.proposedByStoreID = f.storeB.id
            brandModel.followerCount = 5
            try await brandModel.save(on: t.app.db)

            let view = try #require(try await ProductViewReader(db: t.app.db).views(ids: [created.id!]).first)
            let model = try #require(try await Product.find(created.id, on: t.app.db))
            Self.expectSame(model, view.product, notShown: Self.productColumnsNotShown, listed: Self.names(ProductLine.columns))
            let store = try #require(try await Store.find(f.storeA.id, on: t.app.db))
            Self.expectSame(store, view.store, notShown: [], listed: Self.names(StoreLine.columns).union(["id"]))
            let brand = try #require(try await Brand.find(f.brand.id, on: t.app.db))
            Self.expectSame(brand, try #require(view.brand), notShown: [], listed: Self.names(BrandLine.columns).union(["id"]))
            let category = try #require(try await Category.find(f.shirts.id, on: t.app.db))
            // A product's category shows its name and trail; its picture and description belong to category pages.
            Self.expectSame(
                category, view.category, notShown: ["description", "image_media_id"], listed: Self.names(CategoryLine.columns).union(["id"]))

            let models = try await ProductVariant.query(on: t.app.db).filter(\.$product.$id == created.id!).all()
            #expect(models.count == 2 && view.variants.count == 2)
            for line in view.variants {
                let variant = try #require(models.first { $0.id == line.id })
                Self.expectSame(variant, line, notShown: Self.variantColumnsNotShown, listed: Self.names(VariantLine.columns))
            }
        }
    }

    /// Each column of `model` (as Fluent writes it) against the line's property of the same name.
    static func expectSame(_ model: some Model, _ line: Any, notShown: Set<String>, listed: Set<String>,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let columns = Collected()
        for property in model.properties { (property as? any AnyDatabaseProperty)?.input(to: columns) }
        var properties: [String: String] = [:]
        for child in Mirror(reflecting: line).children { if let label = child.label { properties[label] = text(child.value) } }

        #expect(Set(columns.values.keys).subtracting(notShown) == listed, "the line's column list", sourceLocation: sourceLocation)
        for (column, value) in columns.values where !notShown.contains(column) {
            let name = propertyName(column)
            #expect(properties[name] != nil, "no property \(name) for \(column)", sourceLocation: sourceLocation)
            #expect(properties[name] == value, "\(column)", sourceLocation: sourceLocation)
        }
    }

    /// The column names of a select list: `p.title` → `title`, `s.name AS s_name` → `name`.
    static func names(_ columns: String) -> Set<String> {
        Set(columns.split(separator: ",").map { part in
            let column = part.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: " AS ")[0]
            return String(column.split(separator: ".").last!)
        })
    }

    /// `store_id` → `storeID`, `external_url` → `externalURL`; `colors`, `styles` and
    /// `opening_hours` are kept as stored, in `colorsList`, `stylesList` and `openingHoursJSON`.
    static func propertyName(_ column: String) -> String {
        if column == "colors" || column == "styles" { return column + "List" }
        if column == "opening_hours" { return "openingHoursJSON" }
        let words = column.split(separator: "_").map(String.init)
        return words[0] + words.dropFirst().map { ["id", "url"].contains($0) ? $0.uppercased() : $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A value as text, optionals unwrapped, dates to the full precision stored.
    static func text(_ value: Any) -> String {
        if let date = value as? Date { return "\(date.timeIntervalSince1970)" }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return String(describing: value) }
        return mirror.children.first.map { text($0.value) } ?? "nil"
    }

    final class Collected: DatabaseInput {
        var values: [String: String] = [:]
        var wantsUnmodifiedKeys: Bool { true }

        func set(_ value: DatabaseQuery.Value, at key: FieldKey) {
            switch value {
            case .bind(let bound): values[key.description] = text(bound)
            case .null: values[key.description] = "nil"
            default: values[key.description] = "\(value)"
            }
        }
    }
}
