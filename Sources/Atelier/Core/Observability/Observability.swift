import Fluent
import Metrics
import Prometheus
import SQLKit
import Vapor

/// Prometheus metrics (Vapor reports per-route request counts and latency histograms through
/// swift-metrics) and the health endpoints.
enum Observability {
    /// The metrics system is process-wide and can be bootstrapped once.
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            Duration.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .milliseconds(2500), Duration.seconds(5), .seconds(10),
        ]
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    static func routes(_ app: Application) {
        let registry = Self.registry
        app.get("metrics") { _ -> Response in
            var buffer: [UInt8] = []
            registry.emit(into: &buffer)
            var headers = HTTPHeaders()
            headers.add(name: .contentType, value: "text/plain; version=0.0.4; charset=utf-8")
            return Response(status: .ok, headers: headers, body: .init(data: Data(buffer)))
        }
        app.get("health") { _ in HealthStatus(status: "ok") }
        app.get("health", "ready") { req async throws -> HealthStatus in
            if req.core.draining.withLockedValue({ $0 }) {
                throw Problem(.serviceUnavailable, detail: "This instance is shutting down.", headers: [("Retry-After", "1")])
            }
            guard let sql = req.db as? any SQLDatabase else { return HealthStatus(status: "ok") }
            do {
                _ = try await sql.raw("SELECT 1").all()
            } catch {
                req.logger.error("Readiness check failed: \(String(reflecting: error))")
                throw Problem(
                    .serviceUnavailable, detail: "The database is not reachable.",
                    headers: [("Retry-After", String(TemporaryFailure.retryAfterSeconds))])
            }
            return HealthStatus(status: "ok")
        }
    }

    struct HealthStatus: Content {
        var status: String
    }
}
