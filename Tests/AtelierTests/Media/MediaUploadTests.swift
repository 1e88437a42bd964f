import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct ImageBody: Decodable {
    struct Variant: Decodable {
        var width: Int
        var height: Int
        var url: String
        var format: String
    }

    var id: String
    var width: Int
    var height: Int
    var dominantColor: String
    var placeholder: String
    var variants: [Variant]
}

extension TestApp {
    func upload(
        _ data: Data, contentType: String = "application/octet-stream", query: String = "", token: String,
        headers extra: [(String, String)] = []
    ) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: .contentType, value: contentType)
        headers.bearerAuthorization = .init(token: token)
        for (name, value) in extra { headers.add(name: name, value: value) }
        return try await app.testing().sendRequest(.POST, "/api/v1/media\(query)", headers: headers, body: ByteBuffer(data: data))
    }

    /// Fetches a media URL through the server (folder or S3 backend alike).
    func fetch(_ url: String) async throws -> TestingHTTPResponse {
        let path = String(url.dropFirst(app.atelier.config.publicBaseURL.count))
        return try await app.testing().sendRequest(.GET, path)
    }

    func mediaCount(uploader: String) async throws -> Int {
        try await Media.query(on: app.db).filter(\.$uploader.$id == UUID(uuidString: uploader)!).count()
    }

    /// Files in the folder backend (empty for S3: the store is checked through the rows instead).
    func storedFiles() -> [String] {
        let root = URL(fileURLWithPath: dataDirectory).appendingPathComponent("media").path
        return (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
    }
}

@Suite("Media: photo upload")
struct MediaUploadTests {
    @Test("a phone JPEG (orientation 6, GPS) is stored upright without metadata, at the specified widths")
    func phoneJPEG() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let original = try TestImages.phoneJPEG(width: 1200, height: 800)
            #expect(try TestImages.inspect(original).hasGPS, "the fixture must carry GPS")
            let response = try await t.upload(original, contentType: "image/jpeg", token: s.accessToken)
            #expect(response.status == .created, "\(response.body.string)")
            let image = try response.content.decode(ImageBody.self)
            #expect(image.width == 800 && image.height == 1200)
            #expect(image.dominantColor.hasPrefix("#") && image.placeholder.hasPrefix("data:image/jpeg;base64,"))
            #expect(Set(image.variants.map(\.width)) == [750, 540, 270])
            #expect(Set(image.variants.map(\.format)) == ["jpeg", "webp"])

