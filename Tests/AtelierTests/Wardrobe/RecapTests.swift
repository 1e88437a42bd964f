import CVips
import Fluent
import Foundation
import Testing
import VaporTesting
import VipsShim

@testable import Atelier

@Suite("Wardrobe: recaps")
struct RecapTests {
    @Test("a month's recap is an animated WebP of the outfits worn, in order; private recaps are 404 to others, friends-only ones to strangers and the blocked")
    func recap() async throws {
        try await TestApp.with { t in
            var owner = try await t.signUp()
            let friend = try await t.signUp()
            let stranger = try await t.signUp()
            try await t.befriend(owner, friend)
            t.clock.set(Date(timeIntervalSince1970: 1_795_132_800 + 12 * 3600))  // 2026-11-20
            owner = try await t.refreshed(owner)
            var outfitIDs: [String] = []
            for (index, colour) in [(UInt8(200), UInt8(30), UInt8(30)), (30, 60, 200), (40, 140, 60)].enumerated() {
                let item = try await t.closetItem(owner.accessToken, type: "dress", colour: colour, shape: .dress)
                let created = try await t.send(.POST, "/api/v1/me/outfits", json: #"{"name":"Look \#(index)","pieces":[{"closetItemId":"\#(item.id)"}]}"#, token: owner.accessToken)
                outfitIDs.append(try created.content.decode(OutfitBody.self).id)
            }
            try await t.drawWardrobe()
            for (index, id) in outfitIDs.enumerated() {
                try await t.send(.POST, "/api/v1/outfits/\(id)/worn?date=2026-11-1\(index + 1)", token: owner.accessToken)
            }
            #expect(try await t.send(.POST, "/api/v1/me/recaps", json: #"{"month":"2026-10"}"#, token: owner.accessToken).status == .unprocessableEntity)
            #expect(try await t.send(.POST, "/api/v1/me/recaps", json: #"{"month":"2026-11","year":2026}"#, token: owner.accessToken).status == .unprocessableEntity)

            struct Body: Decodable { var id: String; var frameCount: Int; var animationUrl: String; var shareUrl: String; var outfitIds: [String] }
            let made = try await t.send(.POST, "/api/v1/me/recaps", json: #"{"month":"2026-11"}"#, token: owner.accessToken)
            #expect(made.status == .created, "\(made.body.string)")
            let recap = try made.content.decode(Body.self)
            #expect(recap.frameCount == 3 && recap.outfitIds == outfitIDs)
            let folder = try TestImages.directory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("recap.webp")
            try Data(buffer: try await t.fetch(recap.animationUrl).body).write(to: file)
            let image = try Vips.open(file.path)
            #expect(image.with { vips_image_get_n_pages($0) } == 3, "three frames")
            #expect(image.width == RecapMaker.frameWidth)

            for token in [friend.accessToken, stranger.accessToken] {
                #expect(try await t.send(.GET, "/api/v1/recaps/\(recap.id)", token: token).status == .notFound)
            }
            #expect(try await t.send(.GET, "/recaps/\(recap.id)").status == .notFound, "the share page of a private recap")
            #expect(try await t.send(.GET, "/api/v1/recaps/\(recap.id)", token: owner.accessToken).status == .ok)

            let shared = try await t.send(.POST, "/api/v1/me/recaps", json: #"{"month":"2026-11","visibility":"friends"}"#, token: owner.accessToken)
                .content.decode(Body.self)
            #expect(try await t.send(.GET, "/api/v1/recaps/\(shared.id)", token: friend.accessToken).status == .ok)
            #expect(try await t.send(.GET, "/api/v1/recaps/\(shared.id)", token: stranger.accessToken).status == .notFound)
            try await t.send(.PUT, "/api/v1/me/blocks/\(friend.user.id)", token: owner.accessToken)
            #expect(try await t.send(.GET, "/api/v1/recaps/\(shared.id)", token: friend.accessToken).status == .notFound)

            let everyone = try await t.send(.POST, "/api/v1/me/recaps", json: #"{"year":2026,"visibility":"public"}"#, token: owner.accessToken)
                .content.decode(Body.self)
            let page = try await t.send(.GET, "/recaps/\(everyone.id)")
            #expect(page.status == .ok && page.body.string.contains("recap-animation"))
        }
    }
}
