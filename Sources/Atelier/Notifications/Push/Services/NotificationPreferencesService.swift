import Fluent
import Foundation

/// Reads and changes which kinds reach a person on which channel, and their quiet hours.
struct NotificationPreferencesService {
    let db: any Database
    let core: CoreServices

    struct KindSetting: Sendable, Equatable {
        var kind: InboxEntry.Kind
        var push: Bool
        var email: Bool
    }

    struct Change: Sendable {
        var kind: String
        var push: Bool?
        var email: Bool?
    }

    struct QuietInput: Sendable {
        var start: String
        var end: String
        var timeZone: String
    }

    func settings(of userID: UUID) async throws -> (kinds: [KindSetting], quiet: QuietHoursSetting?) {
        let saved = try await NotificationPreference.query(on: db).filter(\.$userID == userID).all()
        let kinds = NotificationKinds.all.map { kind in
            func enabled(_ channel: NotificationKinds.Channel) -> Bool {
                saved.first { $0.kind == kind.rawValue && $0.channel == channel.rawValue }?.enabled ?? NotificationKinds.enabledByDefault(kind, channel)
            }
            return KindSetting(kind: kind, push: enabled(.push), email: enabled(.email))
        }
        return (kinds, try await QuietHoursSetting.query(on: db).filter(\.$userID == userID).first())
    }

    /// Applies the changes and the quiet hours; anything unknown or malformed is one 422 naming each.
    func update(_ userID: UUID, changes: [Change], quiet: QuietInput?, clearQuiet: Bool) async throws {
        var errors = FieldErrors()
        for (index, change) in changes.enumerated() where InboxEntry.Kind(rawValue: change.kind) == nil {
            errors.add("kinds[\(index)].kind", "'\(change.kind.prefix(40))' is not a kind of notification")
        }
        var window: (start: Int, end: Int)?
        if let quiet {
            let start = QuietHours.minute(quiet.start), end = QuietHours.minute(quiet.end)
            if start == nil { errors.add("quietHours.start", "must be a time as HH:MM") }
            if end == nil { errors.add("quietHours.end", "must be a time as HH:MM") }
            if let start, let end, start == end { errors.add("quietHours.end", "must differ from the start") }
            if TimeZone(identifier: quiet.timeZone) == nil { errors.add("quietHours.timeZone", "'\(quiet.timeZone.prefix(64))' is not a time zone") }
            if let start, let end { window = (start, end) }
        }
        if quiet != nil && clearQuiet { errors.add("clearQuietHours", "cannot be given with quietHours") }
        try errors.throwIfAny()

        let now = core.clock.now()
        let newWindow = window
        try await core.writeTransaction(on: db) { tx in
            for change in changes {
                for (channel, enabled) in [(NotificationKinds.Channel.push, change.push), (.email, change.email)] {
                    guard let enabled else { continue }
                    let row = try await NotificationPreference.query(on: tx).filter(\.$userID == userID)
                        .filter(\.$kind == change.kind).filter(\.$channel == channel.rawValue).first() ?? {
                            let row = NotificationPreference()
                            row.id = .v7(at: now)
                            row.userID = userID
                            row.kind = change.kind
                            row.channel = channel.rawValue
                            return row
                        }()
                    row.enabled = enabled
                    try await row.save(on: tx)
                }
            }
            if clearQuiet { try await QuietHoursSetting.query(on: tx).filter(\.$userID == userID).delete() }
            if let quiet, let window = newWindow {
                let row = try await QuietHoursSetting.query(on: tx).filter(\.$userID == userID).first() ?? {
                    let row = QuietHoursSetting()
                    row.id = .v7(at: now)
                    row.userID = userID
                    return row
                }()
                (row.startMinute, row.endMinute, row.timeZone) = (window.start, window.end, quiet.timeZone)
                try await row.save(on: tx)
            }
        }
    }
}
