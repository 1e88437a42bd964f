import AtelierAPI
import Foundation
import OpenAPIRuntime

extension AtelierSession {
    /// The signed-in shopper's cart on the server.
    public var cart: ShoppingCart { ShoppingCart(client: client) }
}

/// The shopper's cart: every call answers with the whole cart as it is afterwards, grouped by
/// store, with current prices, availability and each line's `issues` (what changed since it was
/// added). Refusals throw `CommerceError` (a 401 that a token refresh could not fix throws
/// `AtelierError.signedOut`).
public struct ShoppingCart: Sendable {
    public typealias Contents = Components.Schemas.Cart
    private let client: Client

    public init(client: Client) {
        self.client = client
    }

    public func current() async throws -> Contents {
        switch try await client.getCart() {
        case .ok(let ok): return try ok.body.json
        case .unauthorized(let r): throw commerceFailure("getCart", 401, r)
        case .forbidden(let r): throw commerceFailure("getCart", 403, r)
        case .undocumented(let status, _): throw commerceFailure("getCart", status, nil)
        }
    }

    /// Adds `quantity` of a variant (a size); adding one already there adds the quantities up.
    /// `.invalid` for a quantity below 1 or more than is available, `.conflict` when the store
    /// does not take orders, `.forbidden` for an age-restricted product.
    public func add(variantID: String, quantity: Int = 1) async throws -> Contents {
        switch try await client.addToCart(body: .json(.init(variantId: variantID, quantity: quantity))) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw commerceFailure("addToCart", 400, r)
        case .unauthorized(let r): throw commerceFailure("addToCart", 401, r)
        case .forbidden(let r): throw commerceFailure("addToCart", 403, r)
        case .conflict(let r): throw commerceFailure("addToCart", 409, r)
        case .unprocessableContent(let r): throw commerceFailure("addToCart", 422, r)
        case .undocumented(let status, _): throw commerceFailure("addToCart", status, nil)
        }
    }

    /// Sets a line's quantity (0 removes it); the line takes the current price as seen.
    public func setQuantity(variantID: String, _ quantity: Int) async throws -> Contents {
        switch try await client.setCartLineQuantity(path: .init(variantId: variantID), body: .json(.init(quantity: quantity))) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw commerceFailure("setCartLineQuantity", 400, r)
        case .unauthorized(let r): throw commerceFailure("setCartLineQuantity", 401, r)
        case .forbidden(let r): throw commerceFailure("setCartLineQuantity", 403, r)
        case .notFound(let r): throw commerceFailure("setCartLineQuantity", 404, r)
        case .unprocessableContent(let r): throw commerceFailure("setCartLineQuantity", 422, r)
        case .undocumented(let status, _): throw commerceFailure("setCartLineQuantity", status, nil)
        }
    }

    /// Takes a variant out of the cart (one that is not there changes nothing).
    public func remove(variantID: String) async throws -> Contents {
        switch try await client.removeCartLine(path: .init(variantId: variantID)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw commerceFailure("removeCartLine", 400, r)
        case .unauthorized(let r): throw commerceFailure("removeCartLine", 401, r)
        case .forbidden(let r): throw commerceFailure("removeCartLine", 403, r)
        case .unprocessableContent(let r): throw commerceFailure("removeCartLine", 422, r)
        case .undocumented(let status, _): throw commerceFailure("removeCartLine", status, nil)
        }
    }

    public func clear() async throws -> Contents {
        switch try await client.clearCart() {
        case .ok(let ok): return try ok.body.json
        case .unauthorized(let r): throw commerceFailure("clearCart", 401, r)
        case .forbidden(let r): throw commerceFailure("clearCart", 403, r)
        case .undocumented(let status, _): throw commerceFailure("clearCart", status, nil)
        }
    }

    /// Accepts the current price of every line (after a line's issues say `priceChanged`, or a
    /// checkout was refused with `lines.{variantId}.price`). Start a new `CheckoutAttempt` after.
    public func acceptChanges() async throws -> Contents {
        switch try await client.acceptCartChanges() {
        case .ok(let ok): return try ok.body.json
        case .unauthorized(let r): throw commerceFailure("acceptCartChanges", 401, r)
        case .forbidden(let r): throw commerceFailure("acceptCartChanges", 403, r)
        case .undocumented(let status, _): throw commerceFailure("acceptCartChanges", status, nil)
        }
    }
}

