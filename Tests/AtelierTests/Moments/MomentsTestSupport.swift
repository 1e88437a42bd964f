import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct PlaceBody: Decodable {
    var id: String
    var name: String
    var lat: Double
    var lng: Double
    var radiusMeters: Int
}

struct FaveSummaryBody: Decodable {
    var count: Int
    var mine: Bool
}

struct MomentBody: Decodable {
    var id: String
    var name: String
    var status: String
    var place: PlaceBody
    var visibility: String
    var category: String
    var cover: ImageBody?
    var creator: UserSummaryBody
    var myState: String?
    var photoCount: Int
    var memberCount: Int
    var faves: FaveSummaryBody
    var canPost: Bool
    var canEdit: Bool
}

struct MomentPageBody: Decodable {
    var items: [MomentBody]
    var nextCursor: String?
}

struct MemberBody: Decodable {
    var person: UserSummaryBody
    var state: String
    var isCreator: Bool
}

struct MomentPhotoBody: Decodable {
    var id: String
    var momentId: String
    var author: UserSummaryBody
    var photo: ImageBody
    var faves: FaveSummaryBody
    var commentCount: Int
    var isCover: Bool
    var canDelete: Bool
}

struct MomentPhotoPageBody: Decodable {
    var items: [MomentPhotoBody]
    var nextCursor: String?
}

/// The centre of every test moment's place: Piața Romană, Bucharest.
enum TestPlace {
    static let lat = 44.4467
    static let lng = 26.0975
    /// A point `meters` north of the centre (one degree of latitude is about 111.2 km).
    static func north(_ meters: Double) -> (lat: Double, lng: Double) { (lat + meters / 111_195, lng) }
}

extension TestApp {
    /// A moment at `TestPlace` with a 100 m radius, from `startIn` to `endIn` seconds from now.
    func createMoment(
        _ session: Session, name: String = "Dana's birthday", visibility: String = "private",
        startIn: TimeInterval = 3600, endIn: TimeInterval = 4 * 3600, radius: Int = 100
    ) async throws -> MomentBody {
        let formatter = ISO8601DateFormatter()
        let now = clock.now()
        let json = """
            {"name":"\(name)","startsAt":"\(formatter.string(from: now.addingTimeInterval(startIn)))",\
            "endsAt":"\(formatter.string(from: now.addingTimeInterval(endIn)))","visibility":"\(visibility)","category":"birthday",\
            "place":{"name":"Piața Romană","lat":\(TestPlace.lat),"lng":\(TestPlace.lng),"radiusMeters":\(radius)}}
            """
        let response = try await send(.POST, "/api/v1/moments", json: json, token: session.accessToken)
        #expect(response.status == .created, "\(response.body.string)")
        return try response.content.decode(MomentBody.self)
    }

    func invite(_ people: [Session], to moment: MomentBody, by creator: Session) async throws -> TestingHTTPResponse {
        let ids = people.map { "\"\($0.user.id)\"" }.joined(separator: ",")
        return try await send(.POST, "/api/v1/moments/\(moment.id)/invitations", json: #"{"userIds":[\#(ids)]}"#, token: creator.accessToken)
    }

    func join(_ moment: MomentBody, _ session: Session) async throws -> TestingHTTPResponse {
        try await send(.POST, "/api/v1/moments/\(moment.id)/join", token: session.accessToken)
    }

    func checkIn(_ moment: MomentBody, _ session: Session, at point: (lat: Double, lng: Double), accuracy: Double = 5) async throws -> TestingHTTPResponse {
        try await send(.POST, "/api/v1/moments/\(moment.id)/check-in",
                       json: #"{"lat":\#(point.lat),"lng":\#(point.lng),"accuracyMeters":\#(accuracy)}"#, token: session.accessToken)
    }

    /// Uploads a private photo and posts it to the moment; returns the response.
    func postMomentPhoto(_ moment: MomentBody, _ session: Session, width: Int = 64, height: Int = 80) async throws -> TestingHTTPResponse {
        let media = try await uploadPhoto(token: session.accessToken, width: width, height: height)
        return try await send(.POST, "/api/v1/moments/\(moment.id)/photos", json: #"{"mediaId":"\#(media)"}"#, token: session.accessToken)
    }

    func momentPhoto(_ moment: MomentBody, _ session: Session) async throws -> MomentPhotoBody {
        let response = try await postMomentPhoto(moment, session)
        #expect(response.status == .created, "\(response.body.string)")
        return try response.content.decode(MomentPhotoBody.self)
    }

    /// Moves the clock and gives everyone fresh access tokens (they last 15 minutes).
    func move(to date: Date, _ sessions: inout [Session]) async throws {
        clock.set(date)
        for index in sessions.indices { sessions[index] = try await refreshed(sessions[index]) }
    }
}
