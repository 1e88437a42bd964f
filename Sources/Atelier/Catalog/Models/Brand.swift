import Fluent
import Foundation

/// A brand. Admins create approved brands; a store may propose one, which an admin approves.
final class Brand: Model, @unchecked Sendable {
    static let schema = "brands"

    enum Status: String, Codable, Sendable { case approved, proposed }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "name") var name: String
    @Field(key: "slug") var slug: String
    @OptionalField(key: "logo_media_id") var logoMediaID: UUID?
    @Field(key: "status") var status: String
    @OptionalField(key: "proposed_by_store_id") var proposedByStoreID: UUID?
    @Field(key: "follower_count") var followerCount: Int
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// What a brand's answers and pages read, from the model or from a plain row (`BrandLine`).
protocol BrandColumns: Sendable {
    var id: UUID? { get }
    var name: String { get }
    var slug: String { get }
    var logoMediaID: UUID? { get }
    var status: String { get }
    var followerCount: Int { get }
}

extension BrandColumns {
    var isApproved: Bool { status == Brand.Status.approved.rawValue }
}

extension Brand: BrandColumns {}
