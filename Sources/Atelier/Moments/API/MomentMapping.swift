import AtelierServerAPI
import Foundation

extension Components.Schemas.Place {
    init(_ place: Place) {
        self.init(
            id: place.id!.idString, name: place.name, lat: place.lat, lng: place.lng,
            radiusMeters: place.radiusMeters, externalId: place.externalID)
    }
}

extension Components.Schemas.FaveSummary {
    init(_ summary: MomentFaves.Summary) {
        self.init(count: summary.count, mine: summary.mine)
    }
}

extension Components.Schemas.MembershipState {
    init(_ state: MomentMember.State) {
        switch state {
        case .invited: self = .invited
        case .joined: self = .joined
        case .checkedIn: self = .checkedIn
        case .ignored: self = .ignored
        }
    }
}

extension Components.Schemas.Moment {
    init(_ view: MomentViews.View, media: MediaService) {
        let moment = view.moment
        self.init(
            id: moment.id!.idString, name: moment.name, description: moment.description,
            startsAt: moment.startsAt, endsAt: moment.endsAt, status: .init(rawValue: view.status.rawValue)!,
            place: .init(view.place), visibility: moment.isPublic ? ._public : ._private,
            category: .init(rawValue: moment.category) ?? .other, cover: view.cover.map { .init($0, service: media) },
            creator: .init(view.creator), myState: view.myState.map(Components.Schemas.MembershipState.init),
            photoCount: view.photoCount, memberCount: view.memberCount, faves: .init(view.faves),
            commentCount: view.commentCount, canPost: view.canPost, canEdit: view.canEdit, createdAt: moment.createdAt)
    }
}

extension Components.Schemas.MomentPhoto {
    init(_ view: MomentViews.PhotoView, media: MediaService) {
        self.init(
            id: view.photo.id!.idString, momentId: view.photo.momentID.idString,
            author: .init(view.author), photo: .init(view.media, service: media), caption: view.photo.caption,
            createdAt: view.photo.createdAt, faves: .init(view.faves), commentCount: view.commentCount,
            isCover: view.isCover, canDelete: view.canDelete)
    }
}

extension Components.Schemas.MomentComment {
    init(_ comment: MomentComment, author: PeopleDirectory.Person, canDelete: Bool) {
        self.init(
            id: comment.id!.idString, momentId: comment.momentID.idString,
            photoId: comment.photoID?.idString, author: .init(author), body: comment.body,
            createdAt: comment.createdAt, canDelete: canDelete)
    }
}

extension MomentService.PlaceDraft {
    init(_ input: Components.Schemas.PlaceInput) {
        self.init(name: input.name, lat: input.lat, lng: input.lng, radiusMeters: input.radiusMeters, externalID: input.externalId)
    }
}

extension MomentService.Draft {
    init(name: String?, description: String?, startsAt: Date?, endsAt: Date?, placeId: String?,
         place: Components.Schemas.PlaceInput?, visibility: Components.Schemas.MomentVisibility?,
         category: Components.Schemas.MomentCategory?) throws {
        var placeID: UUID?
        if let placeId {
            guard let id = UUID(uuidString: placeId) else { throw Problem.invalid("placeId", "is not an id") }
            placeID = id
        }
        self.init(
            name: name, description: description, startsAt: startsAt, endsAt: endsAt, placeID: placeID,
            place: place.map(MomentService.PlaceDraft.init), visibility: visibility.flatMap { Moment.Visibility(rawValue: $0.rawValue) },
            category: category.flatMap { Moment.Category(rawValue: $0.rawValue) })
    }
}
