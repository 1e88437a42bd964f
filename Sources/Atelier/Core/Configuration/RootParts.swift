import NIOConcurrencyHelpers

/// The long-lived parts the composition root built (live updates, the mail outbox, the media library,
/// the push channels), found by their type: a job's context hands this one accessor to every job kind
/// (`context.parts.get(LiveUpdates.self)`), so no domain names the root. The root registers every part at
/// start-up; asking for one it did not register is a programming error.
final class RootParts: Sendable {
    private let parts = NIOLockedValueBox<[ObjectIdentifier: any Sendable]>([:])

    func register<Part: Sendable>(_ part: Part) {
        parts.withLockedValue { $0[ObjectIdentifier(Part.self)] = part }
    }

    func get<Part: Sendable>(_ type: Part.Type) -> Part {
        guard let part = parts.withLockedValue({ $0[ObjectIdentifier(type)] }) as? Part else {
            preconditionFailure("The composition root registered no \(type) (RootParts)")
        }
        return part
    }
}
