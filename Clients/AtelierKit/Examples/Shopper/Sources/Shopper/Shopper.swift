import AtelierKit
import Foundation

/// Walks a short shopper journey against the server at the first argument (or `ATELIER_URL`, or
/// http://127.0.0.1:8080): sign up, browse, search, like, add to the cart, order for pickup, see
/// the order, open the magazine, sign out. Prints each step; exits 1 at the first that fails.
@main
struct Shopper {
    static func main() async {
        let address = CommandLine.arguments.dropFirst().first ?? ProcessInfo.processInfo.environment["ATELIER_URL"] ?? "http://127.0.0.1:8080"
        guard let server = URL(string: address) else { fail("not a URL: \(address)") }
        do {
            try await Journey(server: server).run()
            print("✓ done")
        } catch {
            // Never print the error itself: a network failure's description spells out the request.
            fail(AtelierError.isOffline(error) ? "cannot reach \(server): \(AtelierError.loggable(error))" : AtelierError.loggable(error))
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("✗ \(message)\n".utf8))
        exit(1)
    }
}

@MainActor
struct Journey {
    let server: URL

    func run() async throws {
        // An app leaves `tokenStore` out: the Keychain (or a 0600 file on Linux) keeps it signed in.
        let session = AtelierSession(baseURL: server, tokenStore: InMemoryTokenStore())
        let email = "shopper-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let me = try await session.signUp(email: email, password: "a long example password", displayName: "Example Shopper")
        print("• signed up as \(me.displayName) <\(email)>")

        let discover = DiscoverScreen(session: session)
        await discover.feed.loadMore()
        try check(discover.activity)
        print("• discover: \(discover.feed.items.count) products on the first page")

        let search = SearchScreen(session: session)
        search.query.q = "shirt"
        await search.search()
        try check(search.activity)
        let colours = search.facets?.colors.prefix(3).map { "\($0.label) (\($0.count))" }.joined(separator: ", ") ?? "–"
        print("• search \"shirt\": \(search.total) results; colours: \(colours)")

        // The first product whose store takes orders and has a size in stock goes into the cart.
        let candidates = search.results.map(\.id) + discover.feed.items.map(\.id)
        var chosen: ProductScreen?
        for id in candidates.prefix(40) {
            let page = ProductScreen(session: session, productID: id)
            await page.load()
            guard page.product != nil, page.selectedVariantID != nil else { continue }
            await page.addToCart()
            if page.cart != nil { chosen = page; break }
        }
        guard let page = chosen, let product = page.product else { throw Stop("no product could go into a cart") }
        print("• added \(product.title) from \(product.store.name) to the cart (\(page.cart?.itemCount ?? 0) item)")
        await page.toggleLike()
        try check(page.activity)
        print("• liked it: \(page.product?.likeCount ?? 0) like(s)")

        let cart = CartScreen(session: session)
        await cart.load()
        await cart.checkout(fulfilment: .pickup, paymentMethod: .payAtStore)
        try check(cart.activity)
        for order in cart.orders {
            print("• ordered #\(order.number) for pickup at \(order.store.name): \(order.status.rawValue), \(money(order.total)); pickup code \(order.pickupCode ?? "–")")
        }

        let orders = PagedListScreen(session.commerce.listMyOrdersItems())
        await orders.loadMore()
        if let error = orders.error { throw error }
        print("• my orders: \(orders.items.count)")

        let shelf = LibraryScreen(library: MagazineLibrary(session: session, language: "en", store: InMemoryMagazineStore()))
        await shelf.load()
        try check(shelf.activity)
        print("• magazine: \(shelf.issues.count) issue(s) kept for offline reading")

        try await session.signOut()
        print("• signed out: \(await session.isSignedIn ? "still signed in" : "no session left")")
    }

    /// Minor units as the shop shows them (the currencies here have two decimals).
    func money(_ money: Components.Schemas.Money) -> String {
        String(format: "%.2f %@", Double(money.amount) / 100, money.currency)
    }

    func check(_ activity: ScreenActivity) throws {
        if let error = activity.error { throw error }
    }
}

struct Stop: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