            let media = try #require(try await Media.find(UUID(uuidString: image.id), on: t.app.db))
            var urls = image.variants.map { ($0.url, $0.width) }
            urls.append((t.app.atelier.media.signer.privateURL(key: media.originalKey, now: t.clock.now()), 800))
            for (url, width) in urls {
                let file = try await t.fetch(url)
                #expect(file.status == .ok, "\(url)")
                let stored = try TestImages.inspect(Data(buffer: file.body))
                #expect(stored.width == width)
                #expect(!stored.hasEXIF && !stored.hasGPS && stored.orientation == 1, "\(url) keeps metadata")
                #expect(stored.height > stored.width, "\(url) is not upright")
                // Upright, the top-left corner was the stored bottom-left: no red, full green.
                #expect(stored.topLeft[0] < 40 && stored.topLeft[1] > 200, "\(url) top-left \(stored.topLeft)")
                #expect(stored.topRight[0] < 40 && stored.topRight[1] < 40, "\(url) top-right \(stored.topRight)")
            }
        }
    }

    @Test("a 200 px wide image gets no variant wider than 200")
    func smallImage() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let response = try await t.upload(try TestImages.png(width: 200, height: 150), contentType: "image/png", token: s.accessToken)
            #expect(response.status == .created, "\(response.body.string)")
            let image = try response.content.decode(ImageBody.self)
            #expect(!image.variants.isEmpty)
            #expect(image.variants.allSatisfy { $0.width <= 200 })
        }
    }

    @Test("a HEIC photo is accepted and stored as JPEG")
    func heic() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let response = try await t.upload(try TestImages.heic(width: 640, height: 480), contentType: "image/heic", token: s.accessToken)
            #expect(response.status == .created, "\(response.body.string)")
            let image = try response.content.decode(ImageBody.self)
            #expect(image.width == 640 && Set(image.variants.map(\.width)) == [540, 270])
            let media = try #require(try await Media.find(UUID(uuidString: image.id), on: t.app.db))
            #expect(media.format == "jpeg" && media.originalKey.hasSuffix("original.jpg"))
        }
    }

    @Test("background=white puts the garment on white")
    func whiteBackground() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let response = try await t.upload(
                try TestImages.garmentOnBackdrop(), contentType: "image/png", query: "?background=white", token: s.accessToken)
            #expect(response.status == .created, "\(response.body.string)")
            let variant = try #require(try response.content.decode(ImageBody.self).variants.first { $0.format == "jpeg" })
            let stored = try TestImages.inspect(Data(buffer: try await t.fetch(variant.url).body))
            #expect(stored.topLeft.allSatisfy { $0 > 240 }, "backdrop \(stored.topLeft)")
            #expect(stored.center[2] > 90 && stored.center[0] < 60, "garment \(stored.center)")
        }
    }

    @Test("crop and rotation apply to the upright image")
    func cropAndRotate() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let jpeg = try TestImages.phoneJPEG(width: 1200, height: 800, orientation: 1, gps: false)
            let response = try await t.upload(jpeg, query: "?crop=100,100,600,400&rotate=90", token: s.accessToken)
            #expect(response.status == .created, "\(response.body.string)")
            let image = try response.content.decode(ImageBody.self)
            #expect(image.width == 400 && image.height == 600)
            let outside = try await t.upload(jpeg, query: "?crop=900,0,600,400", token: s.accessToken)
            #expect(outside.status == .unprocessableEntity)
            #expect(try outside.problem().fields == ["crop"])
        }
    }

    @Test(
        "refused uploads are specific 4xx problems and leave no file or row",
        arguments: ["png-as-jpeg", "text-as-jpeg", "60-megapixels", "truncated-jpeg", "30-megabytes", "empty"])
    func refusals(kind: String) async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let (data, type, status): (Data, String, HTTPStatus) =
                switch kind {
                case "png-as-jpeg": (try TestImages.png(width: 300, height: 200), "image/jpeg", .unsupportedMediaType)
                case "text-as-jpeg": (Data("just some text, not a photo".utf8), "image/jpeg", .unsupportedMediaType)
                case "60-megapixels": (TestImages.pngHeaderOnly(width: 10_000, height: 6_000), "image/png", .unprocessableEntity)
                case "truncated-jpeg":
                    (try TestImages.phoneJPEG(width: 1200, height: 800, gps: false).prefix(6_000), "image/jpeg", .unprocessableEntity)
                case "30-megabytes": (Data(repeating: 0xFF, count: 30 * 1024 * 1024), "image/jpeg", .payloadTooLarge)
                default: (Data(), "image/jpeg", .unprocessableEntity)
                }
            let filesBefore = t.storedFiles()
            let response = try await t.upload(data, contentType: type, token: s.accessToken)
            #expect(response.status == status, "\(kind): \(response.body.string)")
            _ = try response.problem()
            #expect(try await t.mediaCount(uploader: s.user.id) == 0)
            #expect(t.storedFiles() == filesBefore)
        }
    }

    @Test("retrying an upload with the same Idempotency-Key returns the same media and stores nothing new")
    func idempotentRetry() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let jpeg = try TestImages.phoneJPEG(width: 900, height: 700, gps: false)
            let key = [("Idempotency-Key", UUID().uuidString)]
            let first = try await t.upload(jpeg, contentType: "image/jpeg", token: s.accessToken, headers: key)
            let files = t.storedFiles()
            let second = try await t.upload(jpeg, contentType: "image/jpeg", token: s.accessToken, headers: key)
            #expect(first.status == .created && second.status == .created)
            #expect(try first.content.decode(ImageBody.self).id == second.content.decode(ImageBody.self).id)
            #expect(try await t.mediaCount(uploader: s.user.id) == 1)
            #expect(t.storedFiles() == files)
        }
    }

    @Test("multipart uploads work like raw ones")
    func multipart() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let png = try TestImages.png(width: 320, height: 240)
            let boundary = "atelier-\(UUID().uuidString)"
            // An unknown part first: it is skipped, and the file after it is still read.
            var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n".utf8)
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"look.png\"\r\nContent-Type: image/png\r\n\r\n".utf8))
            body.append(png)
            body.append(Data("\r\n--\(boundary)--\r\n".utf8))
            let response = try await t.upload(body, contentType: "multipart/form-data; boundary=\(boundary)", token: s.accessToken)
            #expect(response.status == .created, "\(response.body.string)")
        }
    }
}

