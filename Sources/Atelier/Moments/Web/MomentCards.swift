import Foundation

/// A moment as the web pages show it, times written out in the viewer's time zone.
struct MomentCard: Encodable {
    var id: String
    var url: String
    var name: String
    var description: String
    var status: String
    var statusLabel: String
    var when: String
    var placeName: String
    var creator: PersonCard
    var cover: WebImage?
    var myState: String?
    var photoCount: Int
    var memberCount: Int
    var faveCount: Int
    var faved: Bool
    var commentCount: Int
    var canPost: Bool
    var canEdit: Bool
    var isPublic: Bool
    var category: String

    init(_ view: MomentViews.View, zone: TimeZone, media: MediaService) {
        let moment = view.moment
        id = moment.id!.idString
        url = "/moments/\(id)"
        name = moment.name
        description = moment.description
        status = view.status.rawValue
        statusLabel = switch view.status {
        case .upcoming: "Upcoming"
        case .ongoing: "Happening now"
        case .ended: "Ended"
        }
        when = Self.window(moment.startsAt, moment.endsAt, zone: zone)
        placeName = view.place.name
        creator = PersonCard(view.creator)
        cover = WebImage(view.cover, alt: "Cover of \(moment.name)", service: media, preferredWidth: 540)
        myState = view.myState?.rawValue
        photoCount = view.photoCount
        memberCount = view.memberCount
        faveCount = view.faves.count
        faved = view.faves.mine
        commentCount = view.commentCount
        canPost = view.canPost
        canEdit = view.canEdit
        isPublic = moment.isPublic
        category = moment.category
    }

    static func window(_ start: Date, _ end: Date, zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = "EEE d MMM yyyy, HH:mm"
        let startText = formatter.string(from: start)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        formatter.dateFormat = calendar.isDate(start, inSameDayAs: end) ? "HH:mm" : "EEE d MMM yyyy, HH:mm"
        return "\(startText) – \(formatter.string(from: end))"
    }
}

/// One album tile or photo page.
struct AlbumPhotoCard: Encodable {
    var id: String
    var url: String
    var author: PersonCard
    var image: WebImage?
    var caption: String
    var postedAt: String
    var faveCount: Int
    var faved: Bool
    var commentCount: Int
    var isCover: Bool
    var canDelete: Bool

    init(_ view: MomentViews.PhotoView, zone: TimeZone, media: MediaService) {
        id = view.photo.id!.idString
        url = "/moments/\(view.photo.momentID.idString)/photos/\(id)"
        author = PersonCard(view.author)
        image = WebImage(view.media, alt: view.photo.caption.isEmpty ? "Photo by \(view.author.user.displayName)" : view.photo.caption,
                         service: media, preferredWidth: 540)
        caption = view.photo.caption
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = "d MMM yyyy, HH:mm"
        postedAt = formatter.string(from: view.photo.createdAt)
        faveCount = view.faves.count
        faved = view.faves.mine
        commentCount = view.commentCount
        isCover = view.isCover
        canDelete = view.canDelete
    }
}
