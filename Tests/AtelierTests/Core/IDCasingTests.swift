import Foundation
import NIOConcurrencyHelpers
import Testing
import UUIDCasingCheck
import VaporTesting
import ZIPFoundation

@testable import Atelier

/// Issue 23: ids go out in lower case (RFC 9562) and are looked up in either case. That no answer
/// writes one in upper case is checked on every request of every suite (`UUIDCasingMiddleware`).
@Suite("Ids: written in lower case, found in either case")
struct IDCasingTests {
    @Test("a product, a store and a post are found by their id in upper case, and answer with it in lower case")
    func upperCaseLookups() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let product = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts)
            let productAnswer = try await t.send(.GET, "/api/v1/products/\(product.id.uppercased())")
            #expect(productAnswer.status == .ok, "\(productAnswer.body.string)")
            let found = try productAnswer.content.decode(ProductBody.self)
            #expect(found.id == product.id && found.id == found.id.lowercased())
            #expect(found.store.id == f.storeAID && found.webUrl.hasSuffix("/products/\(found.id)"))

            struct StoreBody: Decodable { var id: String; var slug: String }
            let storeAnswer = try await t.send(.GET, "/api/v1/stores/\(f.storeAID.uppercased())")
            #expect(storeAnswer.status == .ok, "\(storeAnswer.body.string)")
            #expect(try storeAnswer.content.decode(StoreBody.self).id == f.storeA.id!.uuidString.lowercased())

            let author = try await t.signUp(name: "Author")
            let post = try await t.createdPost(author)
            let postAnswer = try await t.send(.GET, "/api/v1/posts/\(post.id.uppercased())", token: author.accessToken)
            #expect(postAnswer.status == .ok, "\(postAnswer.body.string)")
            let foundPost = try postAnswer.content.decode(PostBody.self)
            #expect(foundPost.id == post.id && foundPost.id == foundPost.id.lowercased())
            #expect(foundPost.photo.id == foundPost.photo.id.lowercased() && foundPost.author.id == author.user.id.lowercased())
        }
    }

    @Test("the data export writes its ids in lower case")
    func exportFiles() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let item = try await t.closetItem(s.accessToken, type: "coat")
            let outfit = try await t.send(
                .POST, "/api/v1/me/outfits", json: #"{"name":"Sunday","pieces":[{"closetItemId":"\#(item.id)","x":0.4,"y":0.5,"scale":0.6}]}"#,
                token: s.accessToken
            ).content.decode(OutfitBody.self)
            try await t.send(.POST, "/api/v1/me/calendar", json: #"{"outfitId":"\#(outfit.id)","date":"2026-12-24","note":"Eve"}"#, token: s.accessToken)
            _ = try await t.createdPost(s)
            let response = try await t.send(.GET, "/api/v1/me/export", token: s.accessToken)
            #expect(response.status == .ok)
            let archive = try Archive(data: Data(buffer: response.body), accessMode: .read)
            var checked: [String] = []
            for entry in archive where entry.path.hasSuffix(".json") {
                var data = Data()
                _ = try archive.extract(entry) { data.append($0) }
                #expect(UUIDCasing.upperCaseIDs(in: String(decoding: data, as: UTF8.self)).isEmpty, "\(entry.path)")
                checked.append(entry.path)
            }
            #expect(checked.contains("atelier-export/closet.json") && checked.contains("atelier-export/outfits.json"))
            #expect(checked.contains("atelier-export/calendar.json") && checked.contains("atelier-export/posts.json"))
        }
    }

    @Test("the check finds ids written in upper case, not lower-case ones, digits-only ones or echoes of the request")
    func checkFindings() {
        let id = "0193A1F0-0000-7000-8000-0000000000AA"
        let text = #"{"id":"\#(id)","other":"\#(id.lowercased())","digits":"01234567-0000-7000-8000-000000000000","hash":"B\#(id)"}"#
        #expect(UUIDCasing.upperCaseIDs(in: text) == [id])
        let headers = [(name: "Location", value: "/products/\(id)"), (name: "Set-Cookie", value: "session=\(id)")]
        #expect(UUIDCasing.findings(headers: headers, body: text, request: "GET /") == ["\(id) in the Location header", "\(id) in the body"])
        #expect(UUIDCasing.findings(headers: headers, body: text, request: "GET /products/\(id)").isEmpty)
        #expect(!UUIDCasing.isText(contentType: "image/jpeg") && !UUIDCasing.isText(contentType: "application/zip"))
        #expect(UUIDCasing.isText(contentType: "application/problem+json") && UUIDCasing.isText(contentType: "text/html; charset=utf-8"))
    }

    @Test("the middleware reports a streamed answer with an upper-case id and still hands over its body")
    func middlewareReadsStreams() async throws {
        try await TestApp.with { t in
            let id = UUID().uuidString
            let reported = NIOLockedValueBox<[String]>([])
            let check = UUIDCasingMiddleware { message in reported.withLockedValue { $0.append(message) } }
            let request = Request(application: t.app, method: .GET, url: "/somewhere", on: t.app.eventLoopGroup.next())
            let response = try await check.respond(to: request, chainingTo: StreamedAnswer(text: #"{"id":"\#(id)"}"#))
            #expect(reported.withLockedValue { $0 } == ["GET /somewhere answered 200 with an upper-case id: \(id) in the body"])
            #expect(response.body.string == #"{"id":"\#(id)"}"#)
        }
    }
}

/// An answer whose JSON body is streamed, as the generated API handlers send theirs.
private struct StreamedAnswer: AsyncResponder {
    var text: String

    func respond(to request: Request) async throws -> Response {
        let text = text
        let response = Response(status: .ok, body: .init(asyncStream: { writer in
            try await writer.write(.buffer(ByteBuffer(string: text)))
            try await writer.write(.end)
        }))
        response.headers.contentType = .json
        return response
    }
}
