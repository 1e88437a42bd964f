import Fluent
import Vapor

/// `/trade/{store}`: a bar or restaurant asks a wholesaler for a trade account on the web (issue 51),
/// and sees where its request stands. The page names the store even while its catalogue is
/// sign-in-to-browse: the wholesaler hands this link to the businesses it wants as customers.
/// Only stores that sell to the trade (sign-in-to-browse, or paid by invoice) have the page.
enum TradeApplicationPage {
    struct Context: WebPageContext {
        var page: PageContext
        var storeName: String
        var storeSlug: String
        /// pending, approved, rejected, or nil before applying.
        var status: String?
        var companyName: String?
        var vatNumber: String?
    }

    static func register(_ web: any RoutesBuilder) {
        web.get("trade", ":slug", use: page)
        web.grouped(RequireWebUser()).post("trade", ":slug", use: apply)
    }

    static func page(_ req: Request) async throws -> View {
        let (store, _) = try await tradeStore(req)
        var context = Context(page: PageContext(req, title: "Trade account · \(store.name)"), storeName: store.name, storeSlug: store.slug)
        if let userID = req.webSessionUser?.id,
            let application = try await TradeCustomer.query(on: req.db).filter(\.$storeID == store.requireID()).filter(\.$userID == userID).first()
        {
            context.status = application.status
            context.companyName = application.companyName
            context.vatNumber = application.vatNumber.isEmpty ? nil : application.vatNumber
        }
        return try await req.renderPage("commerce/trade-apply", context)
    }

    static func apply(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let (store, _) = try await tradeStore(req)
        struct Form: Content { var companyName: String?; var vatNumber: String? }
        let form = try req.content.decode(Form.self)
        return try await req.formAction(redirectTo: "/trade/\(store.slug)") {
            _ = try await TradeCustomerService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges)
                .apply(to: store, by: user, companyName: form.companyName ?? "", vatNumber: form.vatNumber)
            return "Sent. \(store.name) will let you know in your inbox."
        }
    }

    private static func tradeStore(_ req: Request) async throws -> (Store, CommerceSettings) {
        let slug = (req.parameters.get("slug") ?? "").lowercased()
        guard let store = try await Store.query(on: req.db).filter(\.$slug == slug).first(), store.isActive else { throw Problem.notFound("store") }
        let settings = try await CommerceSettingsService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges).settings(of: store)
        guard settings.orderingEnabled, settings.signInToBrowse || settings.payByInvoice else { throw Problem.notFound("store") }
        return (store, settings)
    }
}
