import Fluent
import Vapor

/// The store portal's selling pages: stock with the barcode box, trade customers, discount codes.
enum PortalShopPages {
    struct StockRow: Encodable {
        var variantID: String
        var productTitle: String
        var productURL: String
        var size: String
        var onHand: Int
        var held: Int
        var allocated: Int
        var available: Int
        var threshold: Int?
        var gtin: String?
        var low: Bool
        var matched: Bool
    }

    struct StockContext: WebPageContext {
        var page: PageContext
        var store: PortalRoutes.StoreNav
        var rows: [StockRow]
        var onlyLow: Bool
        var code: String?
        var codeMessage: String?
    }

    struct TradeRow: Encodable {
        var userID: String
        var company: String
        var vat: String
        var person: String
        var status: String
    }

    struct TradeContext: WebPageContext {
        var page: PageContext
        var store: PortalRoutes.StoreNav
        var rows: [TradeRow]
    }

    struct CodeRow: Encodable {
        var code: String
        var value: String
        var limits: String
        var used: Int
    }

    struct CodesContext: WebPageContext {
        var page: PageContext
        var store: PortalRoutes.StoreNav
        var rows: [CodeRow]
    }

    static func register(_ store: any RoutesBuilder) {
        store.get("stock", use: stock)
        store.post("stock", ":variantID", use: updateStock)
        store.get("trade", use: trade)
        store.post("trade", ":userID", use: decide)
        store.get("codes", use: codes)
        store.post("codes", use: createCode)
    }

