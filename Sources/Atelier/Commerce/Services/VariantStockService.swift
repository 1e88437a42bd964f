import Fluent
import Foundation
import SQLKit

/// Staff set a variant's count on hand, low-stock threshold and GTIN.
struct VariantStockService {
    let db: any Database
    let core: CoreServices

    func variant(_ rawID: String, in store: Store) async throws -> ProductVariant {
        guard let id = UUID(uuidString: rawID),
            let variant = try await ProductVariant.query(on: db).filter(\.$id == id).with(\.$product).first(),
            variant.product.$store.id == store.id
        else { throw Problem.notFound("variant") }
        return variant
    }

    /// The count on hand may not fall below what open orders took (a 409); the conditional update
    /// makes that hold against a checkout taking stock at the same moment.
    /// `expectedOnHand`, when given, is the count the editor loaded: if a handover or another edit
    /// changed it since, nothing is written and the answer is a 409 (a stale page must not bring
    /// sold pieces back).
    func update(
        _ variant: ProductVariant, onHand: Int, lowStockThreshold: Int?, gtin rawGTIN: String?, expectedOnHand: Int? = nil
    ) async throws -> ProductVariant {
        var errors = FieldErrors()
        if onHand < 0 { errors.add("onHand", "cannot be negative") }
        if let threshold = lowStockThreshold, threshold < 0 { errors.add("lowStockThreshold", "cannot be negative") }
        var gtin: String?
        if let rawGTIN, !rawGTIN.trimmingCharacters(in: .whitespaces).isEmpty {
            switch GTIN.normalise(rawGTIN) {
            case .success(let code): gtin = code
            case .failure(let reason): errors.add("gtin", reason.message)
            }
        }
        try errors.throwIfAny()
        let variantID = try variant.requireID()
        let code = gtin
        try await core.writeTransaction(on: db) { tx in
            let updated = try await tx.sql.raw("""
                UPDATE \(ident: ProductVariant.schema) SET stock = \(bind: onHand), low_stock_threshold = \(bind: lowStockThreshold),
                gtin = \(bind: code),
                low_stock_alerted = CASE WHEN \(bind: lowStockThreshold) IS NULL
                    OR \(bind: onHand) - held - allocated > \(bind: lowStockThreshold) THEN \(bind: false) ELSE low_stock_alerted END
                WHERE id = \(bind: variantID) AND held + allocated <= \(bind: onHand)
                AND (\(bind: expectedOnHand) IS NULL OR stock = \(bind: expectedOnHand)) RETURNING id
                """).first()
            guard updated != nil else {
                if let expectedOnHand, let now = try await ProductVariant.find(variantID, on: tx)?.stock, now != expectedOnHand {
                    throw Problem.conflict(
                        "The count of size \(variant.size) changed to \(now) since you loaded it (orders were handed over or someone else edited it); check it and save again.",
                        field: "onHand")
                }
                let taken = try await ProductVariant.find(variantID, on: tx).map { $0.held + $0.allocated } ?? 0
                throw Problem.conflict("\(taken) of size \(variant.size) are taken by open orders; stock cannot go below that.", field: "onHand")
            }
        }
        guard let fresh = try await ProductVariant.query(on: db).filter(\.$id == variantID).with(\.$product).first() else {
            throw Problem.notFound("variant")
        }
        return fresh
    }
}
