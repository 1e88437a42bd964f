import AtelierServerAPI
import Foundation

/// Live events on a moment's channel, sent after the change committed. Payloads are the API's
/// own shapes, with the fields that depend on who looks (`canDelete`, `mine`) left neutral.
struct MomentLive {
    let core: CoreServices
    let live: LiveUpdates

    func photoAdded(_ photo: Components.Schemas.MomentPhoto, momentID: UUID) async {
        var neutral = photo
        neutral.canDelete = false
        neutral.faves.mine = false
        await live.publish(LiveChannel.moment(momentID), event: "photo.created", data: neutral, actorID: UUID(uuidString: photo.author.id))
    }

    func photoDeleted(_ photoID: UUID, momentID: UUID) async {
        await live.publish(LiveChannel.moment(momentID), event: "photo.deleted", data: ["photoId": photoID.idString])
    }

    func commentAdded(_ comment: Components.Schemas.MomentComment, momentID: UUID) async {
        var neutral = comment
        neutral.canDelete = false
        await live.publish(LiveChannel.moment(momentID), event: "comment.created", data: neutral, actorID: UUID(uuidString: comment.author.id))
    }

    func favesChanged(target: UUID, momentID: UUID, count: Int) async {
        struct Faves: Encodable { var targetId: String; var count: Int }
        await live.publish(LiveChannel.moment(momentID), event: "fave.changed",
                                    data: Faves(targetId: target.idString, count: count))
    }
}