/// One checkout the shopper is about to confirm: the cart as it is now, with a fulfilment, a
/// payment method and optionally a discount code and delivery address.
///
///     let attempt = CheckoutAttempt(session: session, fulfilment: .pickup, paymentMethod: .payAtStore)
///     do {
///         show(try await attempt.submit())
///     } catch CommerceError.conflict(let problem) {
///         // problem.unavailableVariantIDs ran out, problem.repricedVariantIDs changed price
///     } catch CommerceError.invalid(let problem) {
///         // problem.errors name the fields (fulfilment, paymentMethod, deliveryAddress, cart, …)
///     } catch {
///         // Timeout or lost connection: "Try again" calls `attempt.submit()` again.
///     }
///
/// The attempt makes one `Idempotency-Key` (a lower-case UUID) when it is created and sends it
/// with every `submit()`, so retrying after a timeout or a lost connection can never order twice:
/// the server orders once and answers every retry with those orders (for 24 hours). Concurrent
/// calls share one request. The final answer is kept: the orders, or a refusal (`CommerceError`
/// other than `.stillBeingHandled`), which later calls return or throw without asking again.
///
/// So **after the cart changed** (a price accepted with `ShoppingCart.acceptChanges()`, a line
/// removed or its quantity changed, items added after an order) or the shopper chose other
/// options, **create a new attempt**: an old one never orders the new cart, it only repeats its answer.
public actor CheckoutAttempt {
    public typealias Order = Components.Schemas.Order

    /// Sent as `Idempotency-Key` with every submit.
    public nonisolated let idempotencyKey: String
    public nonisolated let input: Components.Schemas.CheckoutInput
    private let client: Client
    private let busyRetryDelays: [Duration]
    private var outcome: Result<[Order], CommerceError>?
    private var running: Task<[Order], any Error>?

    /// - Parameters:
    ///   - idempotencyKey: leave out to get a new key; pass a persisted one only to resume that
    ///     attempt (same `input`, cart unchanged), e.g. after the app was terminated mid-checkout.
    ///   - busyRetryDelays: the waits before asking again while the server is still handling an
    ///     earlier request under this key (another device, or a request cut off by a timeout).
    public init(
        client: Client, fulfilment: Components.Schemas.Fulfilment, paymentMethod: Components.Schemas.PaymentMethod,
        discountCode: String? = nil, deliveryAddress: Components.Schemas.DeliveryAddress? = nil,
        idempotencyKey: String = UUID().uuidString.lowercased(),
        busyRetryDelays: [Duration] = [.milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600)]
    ) {
        self.client = client
        self.input = .init(fulfilment: fulfilment, paymentMethod: paymentMethod, discountCode: discountCode, deliveryAddress: deliveryAddress)
        self.idempotencyKey = idempotencyKey
        self.busyRetryDelays = busyRetryDelays
    }

    public init(
        session: AtelierSession, fulfilment: Components.Schemas.Fulfilment, paymentMethod: Components.Schemas.PaymentMethod,
        discountCode: String? = nil, deliveryAddress: Components.Schemas.DeliveryAddress? = nil
    ) {
        self.init(client: session.client, fulfilment: fulfilment, paymentMethod: paymentMethod, discountCode: discountCode,
                  deliveryAddress: deliveryAddress)
    }

    /// Orders the cart, one order per store. Throws `CommerceError.conflict` when a line ran out
    /// (`lines.{variantId}`) or changed price (`lines.{variantId}.price`) and nothing was ordered,
    /// `.invalid` for options or a cart the stores refuse (an empty cart too), `.forbidden` for an
    /// age-restricted line, `.stillBeingHandled` when the server kept working on this key through
    /// every retry. Transport errors are thrown as they are: call `submit()` again.
    public func submit() async throws -> [Order] {
        if let outcome { return try outcome.get() }
        if let running { return try await running.value }
        let task = Task { try await self.checkout() }
        running = task
        defer { running = nil }
        do {
            let orders = try await task.value
            outcome = .success(orders)
            return orders
        } catch let refusal as CommerceError where refusal != .stillBeingHandled {
            outcome = .failure(refusal)
            throw refusal
        }
    }

    private func checkout() async throws -> [Order] {
        var delays = busyRetryDelays[...]
        while true {
            switch try await client.checkout(headers: .init(idempotencyKey: idempotencyKey), body: .json(input)) {
            case .created(let created): return try created.body.json.orders
            case .conflict(let r):
                // The server's answer to a request under a key whose first request has not finished.
                guard let detail = r.problem?.detail, detail.lowercased().contains("still being handled") else {
                    throw commerceFailure("checkout", 409, r)
                }
                guard let delay = delays.popFirst() else { throw CommerceError.stillBeingHandled }
                try await Task.sleep(for: delay)
            case .badRequest(let r): throw commerceFailure("checkout", 400, r)
            case .unauthorized(let r): throw commerceFailure("checkout", 401, r)
            case .forbidden(let r): throw commerceFailure("checkout", 403, r)
            case .unprocessableContent(let r): throw commerceFailure("checkout", 422, r)
            case .undocumented(let status, _): throw commerceFailure("checkout", status, nil)
            }
        }
    }
}

