import Fluent
import SQLKit
import Foundation

/// One uploaded photo: its cleaned original and variants in the media store, and what owns it.
final class Media: Model, @unchecked Sendable {
    static let schema = "media"

    enum Visibility: String, Codable, Sendable { case `public`, `private` }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    /// Who uploaded it; NULL once that account is deleted, for media a store or the magazine keeps.
    @OptionalParent(key: "uploader_id") var uploader: User?
    /// What the photo is attached to ("product", "post", …); nil until attached.
    @OptionalField(key: "owner_type") var ownerType: String?
    @OptionalField(key: "owner_id") var ownerID: UUID?
    @Field(key: "visibility") var visibility: String
    /// SHA-256 of the cleaned original; the store keys derive from it.
    @Field(key: "content_hash") var contentHash: String
    @Field(key: "format") var format: String
    @Field(key: "width") var width: Int
    @Field(key: "height") var height: Int
    @Field(key: "byte_size") var byteSize: Int
    @Field(key: "dominant_color") var dominantColor: String
    @Field(key: "placeholder") var placeholder: String
    /// JSON list of `MediaVariant`.
    @Field(key: "variants") var variantsJSON: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "attached_at") var attachedAt: Date?

    init() {}

    var variants: [MediaVariant] {
        MediaVariant.parsed(variantsJSON)
    }

    var originalKey: String { MediaKeys.original(hash: contentHash, format: format) }
}

struct MediaVariant: Codable, Sendable, Equatable {
    var width: Int
    var height: Int
    var format: String
    var key: String
}

enum MediaKeys {
    static func folder(_ hash: String) -> String { "\(hash.prefix(2))/\(hash)" }
    static func original(hash: String, format: String) -> String {
        "\(folder(hash))/original.\(format == "jpeg" ? "jpg" : format)"
    }
    static func variant(hash: String, file: String) -> String { "\(folder(hash))/\(file)" }
    /// A photo's original (private by media.md); a magazine's PDF edition is an original too, but public.
    static func isPhotoOriginal(_ key: String) -> Bool {
        guard let file = key.split(separator: "/").last else { return false }
        return file.hasPrefix("original.") && !file.hasSuffix(".pdf")
    }

    static func contentType(forKey key: String) -> String {
        switch (key as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "pdf": "application/pdf"
        default: "application/octet-stream"
        }
    }

    /// Keys are only what we make: hex folders and known file names, nothing that climbs out.
    static func isWellFormed(_ key: String) -> Bool {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 2, parts[1].count == 64, parts[1].hasPrefix(parts[0]),
            parts[1].allSatisfy(\.isHexDigit)
        else { return false }
        let file = parts[2]
        return file.range(of: #"^(original\.(jpg|png|webp|pdf)|w[0-9]{1,4}\.(jpg|webp))$"#, options: .regularExpression) != nil
    }
}

struct CreateMedia: AsyncMigration {
    /// Every column, in the order the table has them.
    static let columns = [
        "id", "uploader_id", "owner_type", "owner_id", "visibility", "content_hash", "format", "width", "height",
        "byte_size", "dominant_color", "placeholder", "variants", "created_at", "attached_at",
    ]

    func prepare(on database: any Database) async throws {
        try await Self.table(named: Media.schema, on: database, uploaderOptional: false)
        guard let sql = database as? any SQLDatabase else { return }
        try await Self.indexes(on: sql)
    }

    /// The table as first made (the uploader cascaded, and was required); `DetachMediaFromUploaders`
    /// rebuilds it with the uploader optional.
    static func table(named name: String, on database: any Database, uploaderOptional: Bool) async throws {
        let builder = database.schema(name).field("id", .uuid, .identifier(auto: false))
        if uploaderOptional {
            builder.field("uploader_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
        } else {
            builder.field("uploader_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
        }
        try await builder
            .field("owner_type", .string)
            .field("owner_id", .uuid)
            .field("visibility", .string, .required)
            .field("content_hash", .string, .required)
            .field("format", .string, .required)
            .field("width", .int, .required)
            .field("height", .int, .required)
            .field("byte_size", .int, .required)
            .field("dominant_color", .string, .required)
            .field("placeholder", .string, .required)
            .field("variants", .string, .required)
            .field("created_at", .datetime, .required)
            .field("attached_at", .datetime)
            .create()
    }

    static func indexes(on sql: any SQLDatabase) async throws {
        try await sql.create(index: "media_content_hash_idx").on(Media.schema).column("content_hash").run()
        try await sql.create(index: "media_owner_idx").on(Media.schema).column("owner_type").column("owner_id").run()
        try await sql.create(index: "media_unattached_idx").on(Media.schema).column("attached_at").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Media.schema).delete()
    }
}
