import Vapor

/// Before a quick moment: the places near where the person stands, to start the moment at one,
/// or a name and radius for the spot (`GET /moments/quick/places?lat=…&lng=…`).
enum QuickMomentPlacesPage {
    struct Context: WebPageContext {
        var page: PageContext
        var lat: String
        var lng: String
        var places: [Row]
    }

    struct Row: Encodable {
        var id: String
        var name: String
        var distance: String
    }

    static let searchRadius = 500

    static func register(_ signedIn: any RoutesBuilder) {
        signedIn.get("moments", "quick", "places", use: render)
    }

    static func render(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        guard let lat = req.query[Double.self, at: "lat"], let lng = req.query[Double.self, at: "lng"] else {
            Flash.set("error", "Your position is unknown: allow the browser to use your location.", on: req)
            return req.redirect(to: "/moments")
        }
        var errors = FieldErrors()
        Geo.check(lat: lat, lng: lng, into: &errors)
        try errors.throwIfAny()
        let nearby = try await PlaceService(db: req.db, core: req.core)
            .nearby(lat: lat, lng: lng, radius: searchRadius, viewer: user.requireID())
            .filter { $0.distanceMeters <= Double($0.place.radiusMeters) }
        return try await req.renderPage("moments/quick-places", Context(
            page: PageContext(req, title: "Where are you?"), lat: String(lat), lng: String(lng),
            places: nearby.map { Row(id: $0.place.id!.idString, name: $0.place.name, distance: "\(Int($0.distanceMeters.rounded())) m") }
        )).encodeResponse(for: req)
    }
}
