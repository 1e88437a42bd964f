import AtelierKit
import Foundation
import Testing

@testable import Atelier

@Suite("AtelierKit: closet uploads")
struct ClosetUploaderTests {
    @Test("two photos at once, one with a device mask: both become items; the masked one is cut out along the mask")
    func upload() async throws {
        try await LiveServer.with { server in
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Closet Kit")
            func photo(_ shape: Int32) throws -> Data { try WardrobeDemoSeed.photo(type: "dress", colour: .navy, shape: shape) }
            // The mask: a 200 × 400 rectangle on the 600 × 800 photo, nothing like the garment.
            var mask = [UInt8](repeating: 0, count: 600 * 800)
            for y in 200..<600 { for x in 200..<400 { mask[y * 600 + x] = 255 } }
            let maskPNG = try Vips.pngData(try Vips.image(fromBytes: mask, width: 600, height: 800, bands: 1))

            let uploader = ClosetUploader(session: session)
            let items = try await uploader.add([ClosetPhoto(image: try photo(0)), ClosetPhoto(image: try photo(1), mask: maskPNG)], type: "dress")
            #expect(items.count == 2 && items.allSatisfy { $0.cutoutStatus == .pending && $0._type == "dress" })
            try await WardrobeImageQueue(db: server.app.db, core: server.app.core, mediaLibrary: server.app.atelier.media).drain()
            let done = try await uploader.waitForCutouts(items.map(\.id), timeout: .seconds(5))
            #expect(done.map(\.cutoutStatus) == [.ready, .ready])
            #expect(done[1].cutout?.width == 200 + 2 * 8 && done[1].cutout?.height == 400 + 2 * 8, "the mask's rectangle and its margin")
            await #expect(throws: ClosetUploadError.self) { try await uploader.add([]) }
        }
    }
}
