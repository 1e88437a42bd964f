/// Checks on free text people type (captions, comments, reasons, search words).
enum PlainText {
    /// NUL cannot be stored in PostgreSQL text and is never typed by a person: refuse it with a 422
    /// naming the field rather than let the database fail.
    static func requireNoNUL(_ value: String, field: String) throws {
        guard !value.unicodeScalars.contains("\u{0}") else { throw Problem.invalid(field, "contains a NUL character") }
    }

    /// A comment's text, trimmed: not empty, no NUL, at most `maxLength` characters.
    static func comment(_ raw: String, field: String = "body", maxLength: Int) throws -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw Problem.invalid(field, "is empty; write something") }
        try requireNoNUL(text, field: field)
        guard text.count <= maxLength else {
            throw Problem.invalid(field, "may be at most \(maxLength) characters (this one has \(text.count))")
        }
        return text
    }
}
