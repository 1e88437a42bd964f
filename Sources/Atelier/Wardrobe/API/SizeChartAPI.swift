import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `PUT /stores/{id}/products/{id}/size-chart` and `GET /products/{id}/size-advice`.
extension APIHandler {
    func putSizeChart(_ input: Operations.PutSizeChart.Input) async throws -> Operations.PutSizeChart.Output {
        let (req, _, product) = try await managedProduct(input.path.storeId, input.path.productId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let rows = body.rows.map(Self.chartRow)
        try SizeAdvice.check(rows)
        let productID = try product.requireID()
        let json = String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
        let now = services.clock.now()
        try await services.writeTransaction(on: req.db) { tx in
            let chart = try await SizeChart.query(on: tx).filter(\.$productID == productID).first() ?? {
                let chart = SizeChart()
                chart.id = UUID()
                chart.productID = productID
                return chart
            }()
            chart.rowsJSON = json
            chart.updatedAt = now
            try await chart.save(on: tx)
        }
        return .ok(.init(body: .json(.init(rows: rows.map(Self.chartRowBody)))))
    }

    func getSizeAdvice(_ input: Operations.GetSizeAdvice.Input) async throws -> Operations.GetSizeAdvice.Output {
        let (req, user) = try await socialCaller()
        let view = try await ProductCatalog(db: req.db).visibleView(try PathID.parse(input.path.productId, "product"), to: user)
        guard let chart = try await SizeChart.query(on: req.db).filter(\.$productID == view.product.id).first() else {
            return .ok(.init(body: .json(.init(reasons: ["This product has no size chart yet."]))))
        }
        let rows = chart.rows
        let body = Components.Schemas.SizeChart(rows: rows.map(Self.chartRowBody))
        guard let profile = try await SizeProfile.query(on: req.db).filter(\.$userID == user.requireID()).first(),
            let advice = SizeAdvice.advise(rows, profile: profile)
        else {
            return .ok(.init(body: .json(.init(chart: body, reasons: ["Add your measurements to your size profile to get a size."]))))
        }
        return .ok(.init(body: .json(.init(chart: body, size: advice.size, fits: advice.fits, reasons: advice.reasons))))
    }

    static func chartRow(_ row: Components.Schemas.SizeChartRow) -> SizeChart.Row {
        func range(_ value: Components.Schemas.MeasureRange?) -> SizeChart.Range? { value.map { .init(min: $0.min, max: $0.max) } }
        return .init(size: row.size.trimmingCharacters(in: .whitespaces), chest: range(row.chest), waist: range(row.waist), hips: range(row.hips),
            inseam: range(row.inseam), shoe: range(row.shoe))
    }

    static func chartRowBody(_ row: SizeChart.Row) -> Components.Schemas.SizeChartRow {
        func range(_ value: SizeChart.Range?) -> Components.Schemas.MeasureRange? { value.map { .init(min: $0.min, max: $0.max) } }
        return .init(size: row.size, chest: range(row.chest), waist: range(row.waist), hips: range(row.hips), inseam: range(row.inseam), shoe: range(row.shoe))
    }
}
