import Metrics

/// `atelier_push_deliveries_total{channel, outcome}`: sent, failed, retried and each reason a
/// push was not sent.
enum PushMetrics {
    static func count(channel: String, outcome: String) {
        Counter(label: "atelier_push_deliveries_total", dimensions: [("channel", channel), ("outcome", outcome)]).increment()
    }
}
