/// Checks on free text people type (captions, comments, reasons, search words).
enum PlainText {
    /// NUL cannot be stored in PostgreSQL text and is never typed by a person: refuse it with a 422
    /// naming the field rather than let the database fail.
    static func requireNoNUL(_ value: String, field: String) throws {
        guard !value.unicodeScalars.contains("\u{0}") else { throw Problem.invalid(field, "contains a NUL character") }
    }
}
