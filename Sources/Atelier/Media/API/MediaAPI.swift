import AtelierServerAPI
import Foundation
import OpenAPIRuntime
import Vapor

/// `/media…`: photo upload and look-up.
extension APIHandler {
    func uploadMedia(_ input: Operations.UploadMedia.Input) async throws -> Operations.UploadMedia.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        let edits = try ImageEdits(
            crop: input.query.crop.map(MediaParameters.crop), rotate: input.query.rotate?.rawValue ?? 0,
            whiteBackground: input.query.background == .white)
        var upload = MediaService.Upload(
            uploaderID: try caller.user.requireID(), claimed: nil, edits: edits,
            visibility: input.query.visibility == ._public ? .public : .private)
        let service = MediaService(db: req.db, core: services.core, mediaLibrary: services.media)
        let media: Media
        switch input.body {
        case .jpeg(let body):
            upload.claimed = ImageFormat.jpeg
            media = try await service.ingest(upload, body: body)
        case .png(let body):
            upload.claimed = ImageFormat.png
            media = try await service.ingest(upload, body: body)
        case .imageWebp(let body):
            upload.claimed = ImageFormat.webp
            media = try await service.ingest(upload, body: body)
        case .imageHeic(let body):
            upload.claimed = ImageFormat.heic
            media = try await service.ingest(upload, body: body)
        case .binary(let body):
            media = try await service.ingest(upload, body: body)
        case .multipartForm(let parts):
            media = try await MediaParameters.firstFile(in: parts) { filename, contentType, body in
                upload.claimed = ImageFormat.claimed(mediaType: contentType, filename: filename)
                return try await service.ingest(upload, body: body)
            }
        }
        return .created(.init(body: .json(.init(media, service: service))))
    }

    func getMedia(_ input: Operations.GetMedia.Input) async throws -> Operations.GetMedia.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        let id = try MediaParameters.id(input.path.mediaId)
        let service = MediaService(db: req.db, core: services.core, mediaLibrary: services.media)
        let media = try await service.visible(id, to: caller.user.id)
        return .ok(.init(body: .json(.init(media, service: service))))
    }

    func deleteMedia(_ input: Operations.DeleteMedia.Input) async throws -> Operations.DeleteMedia.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        let id = try MediaParameters.id(input.path.mediaId)
        let service = MediaService(db: req.db, core: services.core, mediaLibrary: services.media)
        let media = try await service.visible(id, to: caller.user.id)
        guard media.$uploader.id == (try caller.user.requireID()) else { throw Problem.notFound("media") }
        guard media.ownerType == nil else {
            throw Problem.conflict("This photo is in use; remove it from what it is attached to instead.")
        }
        try await service.delete(media)
        return .noContent(.init())
    }
}

enum MediaParameters {
    static func id(_ raw: String) throws -> UUID {
        guard let id = UUID(uuidString: raw) else { throw Problem.notFound("media") }
        return id
    }

    /// "x,y,width,height" in whole pixels.
    static func crop(_ raw: String) throws -> ImageEdits.Crop {
        let numbers = raw.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2], let height = numbers[3] else {
            throw Problem.invalid("crop", "must be four whole numbers: x,y,width,height")
        }
        return .init(x: x, y: y, width: width, height: height)
    }

    /// Hands the `file` part to `body` while it streams; other parts are skipped.
    static func firstFile(
        in parts: MultipartBody<Operations.UploadMedia.Input.Body.MultipartFormPayload>,
        _ body: (_ filename: String?, _ contentType: String?, _ bytes: HTTPBody) async throws -> Media
    ) async throws -> Media {
        do {
            for try await part in parts {
                switch part {
                case .file(let file):
                    return try await body(file.filename, nil, file.payload.body)
                case .undocumented(let other):
                    // A streamed part must be read to its end before the next one can be.
                    for try await _ in other.body {}
                }
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(.badRequest, detail: "The multipart body could not be read: \(error)",
                          errors: [.init(field: "body", message: "is not well-formed multipart/form-data")])
        }
        throw Problem.invalid("file", "is required: send the photo as the multipart part named file")
    }
}

extension Components.Schemas.Image {
    init(_ media: some MediaImage, service: MediaService) {
        self.init(service.linked(media))
    }

    init(_ image: LinkedImage) {
        self.init(
            id: image.id!.idString, width: image.width, height: image.height, dominantColor: image.dominantColor,
            placeholder: image.placeholder,
            variants: image.links.map { variant, url in
                .init(width: variant.width, height: variant.height, url: url, format: variant.format == "webp" ? .webp : .jpeg)
            })
    }
}
