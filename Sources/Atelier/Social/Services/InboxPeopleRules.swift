import AtelierServerAPI
import Fluent
import Foundation

extension PeopleDirectory {
    /// The inbox hides the entries of people blocked either way and shows actors as people cards.
    static func registerInboxRules(in people: InboxPeople, services: AtelierServices) {
        people.use(InboxPeople.Rules(
            hidden: { reader, db in try await SocialGraph(db: db).blockedPeople(of: reader) },
            cards: { [unowned services] actors, reader, db in
                try await PeopleDirectory(db: db, services: services).peopleByID(actors, viewer: reader)
                    .mapValues { Components.Schemas.UserSummary($0) }
            }))
    }
}
