import Fluent
import Foundation
import Metrics

/// The kinds every instance runs, and the recurring ones it schedules.
enum Jobs {
    static func counter(kind: String, outcome: String) {
        Counter(label: "atelier_jobs_total", dimensions: [("kind", kind), ("outcome", outcome)]).increment()
    }
}
