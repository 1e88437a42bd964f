import Foundation

extension UUID {
    /// The id as it leaves the server: lower-case (`uuidString` is upper-case).
    var idString: String { uuidString.lowercased() }
}
