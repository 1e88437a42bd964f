import Fluent
import Foundation

/// One notification on its way to one device (the outbox, notifications.md): written in the
/// transaction of its cause, with the job that sends it. It ends as `sent`, `failed` or `notSent`
/// (with the reason); `deferred` waits out the recipient's quiet hours.
final class NotificationDelivery: Model, @unchecked Sendable {
    static let schema = "notification_deliveries"

    enum Status: String, Sendable, CaseIterable { case queued, deferred, sending, sent, failed, notSent }
    enum Reason: String, Sendable { case optedOut, noDevice, noEmail, quietHours, unregistered, badDeviceToken, rejected, gaveUp }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    /// The latest inbox entry it tells of (a group tells of several).
    @Field(key: "inbox_entry_id") var inboxEntryID: UUID
    @Field(key: "kind") var kind: String
    /// apns, fcm or webpush; `push` for a push that never had a device.
    @Field(key: "channel") var channel: String
    @OptionalField(key: "device_id") var deviceID: UUID?
    @Field(key: "status") var status: String
    @OptionalField(key: "reason") var reason: String?
    @Field(key: "text") var text: String
    @Field(key: "link") var link: String
    @Field(key: "critical") var critical: Bool
    /// Events of one kind on one thing within the grouping window become one push: the key, open
    /// while the delivery still takes more (NULL once it is being sent), the first actor's name
    /// and how many events there are.
    @OptionalField(key: "group_key") var groupKey: String?
    @OptionalField(key: "open_group") var openGroup: String?
    @OptionalField(key: "actor_name") var actorName: String?
    @Field(key: "event_count") var eventCount: Int
    @Field(key: "deliver_at") var deliverAt: Date
    @Field(key: "attempts") var attempts: Int
    @OptionalField(key: "last_error") var lastError: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    @OptionalField(key: "sent_at") var sentAt: Date?

    init() {}
}

/// Whether a person gets a kind of notification on a channel (absent: the kind's default).
final class NotificationPreference: Model, @unchecked Sendable {
    static let schema = "notification_preferences"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "kind") var kind: String
    @Field(key: "channel") var channel: String
    @Field(key: "enabled") var enabled: Bool

    init() {}
}

extension NotificationDelivery {
    /// A delivery of `entry` on `channel` that sends at once (email) or never (`notSent`).
    convenience init(of entry: InboxEntry, kind: InboxEntry.Kind, channel: String, status: Status, reason: Reason?, now: Date) {
        self.init()
        id = .v7(at: now)
        userID = entry.recipientID
        inboxEntryID = entry.id!
        self.kind = kind.rawValue
        self.channel = channel
        self.status = status.rawValue
        self.reason = reason?.rawValue
        text = entry.text
        link = entry.link
        critical = false
        eventCount = 1
        deliverAt = now
        attempts = 0
        createdAt = now
        updatedAt = now
    }
}

/// A person's quiet hours: a daily window in their chosen time zone (it may wrap midnight).
final class QuietHoursSetting: Model, @unchecked Sendable {
    static let schema = "notification_quiet_hours"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    /// Minutes after local midnight.
    @Field(key: "start_minute") var startMinute: Int
    @Field(key: "end_minute") var endMinute: Int
    @Field(key: "time_zone") var timeZone: String

    init() {}
}
