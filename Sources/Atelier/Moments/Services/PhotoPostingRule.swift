import Foundation

/// Who may add photos to a moment, by its status and the person's membership (moments.md):
///
/// | moment   | not joined | joined              | checked in              |
/// |----------|------------|---------------------|-------------------------|
/// | upcoming | no         | yes (previews)      | —                       |
/// | ongoing  | no         | no (check in first) | yes                     |
/// | ended    | no         | no                  | yes (after the fact)    |
///
/// The creator may always post.
enum PhotoPostingRule {
    /// nil when the person may post; otherwise what stands in the way, said so they can act.
    static func refusal(isCreator: Bool, state: MomentMember.State?, status: Moment.Status) -> String? {
        if isCreator { return nil }
        switch (state, status) {
        case (.joined, .upcoming), (.checkedIn, _): return nil
        case (.joined, .ongoing): return "Check in at the place first; then you can add photos."
        case (.joined, .ended): return "Only people who checked in may add photos after the moment."
        case (_, .ended): return "This moment has ended; only people who checked in may add photos."
        default: return "Join the moment first."
        }
    }
}
