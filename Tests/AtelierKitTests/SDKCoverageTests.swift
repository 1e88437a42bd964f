import AtelierKit
import Foundation
import Testing

@testable import Atelier

@Suite("AtelierKit: every operation typed, and the domain clients against a live server")
struct SDKCoverageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Operations no app calls, each with why. (None today: the payment webhook is outside the contract.)
    static let serverOnly: [String: String] = [:]

    @Test("every operationId of openapi.yaml is called by a typed AtelierKit method")
    func coverage() throws {
        let spec = try String(contentsOf: Self.repository.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let operations = Set(spec.split(separator: "\n").compactMap { line -> String? in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("operationId: ") else { return nil }
            return String(text.dropFirst("operationId: ".count))
        })
        var called = Set<String>()
        let sources = Self.repository.appendingPathComponent("Clients/AtelierKit/Sources/AtelierKit")
        for case let file as URL in FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)! where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for part in text.components(separatedBy: "session.client.").dropFirst() {
                called.insert(String(part.prefix { $0.isLetter || $0.isNumber }))
            }
        }
        let missing = operations.subtracting(called).subtracting(Self.serverOnly.keys)
        #expect(operations.count > 250, "read \(operations.count) operations")
        #expect(missing.isEmpty, "no typed method calls: \(missing.sorted())")
        print("AtelierKit calls \(operations.intersection(called).count) of \(operations.count) operations")
    }

    @Test("a journey through the domain clients alone: values in, values out, one AtelierError for what the server refuses")
    func journey() async throws {
        try await LiveServer.with { server in
            let ana = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            let me = try await ana.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Ana Domains")
            #expect(try await ana.account.getMe().id == me.id)
            let renamed = try await ana.account.updateMe(.init(displayName: "Ana D."))
            #expect(renamed.displayName == "Ana D.")

            let board = try await ana.discovery.createBoard(.init(name: "Summer", isPublic: true))
            #expect(try await ana.discovery.listMyBoards().items.map(\.id) == [board.id])
            try await ana.discovery.deleteBoard(boardId: board.id)
            #expect(try await ana.discovery.listMyBoards().items.isEmpty)

            let outfits = try await ana.wardrobe.listMyOutfits()
            #expect(outfits.items.isEmpty)
            let trending = try await ana.wardrobe.listTrendingOutfits(query: .init(lat: 44.43, lng: 26.1, radiusKm: ._10))
            #expect(trending.items.isEmpty)

            await #expect(throws: AtelierError.self) { try await ana.wardrobe.getOutfit(outfitId: UUID().uuidString.lowercased()) }
            do {
                _ = try await ana.wardrobe.getOutfit(outfitId: UUID().uuidString.lowercased())
            } catch AtelierError.rejected(let problem) {
                let status = problem.status
                #expect(status == 404)
            }
            do {
                _ = try await ana.account.updateMe(.init(displayName: String(repeating: "x", count: 500)))
                Issue.record("a 500-character name must be refused")
            } catch AtelierError.rejected(let problem) {
                let (status, fields) = (problem.status, problem.fields)
                #expect(status == 422 || status == 400)
                #expect(fields.contains("displayName"), "\(fields)")
            }
            let visitor = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            await #expect(throws: AtelierError.signedOut) { try await visitor.account.getMe() }
        }
    }

    @Test("a cursor list's pager gives every item once, and whole pages on .pages")
    func pagers() async throws {
        try await LiveServer.with { server in
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Pager")
            for index in 0..<7 {
                server.clock.advance(by: 1)
                try await session.account.registerDevice(token: "fcm-registration-device-\(index)", .init(platform: .fcm))
            }
            var tokens: [String] = []
            for try await device in session.account.listMyDevicesItems(query: .init(limit: 3)) { tokens.append(device.token) }
            #expect(tokens.count == 7 && Set(tokens).count == 7)
            var sizes: [Int] = []
            for try await page in session.account.listMyDevicesItems(query: .init(limit: 3)).pages { sizes.append(page.count) }
            #expect(sizes == [3, 3, 1])
        }
    }

    @Test("the image variant for a view: the smallest at least as wide as its pixels, in the format asked, else the widest")
    func imageVariant() throws {
        func variant(_ width: Int, _ format: Components.Schemas.ImageVariant.FormatPayload) -> Components.Schemas.ImageVariant {
            .init(width: width, height: width, url: "https://cdn.example/\(width).\(format.rawValue)", format: format)
        }
        let image = Components.Schemas.Image(
            id: UUID().uuidString.lowercased(), width: 1600, height: 1600, dominantColor: "#aabbcc", placeholder: "data:,",
            variants: [variant(1600, .jpeg), variant(320, .webp), variant(750, .webp), variant(1600, .webp), variant(320, .jpeg), variant(750, .jpeg)])
        #expect(image.variant(fittingPoints: 100, scale: 3)?.width == 320)
        #expect(image.variant(fittingPoints: 120, scale: 3)?.width == 750, "360 px do not fit in 320")
        #expect(image.url(fittingPoints: 390, scale: 3)?.absoluteString == "https://cdn.example/1600.webp")
        #expect(image.variant(fittingPoints: 2000, scale: 2, format: .jpeg)?.url == "https://cdn.example/1600.jpeg", "none is wide enough: the widest")
        #expect(image.variant(fittingPoints: 200, scale: 2, format: .jpeg)?.format == .jpeg)
    }

    @Test("one AtelierError says the status, the problem type, the fields, Retry-After and whether to try again")
    func errorsSayEnough() async throws {
        try await LiveServer.with { server in
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore(), retry: .none)
            let email = uniqueEmail()
            try await session.signUp(email: email, password: "correct horse battery", displayName: "Errors")
            do {
                _ = try await session.account.updateMe(.init(displayName: String(repeating: "x", count: 500)))
                Issue.record("a 500-character name must be refused")
            } catch let error as AtelierError {
                guard case .rejected(let problem) = error else { Issue.record("\(error)"); return }
                #expect(problem.type.hasPrefix("https://") && problem.type != "about:blank", "\(problem.type)")
                #expect(problem.messages.first?.field == "displayName" && !(problem.messages.first?.message.isEmpty ?? true))
                #expect(!error.isRetrySafe && error.retryAfter == nil && error.status == problem.status)
            }
            // Wrong passwords until the server says to wait: a rate limit with its Retry-After, safe to try later.
            var limited: AtelierError?
            for _ in 0..<15 where limited == nil {
                do {
                    _ = try await session.account.logIn(.init(email: email, password: "wrong horse battery"))
                } catch let error as AtelierError {
                    if case .rateLimited = error { limited = error } else { #expect(error.status == 401 && !error.isRetrySafe) }
                }
            }
            let error = try #require(limited)
            #expect(error.isRetrySafe && error.status == 429)
            #expect((error.retryAfter ?? .zero) > .zero, "the server's Retry-After: \(String(describing: error.retryAfter))")
        }
    }
}
