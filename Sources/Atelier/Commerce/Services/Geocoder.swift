import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Places a typed address on the map through a Nominatim-compatible search (`GEOCODER_URL`):
/// `GET {url}/search?format=jsonv2&limit=1&street=…&postalcode=…&city=…`, whose answer is a list
/// of places with `lat` and `lon` as strings. Used at checkout for a delivery address typed by a
/// person, when a store delivers within a radius.
struct Geocoder: Sendable {
    static let timeout: TimeAmount = .seconds(5)

    let baseURL: String

    /// The point of the address, or nil when the service knows no such place. An unreachable or
    /// failing service is a 503 with `Retry-After` (the address may be fine).
    func place(street: String, postalCode: String, city: String) async throws -> (lat: Double, lng: Double)? {
        var components = URLComponents(string: baseURL + "/search")
        components?.queryItems = [
            .init(name: "format", value: "jsonv2"), .init(name: "limit", value: "1"), .init(name: "street", value: street),
            .init(name: "postalcode", value: postalCode), .init(name: "city", value: city),
        ]
        guard let url = components?.url else { return nil }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        // Nominatim's usage policy asks every client to name itself.
        request.headers.add(name: "User-Agent", value: "Atelier (delivery addresses)")
        struct Place: Decodable { var lat: String; var lon: String }
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: Self.timeout)
            guard response.status == .ok else { throw Unavailable() }
            let body = try await response.body.collect(upTo: 1 << 20)
            let places = try JSONDecoder().decode([Place].self, from: Data(buffer: body))
            guard let first = places.first, let lat = Double(first.lat), let lng = Double(first.lon),
                (-90...90).contains(lat), (-180...180).contains(lng)
            else { return nil }
            return (lat, lng)
        } catch {
            throw Problem(
                .serviceUnavailable, type: "https://atelier.dev/problems/temporarily-unavailable", title: "Temporarily unavailable",
                detail: "The address search is not available at the moment. Try again in a few seconds.",
                headers: [("Retry-After", String(TemporaryFailure.retryAfterSeconds))])
        }
    }

    private struct Unavailable: Error {}
}
