import AtelierServerAPI
import Foundation
import SQLKit
import Vapor

/// Product, store and brand answers with what the signed-in caller did with them (`viewer`, issue 51)
/// and, on a wholesaler's products, the trade terms the caller may see. Signed-out answers carry neither
/// and cost nothing more; a signed-in page costs one more statement (and one for trade terms when a
/// product on it has a trade price).
extension APIHandler {
    /// The signed-in caller's marks; nil when signed out.
    func catalogViewer(_ req: Request) async throws -> (viewer: CatalogViewer, user: User)? {
        guard let user = try await req.optionalCaller()?.user, let userID = user.id else { return nil }
        return (CatalogViewer(sql: req.db.sql, parts: services.catalogViewerParts, userID: userID), user)
    }

    /// `bodies[i]` is `products[i]`'s answer; each gets the caller's marks and the trade terms they may see.
    func addViewerState<Body>(
        to bodies: inout [Body], of products: [(id: UUID, storeID: UUID, currency: String, tradePriceMinor: Int?, caseSize: Int?)],
        _ req: Request,
        viewer: WritableKeyPath<Body, Components.Schemas.ProductViewerState?>,
        tradePrice: WritableKeyPath<Body, Components.Schemas.Money?>, caseSize: WritableKeyPath<Body, Int?>
    ) async throws {
        guard !products.isEmpty, let (marks, user) = try await catalogViewer(req) else { return }
        let states = try await marks.products(products.map(\.id))
        let traded = products.filter { $0.tradePriceMinor != nil }.map(\.storeID)
        let tradeStores = traded.isEmpty ? [] : try await StoreAccess(db: req.db).storesShowingTradeTerms(among: traded, to: user)
        for (index, product) in products.enumerated() {
            let state = states[product.id] ?? .init()
            bodies[index][keyPath: viewer] = .init(
                liked: state.liked, boardIds: state.boardIDs.map(\.idString), cartQuantity: state.cartQuantity)
            if let minor = product.tradePriceMinor, tradeStores.contains(product.storeID) {
                bodies[index][keyPath: tradePrice] = .init(amount: Int64(minor), currency: product.currency)
                bodies[index][keyPath: caseSize] = product.caseSize
            }
        }
    }

    /// Stores with `following` for a signed-in caller.
    func addViewerState(to stores: inout [Components.Schemas.Store], _ req: Request) async throws {
        guard !stores.isEmpty, let (marks, _) = try await catalogViewer(req) else { return }
        let followed = try await marks.followed(.store, stores.compactMap { UUID(uuidString: $0.id) })
        for index in stores.indices {
            stores[index].viewer = .init(following: UUID(uuidString: stores[index].id).map(followed.contains) ?? false)
        }
    }

    /// Brands with `following` for a signed-in caller.
    func addViewerState(to brands: inout [Components.Schemas.Brand], _ req: Request) async throws {
        guard !brands.isEmpty, let (marks, _) = try await catalogViewer(req) else { return }
        let followed = try await marks.followed(.brand, brands.compactMap { UUID(uuidString: $0.id) })
        for index in brands.indices {
            brands[index].viewer = .init(following: UUID(uuidString: brands[index].id).map(followed.contains) ?? false)
        }
    }
}
