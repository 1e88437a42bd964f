import AtelierKit
import Foundation
import Testing

@testable import Atelier

@Suite("AtelierKit: profile pictures")
struct ProfilePicturesTests {
    @Test("upload with a square crop, pick an earlier one again, show the initial, delete; bad bytes are a rejected upload")
    func pictures() async throws {
        try await LiveServer.with { server in
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Picture Kit")
            let pictures = ProfilePictures(session: session)
            let photo = try WardrobeDemoSeed.photo(type: "dress", colour: .navy, shape: 0)

            let first = try await pictures.upload(photo, crop: PictureCrop(x: 100, y: 200, side: 400))
            #expect(first.width == 400 && first.height == 400, "the server cut the square out")
            server.clock.advance(by: 1)
            let second = try await pictures.upload(photo)
            #expect(second.width == 600 && second.height == 800)

            var history = try await pictures.history()
            #expect(history.current?.id == second.id)
            #expect(history.pictures.map(\.id) == [second.id, first.id])
            server.clock.advance(by: 1)

            #expect(try await pictures.use(first.id).id == first.id)
            history = try await pictures.history()
            #expect(history.current?.id == first.id && history.pictures.map(\.id) == [first.id, second.id])

            try await pictures.remove()
            #expect(try await pictures.history().current == nil)
            try await pictures.delete(second.id)
            #expect(try await pictures.history().pictures.map(\.id) == [first.id])

            await #expect {
                _ = try await pictures.upload(Data("not a photo at all".utf8))
            } throws: { error in
                guard case AtelierError.rejected(let problem) = error else { return false }; let status = problem.status
                return status == 415 || status == 422
            }
            await #expect(throws: AtelierError.self) { try await pictures.delete(UUID().uuidString.lowercased()) }
        }
    }
}
