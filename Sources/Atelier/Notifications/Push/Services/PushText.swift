import Foundation

/// The words of a grouped push: "Ana and 9 others reacted to your outfit."
enum PushText {
    static func grouped(kind: String, firstActor: String?, count: Int, single: String) -> String {
        guard count > 1, let actor = firstActor else { return single }
        let others = count - 1
        let who = "\(actor) and \(others) \(others == 1 ? "other" : "others")"
        switch InboxEntry.Kind(rawValue: kind) {
        case .reaction: return "\(who) reacted to your outfit."
        case .comment: return "\(who) commented on your post."
        case .momentPhoto: return "\(who) added photos to a moment."
        default: return single
        }
    }
}
