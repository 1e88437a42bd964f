import Fluent
import OpenAPIRuntime
import Vapor

/// The profile picture on the web (`/settings/picture`): upload and crop a new one, pick an
/// earlier one again, show the initial instead, or delete a picture for good.
enum AvatarWebPages {
    struct PicturePage: WebPageContext {
        var page: PageContext
        var person: PersonCard
        var history: [Picture]
    }

    struct Picture: Encodable {
        var id: String
        var image: WebImage?
        var isCurrent: Bool
    }

    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.get("settings", "picture", use: picturePage)
        signedIn.on(.POST, "settings", "picture", body: .collect(maxSize: "30mb"), use: upload)
        signedIn.post("settings", "picture", "remove", use: remove)
        signedIn.post("settings", "picture", ":mediaID", "use", use: useEarlier)
        signedIn.post("settings", "picture", ":mediaID", "delete", use: delete)
    }

    static func picturePage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let history = try await AvatarService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).history(of: user)
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        var person = PeopleDirectory.Person(user: user, relationship: .self)
        person.avatar = history.current.map(media.linked)
        return try await req.renderPage("social/picture", PicturePage(
            page: PageContext(req, title: "Profile picture"), person: PersonCard(person),
            history: history.pictures.map { picture in
                Picture(
                    id: picture.id!.idString, image: WebImage(picture, alt: "An earlier profile picture", service: media, preferredWidth: 160),
                    isCurrent: picture.id == user.avatarMediaID)
            }))
    }

    struct UploadForm: Content {
        var photo: File?
        var crops: [String]?
        var rotations: [String]?
    }

    /// The new picture goes through the media pipeline with the square the person chose.
    static func upload(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        return try await req.formAction(redirectTo: "/settings/picture") {
            let form = try req.content.decode(UploadForm.self)
            guard let file = form.photo, file.data.readableBytes > 0 else { throw Problem.invalid("photo", "choose a photo") }
            let crop = (form.crops?.first).flatMap { $0.isEmpty ? nil : $0 }
            let rotate = (form.rotations?.first).flatMap { Int($0) } ?? 0
            let upload = MediaService.Upload(
                uploaderID: try user.requireID(),
                claimed: ImageFormat.claimed(mediaType: file.contentType?.description, filename: file.filename),
                edits: ImageEdits(crop: try crop.map(MediaParameters.crop), rotate: rotate, whiteBackground: false), visibility: .public)
            let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
            let stored = try await media.ingest(upload, body: HTTPBody(Array(file.data.readableBytesView)))
            do {
                _ = try await AvatarService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).use(stored.requireID(), for: user)
            } catch {
                try? await media.delete(stored)
                throw error
            }
            return "Your new picture is on your profile."
        }
    }

    static func useEarlier(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        return try await req.formAction(redirectTo: "/settings/picture") {
            _ = try await AvatarService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).use(try req.pathID("mediaID", "picture"), for: user)
            return "This picture is on your profile again."
        }
    }

    static func remove(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        return try await req.formAction(redirectTo: "/settings/picture") {
            try await AvatarService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).clear(for: user)
            return "Your profile shows your initial now. Your pictures are kept below."
        }
    }

    static func delete(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        return try await req.formAction(redirectTo: "/settings/picture") {
            try await AvatarService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).delete(try req.pathID("mediaID", "picture"), for: user)
            return "The picture is deleted."
        }
    }
}
