import Fluent
import Foundation

/// A person asking to open a store on Atelier (issue 51): admins approve it, which makes the store
/// with the applicant as its owner, or decline it with a reason.
final class StoreApplication: Model, @unchecked Sendable {
    static let schema = "store_applications"

    enum Status: String, Codable, Sendable, CaseIterable { case pending, approved, declined }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "applicant_id") var applicantID: UUID
    @Field(key: "name") var name: String
    @Field(key: "street") var street: String
    @Field(key: "postal_code") var postalCode: String
    @Field(key: "city") var city: String
    @Field(key: "lat") var lat: Double
    @Field(key: "lng") var lng: Double
    @Field(key: "about") var about: String
    @Field(key: "status") var status: String
    @OptionalField(key: "decline_reason") var declineReason: String?
    @OptionalField(key: "store_id") var storeID: UUID?
    @OptionalField(key: "decided_at") var decidedAt: Date?
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
