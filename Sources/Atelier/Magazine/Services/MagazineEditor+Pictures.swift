import Fluent
import Foundation

/// Pictures chosen by id (the API's `coverId`, `leadImageId`, `pictureId`) rather than uploaded
/// with the portal's forms. They end up as the portal's do: public and owned by the magazine.
extension MagazineEditor {
    static let pictureOwnerType = "magazine"

    /// Makes `mediaID` usable as a magazine picture of `ownerID`: the editor's own upload not yet
    /// used elsewhere, or a picture the magazine uses already. Anything else is a field error.
    func claimPicture(_ mediaID: UUID, field: String, for ownerID: UUID, by userID: UUID) async throws {
        guard let media = try await Media.find(mediaID, on: db),
            media.ownerType == Self.pictureOwnerType || (media.ownerType == nil && media.$uploader.id == userID)
        else { throw Problem.invalid(field, "is not a photo you uploaded") }
        if media.ownerType == nil {
            media.visibility = Media.Visibility.public.rawValue
            try await MediaService(db: db, core: core, mediaLibrary: mediaLibrary).attach(media, ownerType: Self.pictureOwnerType, ownerID: ownerID)
        }
    }
}
