import Foundation

/// A product's size as its page and the API show it, read without a model (`ProductViewReader`,
/// issue 19): a Fluent model per variant cost more to fill and free than writing it out.
struct VariantLine: VariantStock, Sendable {
    var id: UUID
    var productID: UUID
    var size: String
    var color: String?
    var stock: Int
    var sku: String?
    var held: Int
    var allocated: Int

    /// The columns `init(_:)` reads from `product_variants`.
    static let columns = "id, product_id, size, color, stock, sku, held, allocated"

    init(_ row: FastColumns) throws {
        id = try row.uuid("id")
        productID = try row.uuid("product_id")
        size = try row.value("size", as: String.self)
        color = try row.optional("color", as: String.self)
        stock = try row.value("stock", as: Int.self)
        sku = try row.optional("sku", as: String.self)
        held = try row.value("held", as: Int.self)
        allocated = try row.value("allocated", as: Int.self)
    }
}
