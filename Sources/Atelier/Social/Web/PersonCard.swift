import Foundation

/// A person as the social pages list them, with what the viewer may do next.
struct PersonCard: Encodable {
    var id: String
    var url: String
    var displayName: String
    var username: String
    var initial: String
    /// The profile picture, drawn in place of the initial when there is one.
    var avatar: WebImage?
    var relationship: String

    init(_ person: PeopleDirectory.Person) {
        id = person.user.id!.idString
        url = "/people/\(id)"
        displayName = person.user.displayName
        username = person.user.username
        initial = String(person.user.displayName.prefix(1)).uppercased()
        avatar = WebImage(person.avatar, alt: "", preferredWidth: 160)
        relationship = person.relationship.rawValue
    }
}