@Suite("Media: delivery and access")
struct MediaDeliveryTests {
    @Test("a private URL works before expiry, fails after it, and fails with one changed character")
    func signedURLs() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let response = try await t.upload(try TestImages.png(width: 300, height: 300), contentType: "image/png", token: s.accessToken)
            let url = try #require(try response.content.decode(ImageBody.self).variants.first?.url)
            let fresh = try await t.fetch(url)
            #expect(fresh.status == .ok, "\(url): \(fresh.body.string)")

            let tampered = String(url.dropLast()) + (url.hasSuffix("0") ? "1" : "0")
            #expect(try await t.fetch(tampered).status == .forbidden)
            let otherKey = url.replacingOccurrences(of: "/w270.", with: "/w271.")
            #expect(try await t.fetch(otherKey).status != .ok)

            t.clock.advance(by: MediaURLSigner.lifetime + 1)
            #expect(try await t.fetch(url).status == .forbidden)
        }
    }

    @Test("public media has permanent, immutable URLs with ETag and byte ranges")
    func publicDelivery() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let response = try await t.upload(
                try TestImages.png(width: 600, height: 400), contentType: "image/png", query: "?visibility=public", token: s.accessToken)
            let url = try #require(try response.content.decode(ImageBody.self).variants.first?.url)
            #expect(url.contains("/media/public/"))
            let full = try await t.fetch(url)
            #expect(full.status == .ok)
            #expect(full.headers.first(name: .cacheControl)?.contains("immutable") == true)
            let etag = try #require(full.headers.first(name: .eTag))
            let path = String(url.dropFirst(t.app.atelier.config.publicBaseURL.count))
            let ranged = try await t.app.testing().sendRequest(.GET, path, headers: ["Range": "bytes=0-9"])
            #expect(ranged.status == .partialContent)
            #expect(ranged.body.readableBytes == 10)
            let cached = try await t.app.testing().sendRequest(.GET, path, headers: ["If-None-Match": etag])
            #expect(cached.status == .notModified)
        }
    }

    @Test("private media is invisible to others; deleting one's own unattached upload removes its files")
    func accessAndDelete() async throws {
        try await TestApp.with { t in
            let owner = try await t.signUp()
            let stranger = try await t.signUp()
            let response = try await t.upload(try TestImages.png(width: 300, height: 300), contentType: "image/png", token: owner.accessToken)
            let id = try response.content.decode(ImageBody.self).id
            #expect(try await t.send(.GET, "/api/v1/media/\(id)", token: stranger.accessToken).status == .notFound)
            #expect(try await t.send(.DELETE, "/api/v1/media/\(id)", token: stranger.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/media/\(id)", token: owner.accessToken).status == .ok)
            let media = try #require(try await Media.find(UUID(uuidString: id), on: t.app.db))
            #expect(try await t.send(.DELETE, "/api/v1/media/\(id)", token: owner.accessToken).status == .noContent)
            #expect(try await t.app.atelier.media.store.exists(key: media.originalKey) == false)
        }
    }

    @Test("uploads never attached are collected after 24 hours; attached ones stay")
    func collection() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let a = try await t.upload(try TestImages.png(width: 300, height: 300), contentType: "image/png", token: s.accessToken)
            let b = try await t.upload(try TestImages.png(width: 310, height: 300), contentType: "image/png", token: s.accessToken)
            let service = MediaService(db: t.app.db, core: t.app.core, mediaLibrary: t.app.atelier.media)
            let kept = try #require(try await Media.find(UUID(uuidString: try b.content.decode(ImageBody.self).id), on: t.app.db))
            try await service.attach(kept, ownerType: "test", ownerID: UUID())
            t.clock.advance(by: 24 * 3600 + 1)
            try await service.collectUnattached()
            #expect(try await Media.find(UUID(uuidString: try a.content.decode(ImageBody.self).id), on: t.app.db) == nil)
            #expect(try await Media.find(kept.id, on: t.app.db) != nil)
            try await service.deleteOwned(ownerType: "test", ownerID: kept.ownerID!)
            #expect(try await t.mediaCount(uploader: s.user.id) == 0)
        }
    }
}
