import Metrics
import NIOConcurrencyHelpers
import Vapor

/// The per-route request metrics Vapor reports (`http_requests_total`, `http_request_errors_total`,
/// `http_request_duration_seconds`, by method, route and status), with the metric handles kept per
/// route and status. Vapor makes new handles for every request — the path joined into a string, then a
/// look-up by label and dimensions in the metrics registry — which was about 4 % of a `/health`
/// request (issue 19). Vapor's own reporting is switched off where this is installed.
struct RouteMetricsMiddleware: Middleware {
    private struct Key: Hashable {
        var route: ObjectIdentifier?
        var method: String
        var status: UInt
    }

    private struct Handles: Sendable {
        var requests: Counter
        var errors: Counter?
        var duration: Timer
    }

    private let handles = NIOLockedValueBox<[Key: Handles]>([:])

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let start = DispatchTime.now().uptimeNanoseconds
        return next.respond(to: request).always { result in
            let status: UInt
            switch result {
            case .success(let response): status = response.status.code
            case .failure: status = HTTPStatus.internalServerError.code
            }
            let metrics = handles(for: request, status: status)
            metrics.requests.increment()
            metrics.errors?.increment()
            metrics.duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
        }
    }

    private func handles(for request: Request, status: UInt) -> Handles {
        let route = request.route
        // Requests no route answers share one set, as in Vapor: their paths are whatever a client sends.
        let key = Key(route: route.map(ObjectIdentifier.init), method: route == nil ? "undefined" : request.method.rawValue, status: status)
        if let known = handles.withLockedValue({ $0[key] }) { return known }
        let path = route.map { "/" + $0.path.map { "\($0)" }.joined(separator: "/") } ?? "vapor_route_undefined"
        let dimensions = [("method", key.method), ("path", path), ("status", String(status))]
        let made = Handles(
            requests: Counter(label: "http_requests_total", dimensions: dimensions),
            errors: status >= 500 ? Counter(label: "http_request_errors_total", dimensions: dimensions) : nil,
            duration: Timer(label: "http_request_duration_seconds", dimensions: dimensions, preferredDisplayUnit: .seconds))
        handles.withLockedValue { $0[key] = made }
        return made
    }
}
