import Fluent
import Vapor

/// Serves media files: public variants by permanent URLs; originals (media.md: private, whatever
/// the photo's visibility) and private media only by signed, expiring URLs, and only while a
/// media row still holds the bytes (deleting the photo, or the account, revokes its old URLs).
enum MediaDeliveryRoutes {
    static func register(_ app: Application) {
        app.get("media", "public", "**") { req async throws -> Response in
            let key = req.parameters.getCatchall().joined(separator: "/")
            guard MediaKeys.isWellFormed(key), !MediaKeys.isPhotoOriginal(key) else { throw Problem.notFound("media") }
            let hash = String(key.split(separator: "/")[1])
            guard try await Media.query(on: req.db).filter(\.$contentHash == hash)
                .filter(\.$visibility == Media.Visibility.public.rawValue).count() > 0
            else { throw Problem.notFound("media") }
            let response = try await req.atelier.media.store.response(for: key, contentType: MediaKeys.contentType(forKey: key), request: req)
            response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=31536000, immutable")
            return response
        }
        app.get("media", "private", "**") { req async throws -> Response in
            let key = req.parameters.getCatchall().joined(separator: "/")
            guard MediaKeys.isWellFormed(key) else { throw Problem.notFound("media") }
            let expires = req.query[Int.self, at: "expires"] ?? 0
            let signature = req.query[String.self, at: "signature"] ?? ""
            let now = req.atelier.clock.now()
            guard req.atelier.media.signer.isValid(key: key, expires: expires, signature: signature, now: now) else {
                throw Problem(.forbidden, detail: "This link has expired or is not valid. Ask the app for a new one.")
            }
            let hash = String(key.split(separator: "/")[1])
            guard try await Media.query(on: req.db).filter(\.$contentHash == hash).count() > 0 else { throw Problem.notFound("media") }
            let response = try await req.atelier.media.store.response(for: key, contentType: MediaKeys.contentType(forKey: key), request: req)
            let remaining = max(0, expires - Int(now.timeIntervalSince1970))
            response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=\(remaining)")
            return response
        }
    }
}