/// What the server refused in the cart, checkout or orders; each case carries the RFC 9457 problem.
public enum CommerceError: Error, Sendable, Hashable {
    /// 409: from checkout, the cart changed (see `Problem.unavailableVariantIDs` and
    /// `repricedVariantIDs`) or a store stopped taking orders; from the cart, the store does not
    /// take orders. Nothing was done.
    case conflict(Components.Schemas.Problem)
    /// 422: `errors` names each invalid field.
    case invalid(Components.Schemas.Problem)
    /// 403: for example an age-restricted product the caller may not buy.
    case forbidden(Components.Schemas.Problem)
    case notFound(Components.Schemas.Problem)
    /// The server was still handling an earlier checkout under the attempt's key after every
    /// retry; submit the same attempt again later to learn its outcome.
    case stillBeingHandled

    public var problem: Components.Schemas.Problem? {
        switch self {
        case .conflict(let p), .invalid(let p), .forbidden(let p), .notFound(let p): p
        case .stillBeingHandled: nil
        }
    }
}

extension Components.Schemas.Problem {
    /// Lines no longer available in the quantity asked, or no longer for sale (`lines.{variantId}`).
    public var unavailableVariantIDs: [String] { lineVariantIDs(suffix: nil) }
    /// Lines whose price changed since the shopper saw it (`lines.{variantId}.price`; the message
    /// says the new price).
    public var repricedVariantIDs: [String] { lineVariantIDs(suffix: "price") }

    /// The first message for a field, e.g. `"lines.\(variantID)"`.
    public func message(for field: String) -> String? {
        errors?.first { $0.field == field }?.message
    }

    private func lineVariantIDs(suffix: String?) -> [String] {
        (errors ?? []).compactMap { error in
            let parts = error.field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2, parts[0] == "lines" else { return nil }
            return Array(parts.dropFirst(2)) == (suffix.map { [$0] } ?? []) ? parts[1] : nil
        }
    }
}

/// The problem responses of the generated client, whatever their status.
protocol ProblemResponse { var problem: Components.Schemas.Problem? { get } }

extension Components.Responses.BadRequest: ProblemResponse { var problem: Components.Schemas.Problem? { try? body.applicationProblemJson } }
extension Components.Responses.Unauthorized: ProblemResponse { var problem: Components.Schemas.Problem? { try? body.applicationProblemJson } }
extension Components.Responses.Forbidden: ProblemResponse { var problem: Components.Schemas.Problem? { try? body.applicationProblemJson } }
extension Components.Responses.NotFound: ProblemResponse { var problem: Components.Schemas.Problem? { try? body.applicationProblemJson } }
extension Components.Responses.Conflict: ProblemResponse { var problem: Components.Schemas.Problem? { try? body.applicationProblemJson } }
extension Components.Responses.Unprocessable: ProblemResponse { var problem: Components.Schemas.Problem? { try? body.applicationProblemJson } }

/// The error for a response other than the one hoped for.
func commerceFailure(_ operation: String, _ status: Int, _ response: (any ProblemResponse)?) -> any Error {
    let problem = response?.problem ?? .init(_type: "about:blank", title: "HTTP \(status)", status: status)
    switch status {
    case 401: return AtelierError.signedOut
    case 403: return CommerceError.forbidden(problem)
    case 404: return CommerceError.notFound(problem)
    case 409: return CommerceError.conflict(problem)
    case 422: return CommerceError.invalid(problem)
    case 429: return AtelierError.rateLimited(retryAfter: nil)
    default: return AtelierError.unexpectedResponse("\(operation): HTTP \(status) \(problem.detail ?? "")")
    }
}
