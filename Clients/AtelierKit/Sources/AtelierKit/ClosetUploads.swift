import AtelierAPI
import Foundation
import OpenAPIRuntime

/// A garment photo for the closet, with the mask the phone made when it could (on iOS, Vision's
/// foreground mask: white or opaque = garment). The server then uses the mask as given instead of
/// cutting the garment out itself.
public struct ClosetPhoto: Sendable {
    public var image: Data
    public var mask: Data?

    public init(image: Data, mask: Data? = nil) {
        self.image = image
        self.mask = mask
    }
}

public enum ClosetUploadError: Error, Equatable {
    case invalid(String)
    case tooMany(Int)
}

/// Adds photos to the closet: each photo (and its mask) is uploaded privately, then all become
/// items in one request, so a bulk upload makes all its items or none. Cut-outs are made in the
/// background; `waitForCutouts` follows them.
public struct ClosetUploader: Sendable {
    public static let maxPhotos = 20
    let session: AtelierSession

    public init(session: AtelierSession) {
        self.session = session
    }

    public func add(_ photos: [ClosetPhoto], type: String? = nil) async throws -> [Components.Schemas.ClosetItem] {
        guard !photos.isEmpty, photos.count <= Self.maxPhotos else { throw ClosetUploadError.tooMany(photos.count) }
        var inputs: [Components.Schemas.ClosetPhotoInput] = []
        for photo in photos {
            let imageID = try await upload(photo.image)
            let maskID = try await photo.mask.asyncMap { try await upload($0) }
            inputs.append(.init(mediaId: imageID, maskMediaId: maskID))
        }
        let fields = type.map { Components.Schemas.ClosetItemFields(_type: .init(rawValue: $0)) }
        if let type, fields?._type == nil { throw ClosetUploadError.invalid("'\(type)' is not a garment type") }
        let output = try await session.client.addClosetItems(body: .json(.init(photos: inputs, fields: fields)))
        switch output {
        case .created(let created): return try created.body.json.items
        case .unauthorized: throw AtelierError.signedOut
        case .unprocessableContent(let response): throw ClosetUploadError.invalid((try? response.body.applicationProblemJson.detail) ?? "invalid")
        default: throw AtelierError.unexpectedResponse("addClosetItems: \(output)")
        }
    }

    /// A piece bought through Atelier: a line of a completed order (`OrderLine.id`) becomes a closet
    /// item with its photo, brand, size and the price paid. A line goes in once; again is
    /// `AtelierError.rejected` with status 409.
    public func add(orderLine lineID: String) async throws -> Components.Schemas.ClosetItem {
        let output = try await session.client.addClosetItems(body: .json(.init(orderLineId: lineID)))
        switch output {
        case .created(let created):
            guard let item = try created.body.json.items.first else { throw AtelierError.unexpectedResponse("addClosetItems: no item") }
            return item
        case .unauthorized: throw AtelierError.signedOut
        case .notFound(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 404)
        case .conflict(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 409)
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        default: throw AtelierError.unexpectedResponse("addClosetItems: \(output)")
        }
    }

    /// Asks every second until each item's cut-out is ready or failed, or `timeout` passes; returns
    /// the items as last seen.
    public func waitForCutouts(_ ids: [String], timeout: Duration = .seconds(60)) async throws -> [Components.Schemas.ClosetItem] {
        let deadline = ContinuousClock.now + timeout
        while true {
            var items: [Components.Schemas.ClosetItem] = []
            for id in ids { items.append(try await session.client.getClosetItem(path: .init(itemId: id)).ok.body.json) }
            if items.allSatisfy({ $0.cutoutStatus != .pending }) || ContinuousClock.now >= deadline { return items }
            try await Task.sleep(for: .seconds(1))
        }
    }

    /// A private upload; the content type is read from the bytes (JPEG, PNG, WebP, HEIC).
    private func upload(_ data: Data) async throws -> String {
        let typed = UploadBody.image(data)
        let output = try await session.client.uploadMedia(query: .init(visibility: ._private), body: typed)
        switch output {
        case .created(let created): return try created.body.json.id
        case .unauthorized: throw AtelierError.signedOut
        default: throw AtelierError.unexpectedResponse("uploadMedia: \(output)")
        }
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
