import Foundation

/// The words of a push in its device's language: the entry's message, or for a burst of one kind
/// on one thing, "Ana and 9 others reacted to your outfit."
enum PushText {
    static func text(of delivery: NotificationDelivery, message: NotificationMessage?, in language: NotificationLanguage) -> String {
        guard let message else { return delivery.text }  // entries without a message (admin notices)
        if delivery.eventCount > 1, let first = delivery.actorName,
           let grouped = message.grouped(firstActor: first, count: delivery.eventCount, in: language) {
            return grouped
        }
        return message.text(in: language)
    }
}
