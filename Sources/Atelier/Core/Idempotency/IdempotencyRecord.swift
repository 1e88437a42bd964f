import Fluent
import Foundation

/// The first response to a request made with an `Idempotency-Key`, replayed for 24 hours.
final class IdempotencyRecord: Model, @unchecked Sendable {
    static let schema = "idempotency_records"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "caller") var caller: String
    @Field(key: "key") var key: String
    @Field(key: "request_hash") var requestHash: String
    /// Nil while the first request is still being handled.
    @OptionalField(key: "status_code") var statusCode: Int?
    @OptionalField(key: "response_headers") var responseHeaders: String?
    @OptionalField(key: "response_body") var responseBody: Data?
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(caller: String, key: String, requestHash: String, now: Date) {
        self.id = .v7(at: now)
        self.caller = caller
        self.key = key
        self.requestHash = requestHash
        self.createdAt = now
    }
}

struct CreateIdempotencyRecords: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(IdempotencyRecord.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("caller", .string, .required)
            .field("key", .string, .required)
            .field("request_hash", .string, .required)
            .field("status_code", .int)
            .field("response_headers", .string)
            .field("response_body", .data)
            .field("created_at", .datetime, .required)
            .unique(on: "caller", "key")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(IdempotencyRecord.schema).delete()
    }
}
