import Foundation
import OpenAPIKit

/// Who may call an operation, in words. The contract marks public operations with `security: []`
/// (or an empty requirement when a token is optional) and names roles in its summaries, as in
/// "Create a store (admins)." or "The store's order queue (staff)".
enum APIAccess {
    struct Label: Equatable {
        var label: String
        /// The contract's own words when they name more than a role ("its author, or an editor moderating").
        var note: String?
    }

    /// `groupText` is the tag's description, which may name the role for every operation under it
    /// ("Editing the magazine (editors and admins; …)").
    static func describe(security: [OpenAPI.SecurityRequirement], path: String, text: String, groupText: String? = nil) -> Label {
        if security.isEmpty { return Label(label: "Anyone") }
        if security.contains(where: \.isEmpty) { return Label(label: "Anyone; more when signed in") }
        for aside in asides(in: text) + asides(in: groupText ?? "").map({ $0.components(separatedBy: ";")[0] }) {
            let roles = roles(in: aside)
            guard !roles.isEmpty else { continue }
            if isOnlyRoles(aside) { return Label(label: sentence(roles)) }
            return Label(label: "Signed in", note: aside)
        }
        if text.lowercased().contains("by the store's staff") { return Label(label: "Store staff") }
        if path.hasPrefix("/admin/") { return Label(label: "Admins") }
        if path.hasPrefix("/magazine/editor") { return Label(label: "Editors") }
        return Label(label: "Signed in")
    }

    /// The texts inside parentheses, in order.
    static func asides(in text: String) -> [String] {
        var result: [String] = []
        var current: String?
        for character in text {
            if character == "(" {
                current = ""
            } else if character == ")", let inside = current {
                result.append(inside.trimmingCharacters(in: .whitespaces))
                current = nil
            } else if current != nil {
                current?.append(character)
            }
        }
        return result
    }

    private static func roles(in aside: String) -> [String] {
        let lowered = aside.lowercased()
        return [("staff", "store staff"), ("admin", "admins"), ("editor", "editors")].compactMap { lowered.contains($0.0) ? $0.1 : nil }
    }

    /// "staff of the store, admins" is only roles; "its author, or an editor moderating" is not.
    private static func isOnlyRoles(_ aside: String) -> Bool {
        var rest = aside.lowercased()
        for phrase in ["staff of the store", "the store's staff", "store staff", "staff", "admins", "admin", "editors", "editor", "and", "or", ","] {
            rest = rest.replacingOccurrences(of: phrase, with: " ")
        }
        return rest.trimmingCharacters(in: .whitespaces).isEmpty
    }

    private static func sentence(_ roles: [String]) -> String {
        let text = roles.joined(separator: " or ")
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}
