import Fluent
import Foundation

/// "“Picnic” starts in 1 hour" to the members who joined. Every minute the moments starting
/// within the hour get one job each, keyed by the moment and its start, so a reminder goes once,
/// and again only if the moment is moved. Moments set up less than an hour ahead get none: their
/// members have just heard of them.
struct MomentStartingReminders {
    let db: any Database
    let core: CoreServices

    static let lead: TimeInterval = 3600

    func scheduleDue() async throws {
        let now = core.clock.now()
        let starting = try await Moment.query(on: db).filter(\.$startsAt > now).filter(\.$startsAt <= now.addingTimeInterval(Self.lead))
            .limit(500).all()
        for moment in starting where moment.createdAt <= moment.startsAt.addingTimeInterval(-Self.lead) {
            let id = try moment.requireID()
            try await JobQueue.enqueue(
                MomentStartingJob.self, .init(momentID: id, startsAt: moment.startsAt),
                key: "moment-starting:\(id.idString)@\(Int(moment.startsAt.timeIntervalSince1970))", runAt: now, on: db, now: now)
        }
    }
}

/// Tells one moment's joined members that it starts soon, in one transaction with the job's end.
struct MomentStartingJob: JobKind {
    struct Payload: Codable, Sendable {
        var momentID: UUID
        var startsAt: Date
    }
    static let name = "moments.starting-reminder"

    func run(_ payload: Payload, context: JobContext) async throws {
        let now = context.core.clock.now()
        guard let moment = try await Moment.find(payload.momentID, on: context.db),
              abs(moment.startsAt.timeIntervalSince(payload.startsAt)) < 1, moment.startsAt > now
        else { return try await context.finish { _ in } }
        let joined = [MomentMember.State.joined, .checkedIn].map(\.rawValue)
        let members = try await MomentMember.query(on: context.db).filter(\.$momentID == payload.momentID).filter(\.$state ~~ joined).all(\.$userID)
        // "in 1 hour" rather than "in 59 minutes": the minutes left, up to the next five.
        let minutes = Int((moment.startsAt.timeIntervalSince(now) / 300).rounded(.up)) * 5
        let path = payload.momentID.idString
        try await context.finish { tx in
            for member in members {
                try await InboxService.record(.init(
                    recipientID: member, kind: .momentStarting, actorID: nil, message: .momentStarting(moment: moment.name, minutes: minutes),
                    link: "atelier://moments/\(path)", webPath: "/moments/\(path)"), on: tx, now: now)
            }
        }
        for member in members { await InboxService.announce(.momentStarting, to: member, by: nil, live: context.parts.get(LiveUpdates.self)) }
    }
}
