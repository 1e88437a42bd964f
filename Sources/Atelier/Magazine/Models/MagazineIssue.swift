import Fluent
import Foundation

/// One issue of the magazine: its number, a label per language, a cover and a PDF edition per
/// language. Readers see it from `publishAt` on, once it is scheduled or published.
final class MagazineIssue: Model, @unchecked Sendable {
    static let schema = "magazine_issues"

    enum Status: String, Codable, Sendable, CaseIterable { case draft, scheduled, published }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "number") var number: Int
    /// JSON object: language → label ("Issue 11", "Numărul 11").
    @Field(key: "labels") var labelsJSON: String
    @OptionalField(key: "cover_media_id") var coverMediaID: UUID?
    /// JSON object: language → media id of the PDF edition.
    @Field(key: "pdfs") var pdfsJSON: String
    @Field(key: "status") var status: String
    @OptionalField(key: "publish_at") var publishAt: Date?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var labels: [String: String] {
        get { JSONText.decode(labelsJSON) ?? [:] }
        set { labelsJSON = JSONText.encode(newValue) }
    }

    var pdfs: [String: UUID] {
        get { (JSONText.decode(pdfsJSON) as [String: String]?)?.compactMapValues(UUID.init(uuidString:)) ?? [:] }
        set { pdfsJSON = JSONText.encode(newValue.mapValues { $0.idString }) }
    }

    var issueStatus: Status { Status(rawValue: status) ?? .draft }

    /// Readers see the issue from its publish time on, once it is scheduled or published.
    func isVisible(at now: Date) -> Bool {
        guard issueStatus != .draft, let publishAt else { return false }
        return publishAt <= now
    }
}

/// Small JSON columns (per-language labels and bios) read and written as dictionaries.
enum JSONText {
    static func decode<T: Decodable>(_ text: String) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
