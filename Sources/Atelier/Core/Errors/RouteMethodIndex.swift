import NIOConcurrencyHelpers
import RoutingKit
import Vapor

/// Knows which methods each registered path answers to, so a request with the wrong method
/// gets `405` with `Allow` instead of Vapor's plain `404`. Built on first use, after all routes exist.
final class RouteMethodIndex: @unchecked Sendable {  // the router is only touched under the lock
    private let routes: Routes
    private let router = NIOLockedValueBox<TrieRouter<[String]>?>(nil)

    /// RoutingKit refuses empty paths, so every path hangs under one constant root.
    private static let root = "~"

    init(routes: Routes) {
        self.routes = routes
    }

    func methods(forPath path: String) -> [String] {
        let components = [Self.root] + path.split(separator: "/").map(String.init)
        return router.withLockedValue { router in
            if router == nil { router = build() }
            var parameters = Parameters()
            return router?.route(path: components, parameters: &parameters) ?? []
        }
    }

    private func build() -> TrieRouter<[String]> {
        // Parameter names may differ between methods on one path; only the shape matters here.
        var byPath: [String: (path: [PathComponent], methods: [String])] = [:]
        for route in routes.all {
            let shape: [PathComponent] = [.constant(Self.root)] + route.path.map { component in
                if case .parameter = component { return .parameter("p") }
                return component
            }
            let key = shape.map(\.description).joined(separator: "/")
            byPath[key, default: (shape, [])].methods.append(route.method.rawValue)
        }
        let router = TrieRouter<[String]>()
        for entry in byPath.values {
            router.register(Array(Set(entry.methods)).sorted(), at: entry.path)
        }
        return router
    }
}
