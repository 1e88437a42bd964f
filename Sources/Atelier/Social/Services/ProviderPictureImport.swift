import AsyncHTTPClient
import Fluent
import Foundation
import Logging
import NIOCore

/// A new account's picture from its sign-in provider (the `picture` of the ID token): fetched
/// once, stored like an upload, shown as the avatar. It is a courtesy: a slow, missing or broken
/// picture leaves the initial and never fails the sign-in.
struct ProviderPictureImport {
    static let timeout: TimeAmount = .seconds(5)

    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary
    let logger: Logger

    func importPicture(from url: URL, for user: User) async {
        do {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.headers.add(name: "Accept", value: "image/*")
            let response = try await HTTPClient.shared.execute(request, timeout: Self.timeout)
            guard response.status == .ok else {
                logger.info("The provider's picture was not fetched", metadata: ["status": "\(response.status.code)"])
                return
            }
            let limit = mediaLibrary.limits.maxBytes
            let body = try await response.body.collect(upTo: limit)
            let media = MediaService(db: db, core: core, mediaLibrary: mediaLibrary)
            let stored = try await media.ingest(
                .init(uploaderID: try user.requireID(), claimed: nil, edits: ImageEdits(), visibility: .public),
                data: Data(buffer: body))
            do {
                _ = try await AvatarService(db: db, core: core, mediaLibrary: mediaLibrary).use(stored.requireID(), for: user)
            } catch {
                try? await media.delete(stored)
                throw error
            }
        } catch {
            logger.info("The provider's picture was not used", metadata: ["error": "\(String(describing: error).prefix(200))"])
        }
    }
}
