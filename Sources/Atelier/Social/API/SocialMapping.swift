import AtelierServerAPI
import Foundation

extension Components.Schemas.UserSummary {
    init(_ person: PeopleDirectory.Person) {
        self.init(
            id: person.user.id!.idString, displayName: person.user.displayName, username: person.user.username,
            avatar: person.avatar.map(Components.Schemas.Image.init), relationship: .init(person.relationship))
    }
}

extension Components.Schemas.Relationship {
    init(_ relationship: SocialGraph.Relationship) {
        switch relationship {
        case .self: self = ._self
        case .friend: self = .friend
        case .requestSent: self = .requestSent
        case .requestReceived: self = .requestReceived
        case .connected: self = .connected
        case .blocked: self = .blocked
        case .none: self = .none
        }
    }
}

extension Components.Schemas.ReactionSummary {
    init(_ summary: ReactionService.Summary) {
        self.init(
            total: summary.total,
            counts: summary.counts.compactMap { entry in
                Components.Schemas.ReactionKind(rawValue: entry.kind.rawValue).map { .init(kind: $0, count: entry.count) }
            },
            mine: summary.mine.flatMap { Components.Schemas.ReactionKind(rawValue: $0.rawValue) })
    }
}

extension Components.Schemas.Post {
    init(_ view: PostViews.View, media: MediaService) {
        self.init(
            id: view.post.id!.idString, author: .init(view.author), photo: .init(view.photo, service: media),
            caption: view.post.caption, day: view.post.day, timeZone: view.post.timeZone, createdAt: view.post.createdAt,
            editedAt: view.post.editedAt, reactions: .init(view.reactions), commentCount: view.commentCount,
            hidden: view.post.hiddenAt != nil, canEdit: view.canEdit)
    }
}

extension Components.Schemas.Comment {
    init(_ comment: PostComment, author: PeopleDirectory.Person, canDelete: Bool) {
        self.init(
            id: comment.id!.idString, postId: comment.postID.idString, author: .init(author),
            body: comment.body, createdAt: comment.createdAt, canDelete: canDelete)
    }
}
