import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// Content-addressed writes under concurrency, originals behind signed URLs, and scratch folders
/// that do not outlive their process. The media suites also run against S3 (`make test-s3`).
@Suite("Media: integrity")
struct MediaIntegrityTests {
    private func expectReadable(_ image: ImageBody, _ t: TestApp) async throws {
        for variant in image.variants {
            let file = try await t.fetch(variant.url)
            #expect(file.status == .ok && file.body.readableBytes > 0, "\(variant.url): \(file.status)")
        }
    }

    private func partialFiles(_ t: TestApp) -> [String] {
        t.storedFiles().filter { $0.contains(".partial/") && !$0.hasSuffix(".lock") && $0.split(separator: "/").count > 2 }
    }

    @Test("simultaneous uploads of identical bytes all answer 201, every variant is readable, no partial file stays")
    func identicalUploads() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            for round in 0..<12 {
                let bytes = try TestImages.png(width: 200 + round, height: 160)
                let responses = try await withThrowingTaskGroup(of: TestingHTTPResponse.self) { group in
                    for _ in 0..<4 { group.addTask { try await t.upload(bytes, contentType: "image/png", token: s.accessToken) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                for response in responses {
                    #expect(response.status == .created, "round \(round): \(response.body.string)")
                    try await expectReadable(try response.content.decode(ImageBody.self), t)
                }
            }
            #expect(partialFiles(t).isEmpty, "\(partialFiles(t))")
        }
    }

    @Test("an upload racing the deletion of the same bytes keeps every file it was acknowledged for")
    func uploadRacingDelete() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            for round in 0..<15 {
                let bytes = try TestImages.png(width: 180 + round, height: 150)
                let first = try await t.upload(bytes, contentType: "image/png", token: s.accessToken)
                let firstID = try first.content.decode(ImageBody.self).id
                async let deleted = t.send(.DELETE, "/api/v1/media/\(firstID)", token: s.accessToken)
                async let again = t.upload(bytes, contentType: "image/png", token: s.accessToken)
                let (deletion, upload) = try await (deleted, again)
                #expect(deletion.status == .noContent)
                #expect(upload.status == .created, "\(upload.body.string)")
                let image = try upload.content.decode(ImageBody.self)
                try await expectReadable(image, t)
                let media = try #require(try await Media.find(UUID(uuidString: image.id), on: t.app.db))
                #expect(try await t.app.atelier.media.store.exists(key: media.originalKey), "round \(round): the original went")
            }
        }
    }

    @Test("a public photo's original is not at a permanent URL; its signed URL works")
    func originalsOnlySigned() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let response = try await t.upload(
                try TestImages.phoneJPEG(width: 600, height: 400, gps: false), contentType: "image/jpeg", query: "?visibility=public",
                token: s.accessToken)
            let image = try response.content.decode(ImageBody.self)
            let media = try #require(try await Media.find(UUID(uuidString: image.id), on: t.app.db))
            #expect(try await t.send(.GET, "/media/public/\(media.originalKey)").status == .notFound)
            try await expectReadable(image, t)  // the public variants still are
            let signed = t.app.atelier.media.signer.privateURL(key: media.originalKey, now: t.clock.now())
            #expect(try await t.fetch(signed).status == .ok)
        }
    }

    @Test("scratch folders of dead processes are removed at start; a live process's folder stays")
    func scratchFolders() throws {
        let parent = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("scratch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        // What kill -9 leaves: a folder with an upload in it and an unlocked lock file, and a
        // folder of the layout before lock files.
        let dead = parent.appendingPathComponent("dead")
        try FileManager.default.createDirectory(at: dead.appendingPathComponent("work"), withIntermediateDirectories: true)
        try Data("bytes".utf8).write(to: dead.appendingPathComponent("work/upload"))
        try Data().write(to: parent.appendingPathComponent("dead.lock"))
        try FileManager.default.createDirectory(at: parent.appendingPathComponent("older-layout"), withIntermediateDirectories: true)

        let live = try ProcessScratchFolder(parent: parent)
        try Data("in progress".utf8).write(to: live.url.appendingPathComponent("upload"))
        let entries = try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted()
        #expect(entries == [live.url.lastPathComponent, live.url.lastPathComponent + ".lock"].sorted())

        // A second process starting beside a live one leaves the live one's files alone.
        let second = try ProcessScratchFolder(parent: parent)
        #expect(FileManager.default.fileExists(atPath: live.url.appendingPathComponent("upload").path))
        #expect(second.url != live.url)
    }
}
