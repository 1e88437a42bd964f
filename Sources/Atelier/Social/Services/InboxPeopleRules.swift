import AtelierServerAPI
import Fluent
import Foundation

extension PeopleDirectory {
    /// The inbox hides the entries of people blocked either way and shows actors as people cards.
    static func registerInboxRules(in people: InboxPeople, core: CoreServices, mediaLibrary: MediaLibrary) {
        people.use(InboxPeople.Rules(
            hidden: { reader, db in try await SocialGraph(db: db).blockedPeople(of: reader) },
            cards: { actors, reader, db in
                try await PeopleDirectory(db: db, core: core, mediaLibrary: mediaLibrary).peopleByID(actors, viewer: reader)
                    .mapValues { Components.Schemas.UserSummary($0) }
            }))
    }
}
