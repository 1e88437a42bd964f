import AtelierAPI
import Foundation
import Observation

/// One moment in inJoin: what it is, joining and checking in, and its album, kept live. Feed
/// `listen(to:)` the session's `liveEvents(moments: [id])`: photos others post appear at the top,
/// deleted ones go, fave counts follow, and a gap the server no longer keeps reloads the album.
@MainActor
@Observable
public final class MomentScreen {
    public let momentID: String
    public private(set) var moment: Components.Schemas.Moment?
    public let album: PagedListScreen<Components.Schemas.MomentPhoto>
    /// Bytes sent of the photo being uploaded, and its size; nil when none is on its way.
    public private(set) var upload: UploadProgress?
    /// Whether live events of this moment are coming in (for a "live" mark; while false, others'
    /// photos show only after a reload or the reconnect's replay).
    public private(set) var isLive = false
    public let activity = ScreenActivity()
    private let session: AtelierSession

    public init(session: AtelierSession, momentID: String, pageSize: Int = 30) {
        self.session = session
        self.momentID = momentID.lowercased()
        album = PagedListScreen(session.moments.listMomentPhotosItems(momentId: momentID, query: .init(limit: pageSize)))
    }

    public func load() async {
        guard let moment = await activity.run({ [session, momentID] in try await session.moments.getMoment(momentId: momentID) }) else { return }
        self.moment = moment
        if album.items.isEmpty { await album.loadMore() }
    }

    public func join() async {
        await changeMembership { session, id in try await session.moments.joinMoment(momentId: id) }
    }

    /// Checks in from the phone's position (the server checks it is at the moment's place, during it).
    public func checkIn(lat: Double, lng: Double, accuracyMeters: Double? = nil) async {
        await changeMembership { session, id in
            try await session.moments.checkInToMoment(momentId: id, .init(lat: lat, lng: lng, accuracyMeters: accuracyMeters))
        }
    }

    /// Uploads a photo from a file with progress (`upload`), then puts it in the album.
    public func addPhoto(file: URL, contentType: String, caption: String? = nil) async {
        let transfer = session.media.uploadShowingProgress(file: file, contentType: contentType) { [weak self] in self?.upload = $0 }
        guard let photo = await activity.run({ [session, momentID] in
            let image = try await transfer.value
            return try await session.moments.postMomentPhoto(momentId: momentID, .init(mediaId: image.id, caption: caption))
        }) else { return }
        // Its live event may have come first and shown it already.
        guard !album.items.contains(where: { $0.id == photo.id }) else { return }
        album.prepend(photo)
        moment?.photoCount += 1
    }

    public func toggleFave(photoID: String) async {
        guard let photo = album.items.first(where: { $0.id == photoID }) else { return }
        let wanted = !photo.faves.mine
        guard let faves = await activity.run(exclusive: false, { [session, momentID] in
            wanted ? try await session.moments.faveMomentPhoto(momentId: momentID, photoId: photoID)
                : try await session.moments.unfaveMomentPhoto(momentId: momentID, photoId: photoID)
        }) else { return }
        album.update(where: { $0.id == photoID }) { $0.faves = faves }
    }

    /// Applies live events until the sequence ends or the task is cancelled.
    public func listen<Events: AsyncSequence>(to events: Events) async where Events.Element == LiveEvent {
        defer { isLive = false }
        do {
            for try await event in events { await apply(event) }
        } catch {
            activity.report(error)
        }
    }

    /// One live event, as this screen shows it; others' moments are ignored.
    public func apply(_ event: LiveEvent) async {
        switch event {
        case .photoAdded(let id, let photo) where id == momentID:
            guard !album.items.contains(where: { $0.id == photo.id }) else { return }
            album.prepend(photo)
            moment?.photoCount += 1
        case .photoDeleted(let id, let photoID) where id == momentID:
            guard album.items.contains(where: { $0.id == photoID }) else { return }
            album.remove { $0.id == photoID }
            if let count = moment?.photoCount { moment?.photoCount = max(0, count - 1) }
        case .favesChanged(let id, let target, let count) where id == momentID:
            if target == momentID { moment?.faves.count = count }
            album.update(where: { $0.id == target }) { $0.faves.count = count }
        case .commentAdded(let id, let comment) where id == momentID && comment.photoId == nil:
            moment?.commentCount += 1
        case .replayIncomplete(let channel) where channel == "moment:\(momentID)":
            await album.reload()
        case .subscribed(let channel) where channel == "moment:\(momentID)":
            isLive = true
        case .subscriptionRefused(let channel, _, _) where channel == "moment:\(momentID)":
            isLive = false
        case .connectionStateChanged(.reconnecting):
            isLive = false
        default:
            break
        }
    }

    private func changeMembership(_ change: @escaping @Sendable (AtelierSession, String) async throws -> Components.Schemas.Member) async {
        guard let member = await activity.run({ [session, momentID] in try await change(session, momentID) }) else { return }
        moment?.myState = member.state
    }
}
