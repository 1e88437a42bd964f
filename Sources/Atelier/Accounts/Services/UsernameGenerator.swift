import Fluent
import Foundation

/// A free username derived from the display name (or the email), e.g. "Ana Pop" -> "ana.pop" or "ana.pop42".
struct UsernameGenerator {
    let db: any Database

    func make(from displayName: String, email: String?) async throws -> String {
        let base = slug(displayName).isEmpty ? slug(email?.split(separator: "@").first.map(String.init) ?? "") : slug(displayName)
        var stem = String((base.isEmpty ? "user" : base).prefix(24))
        while stem.count < 3 { stem += "x" }
        var candidate = stem
        for attempt in 0..<20 {
            if try await User.query(on: db).filter(\.$username == candidate).count() == 0 { return candidate }
            let digits = attempt < 10 ? Int.random(in: 10...99) : Int.random(in: 1000...999_999)
            candidate = "\(stem)\(digits)"
        }
        return "user\(UUID().uuidString.prefix(8).lowercased())"
    }

    private func slug(_ text: String) -> String { Slug.make(text, separator: ".") }
}
