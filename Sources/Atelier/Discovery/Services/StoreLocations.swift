import Fluent
import Foundation
import SQLKit

/// Which active stores lie within a place. Stores are few (hundreds), so distances are computed
/// here, exactly, and the product queries get the store ids. Read as plain rows: this runs on
/// every feed and search request, and decoding hundreds of full models cost more than the query.
struct StoreLocations {
    let db: any Database
    /// The stores the caller may see.
    var visibility: StoreVisibility = .publicOnly

    fileprivate struct Location {
        var id: UUID
        var lat: Double
        var lng: Double
        var city: String
    }

    func activeStoreIDs(within km: Double, ofLat lat: Double, lng: Double) async throws -> [UUID] {
        try await activeStores().filter { Geo.distanceKm(lat1: lat, lng1: lng, lat2: $0.lat, lng2: $0.lng) <= km }.map(\.id)
    }

    func activeStoreIDs(inCity city: String) async throws -> [UUID] {
        try await activeStores().filter { $0.city.caseInsensitiveCompare(city) == .orderedSame }.map(\.id)
    }

    /// Read column by column (`FastColumns`): through `Decodable`, the rows of a few hundred
    /// stores were 5.7 % of the signed-in feeds' time (W1v, issue 19).
    fileprivate func activeStores() async throws -> [Location] {
        let sql = db.sql
        let textUUIDs = FastColumns.textUUIDs(on: sql)
        return try await sql.raw("""
            SELECT id, lat, lng, city FROM \(ident: Store.schema) WHERE \(visibility.sql(nil))
            """).all().map { raw in
            let row = FastColumns(raw, textUUIDs: textUUIDs)
            return Location(id: try row.uuid("id"), lat: try row.value("lat"), lng: try row.value("lng"), city: try row.value("city"))
        }
    }
}

extension StoreLocations {
    struct City: Sendable, Equatable {
        var name: String
        var lat: Double
        var lng: Double
    }

    /// The city with the most public active stores, centred on them: where a visitor whose
    /// position we do not know is shown around (the demo city on a fresh install). Ties go to
    /// the name first in the alphabet, so the choice does not change from one request to the next.
    func busiestCity() async throws -> City? {
        let byCity = Dictionary(grouping: try await activeStores(), by: { $0.city.trimmingCharacters(in: .whitespaces) })
            .filter { !$0.key.isEmpty }
        guard let (name, stores) = byCity.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }) else { return nil }
        let count = Double(stores.count)
        return City(name: name, lat: stores.map(\.lat).reduce(0, +) / count, lng: stores.map(\.lng).reduce(0, +) / count)
    }
}