    static func stock(_ req: Request) async throws -> View {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "stock")
        let onlyLow = req.query[String.self, at: "low"] == "1"
        var code = req.query[String.self, at: "code"]?.trimmingCharacters(in: .whitespaces)
        var codeMessage: String?
        if let raw = code, !raw.isEmpty {
            switch GTIN.normalise(raw) {
            case .success(let normalised): code = normalised
            case .failure(let reason): codeMessage = "\(raw) \(reason.message)."; code = nil
            }
        } else {
            code = nil
        }
        let products = try await Product.query(on: req.db).filter(\.$store.$id == store.requireID()).sort(\.$title).all()
        let variants = try await ProductVariant.query(on: req.db).filter(\.$product.$id ~~ products.map { $0.id! }).sort(\.$position).all()
        let byProduct = Dictionary(grouping: variants, by: { $0.$product.id })
        var rows: [StockRow] = []
        for product in products {
            for variant in byProduct[product.id!] ?? [] {
                let low = variant.lowStockThreshold.map { variant.available <= $0 } ?? (variant.available == 0)
                if onlyLow, !low { continue }
                rows.append(StockRow(
                    variantID: variant.id!.idString, productTitle: product.title,
                    productURL: "/portal/stores/\(nav.id)/products/\(product.id!.idString)/edit", size: variant.size, onHand: variant.stock,
                    held: variant.held, allocated: variant.allocated, available: variant.available, threshold: variant.lowStockThreshold,
                    gtin: variant.gtin, low: low, matched: code != nil && variant.gtin == code))
            }
        }
        if let code {
            let matches = rows.filter(\.matched)
            rows = matches + rows.filter { !$0.matched }
            codeMessage = matches.isEmpty
                ? "No size carries \(code) yet. Create the product, then type the code into its size's row here."
                : "\(code): \(matches.map { "\($0.productTitle), \($0.size)" }.joined(separator: "; "))."
        }
        return try await req.renderPage("commerce/portal-stock", StockContext(
            page: PageContext(req, title: "Stock · \(store.name)"), store: nav, rows: rows, onlyLow: onlyLow, code: code, codeMessage: codeMessage))
    }

    static func updateStock(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "stock")
        let service = VariantStockService(db: req.db, core: req.core)
        let variant = try await service.variant(req.parameters.get("variantID") ?? "", in: store)
        let threshold = (try? req.content.get(String.self, at: "threshold")).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        do {
            _ = try await service.update(
                variant, onHand: (try? req.content.get(Int.self, at: "onHand")) ?? variant.stock, lowStockThreshold: threshold,
                gtin: try? req.content.get(String.self, at: "gtin"), expectedOnHand: try? req.content.get(Int.self, at: "expectedOnHand"))
            Flash.set("success", "\(variant.product.title), \(variant.size): saved.", on: req)
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", problem.errors.first.map { "\($0.field): \($0.message)" } ?? problem.detail ?? "Not saved.", on: req)
        }
        return req.redirect(to: "/portal/stores/\(nav.id)/stock")
    }

    static func trade(_ req: Request) async throws -> View {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "trade")
        let rows = try await TradeCustomerService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges).list(of: store, status: nil).map { row, user in
            TradeRow(
                userID: row.userID.idString, company: row.companyName, vat: row.vatNumber,
                person: "\(user.displayName)\(user.email.map { " · \($0)" } ?? "")", status: row.status)
        }
        return try await req.renderPage("commerce/portal-trade", TradeContext(page: PageContext(req, title: "Trade customers · \(store.name)"), store: nav, rows: rows))
    }

    static func decide(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "trade")
        let approve = (try? req.content.get(String.self, at: "decision")) == "approve"
        _ = try await TradeCustomerService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges).decide(req.parameters.get("userID") ?? "", in: store, approve: approve, by: user)
        Flash.set("success", approve ? "Approved: they now see your trade prices." : "Declined.", on: req)
        return req.redirect(to: "/portal/stores/\(nav.id)/trade")
    }

    static func codes(_ req: Request) async throws -> View {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "codes")
        let currency = try await Product.query(on: req.db).filter(\.$store.$id == store.requireID()).first()?.currency ?? "SEK"
        let rows = try await DiscountService(db: req.db, core: req.core).list(in: store).map { code in
            CodeRow(
                code: code.code, value: code.kind == "percentage" ? "\(code.value) %" : MoneyText.format(code.value, currency),
                limits: [code.totalLimit.map { "\($0) uses" }, code.perCustomerLimit.map { "\($0) per customer" },
                         code.minimumOrderMinor > 0 ? "from \(MoneyText.format(code.minimumOrderMinor, currency))" : nil,
                         code.endsAt.map { "until \(OrderWebPages.format($0, timeZone: store.timeZone))" }]
                    .compactMap { $0 }.joined(separator: ", "),
                used: code.usedCount)
        }
        return try await req.renderPage("commerce/portal-codes", CodesContext(page: PageContext(req, title: "Discount codes · \(store.name)"), store: nav, rows: rows))
    }

    static func createCode(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "codes")
        let currency = try await Product.query(on: req.db).filter(\.$store.$id == store.requireID()).first()?.currency ?? "SEK"
        let kind = (try? req.content.get(String.self, at: "kind")) ?? "percentage"
        let rawValue = (try? req.content.get(String.self, at: "value")) ?? ""
        let value = kind == "fixed" ? MoneyText.minorUnits(rawValue, currency: currency) ?? -1 : Int(rawValue) ?? -1
        let int = { (field: String) in (try? req.content.get(String.self, at: field)).flatMap { Int($0) } }
        do {
            _ = try await DiscountService(db: req.db, core: req.core).create(
                .init(
                    code: (try? req.content.get(String.self, at: "code")) ?? "", kind: kind, value: value,
                    minimumOrderMinor: (try? req.content.get(String.self, at: "minimum")).flatMap { MoneyText.minorUnits($0, currency: currency) },
                    startsAt: nil, endsAt: nil, totalLimit: int("totalLimit"), perCustomerLimit: int("perCustomerLimit")),
                in: store)
            Flash.set("success", "The code is live.", on: req)
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", problem.errors.first.map { "\($0.field): \($0.message)" } ?? problem.detail ?? "Not saved.", on: req)
        }
        return req.redirect(to: "/portal/stores/\(nav.id)/codes")
    }
}
