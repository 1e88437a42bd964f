import Fluent
import Vapor

/// `/admin/deliveries`: pushes that failed, with the reason, to send again.
enum AdminDeliveriesPage {
    static func register(_ admin: any RoutesBuilder) {
        admin.get("deliveries", use: deliveries)
        admin.post("deliveries", ":id", "retry") { req in
            try await AdminActions.act(req, back: "/admin/deliveries") { _ in
                guard try await PushRetries(db: req.db, core: req.core).retry(try AdminActions.id(req)) else { throw Problem.notFound("failed delivery") }
                req.atelier.jobsWaiting.signal()
                return "The push will be sent again."
            }
        }
    }

    struct DeliveriesPage: WebPageContext {
        var page: PageContext
        var deliveries: [DeliveryRow]
    }

    struct DeliveryRow: Encodable {
        var id: String
        var kind: String
        var channel: String
        var recipient: String
        var text: String
        var reason: String
        var attempts: Int
        var when: String
        var canRetry: Bool
    }

    static func deliveries(_ req: Request) async throws -> View {
        let rows = try await NotificationDelivery.query(on: req.db).filter(\.$status == NotificationDelivery.Status.failed.rawValue)
            .sort(\.$updatedAt, .descending).limit(100).all()
        let users = try await User.query(on: req.db).filter(\.$id ~~ Set(rows.map(\.userID))).all()
        let names = Dictionary(uniqueKeysWithValues: users.map { ($0.id!, "\($0.displayName) (@\($0.username))") })
        return try await req.renderPage("admin/deliveries", DeliveriesPage(
            page: PageContext(req, title: "Failed pushes"),
            deliveries: rows.map {
                DeliveryRow(id: $0.id!.idString, kind: $0.kind, channel: $0.channel, recipient: names[$0.userID] ?? "—", text: $0.text,
                            reason: $0.reason ?? $0.lastError ?? "", attempts: $0.attempts, when: AdminActions.time($0.updatedAt), canRetry: $0.deviceID != nil)
            }))
    }
}
