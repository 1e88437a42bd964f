import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import Atelier

/// What one hub subscription receives, for looking at later.
final class HubListener: Sendable {
    private let received: NIOLockedValueBox<[LiveMessage]>
    private let task: Task<Void, Never>

    init(_ hub: LiveHub, channel: String) {
        let box = NIOLockedValueBox<[LiveMessage]>([])
        let (_, events) = hub.subscribe(channel)
        received = box
        task = Task { for await message in events { box.withLockedValue { $0.append(message) } } }
    }

    var messages: [LiveMessage] { received.withLockedValue { $0 } }

    /// The messages once there are `count`, or what came within `timeout` seconds.
    func waitFor(_ count: Int, timeout: TimeInterval = 10) async -> [LiveMessage] {
        let deadline = Date().addingTimeInterval(timeout)
        while messages.count < count, Date() < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return messages
    }

    func stop() { task.cancel() }
}

/// Whether `DATABASE_URL` names PostgreSQL (what `AppConfig.testing` then uses).
private var testsRunOnPostgres: Bool {
    let url = ProcessInfo.processInfo.environment["DATABASE_URL"] ?? ""
    return url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
}

/// Instances on one PostgreSQL database share live events and catalogue cache invalidations over
/// LISTEN/NOTIFY (issue 22). Each test runs a second application on the first one's schema, as
/// another instance of the same installation would be. On SQLite there is one process and no bus.
@Suite("Operations: the live bus across instances", .enabled(if: testsRunOnPostgres, "needs DATABASE_URL=postgres://…"))
struct ClusterBusTests {
    /// Runs `body` with instance `a` and a second instance `b` on `a`'s schema, with `a`'s token
    /// key (a token one instance signed is good on all). `b` is shut down without dropping the schema.
    static func withTwo(
        adjust: @escaping (inout AppConfig) -> Void = { _ in }, _ body: (TestApp, TestApp) async throws -> Void
    ) async throws {
        try await TestApp.with(adjust: adjust) { a in
            let b = try await TestApp.make { config in
                adjust(&config)
                config.databaseSchema = a.app.atelier.config.databaseSchema
                config.tokenSigningKey = a.app.atelier.secrets.tokenSigningKey
            }
            b.clock.set(a.clock.now())
            do {
                try await body(a, b)
            } catch {
                try? await b.app.asyncShutdown()
                try? FileManager.default.removeItem(atPath: b.dataDirectory)
                throw error
            }
            try await b.app.asyncShutdown()
            try? FileManager.default.removeItem(atPath: b.dataDirectory)
        }
    }

    @Test("both instances listen on their schema's channel from the start")
    func listening() async throws {
        try await Self.withTwo { a, b in
            let busA = try #require(a.app.atelier.cluster), busB = try #require(b.app.atelier.cluster)
            #expect(busA.isListening && busB.isListening)
            #expect(busA.channel == busB.channel)
            #expect(busA.channel.hasPrefix("atelier_live_test_") && busA.channel.utf8.count <= 63)
            #expect(busA.instanceID != busB.instanceID)
        }
    }

    @Test("a photo posted through one instance reaches a WebSocket subscriber on another within a second; the sender's own subscriber gets it once")
    func photoAcrossInstances() async throws {
        try await Self.withTwo { a, b in
            let ana = try await a.signUp(name: "Host Ana"), cara = try await a.signUp(name: "Guest Cara")
            try await a.befriend(ana, cara)
            let moment = try await a.createMoment(ana, startIn: -60, endIn: 3600)
            _ = try await a.invite([cara], to: moment, by: ana)
            #expect(try await a.checkIn(moment, cara, at: TestPlace.north(10)).status == .ok)

            a.app.http.server.configuration.hostname = "127.0.0.1"
            a.app.http.server.configuration.port = 0
            try a.app.server.start()
            let port = try #require(a.app.http.server.shared.localAddress?.port)
            let anaLive = try await LiveTestClient.connect(port: port, token: ana.accessToken, on: a.app.eventLoopGroup)
            #expect(await anaLive.next("ready") != nil)
            try await anaLive.send(#"{"type":"subscribe","channel":"moment:\#(moment.id)"}"#)
            #expect(await anaLive.next("subscribed") != nil)
            let onB = HubListener(b.app.atelier.live.hub, channel: LiveChannel.moment(try #require(UUID(uuidString: moment.id))))

            b.clock.set(a.clock.now())
            let photo = try await b.momentPhoto(moment, cara)
            // Within a second on real processes (tests/cluster); here, among a whole suite running at once, within ten.
            let event = await anaLive.next("event", event: "photo.created", timeout: 10)
            #expect((event?["data"] as? [String: Any])?["id"] as? String == photo.id, "the photo reached instance A")

            // Instance B delivered to its own subscriber when publishing and ignored its own NOTIFY.
            #expect(await onB.waitFor(1).map(\.event) == ["photo.created"])
            try await Task.sleep(for: .milliseconds(300))
            #expect(onB.messages.count == 1, "delivered once, not again when its own notification came back")
            onB.stop()
            await anaLive.close()
            await a.app.server.shutdown()
        }
    }

    @Test("a message too large for NOTIFY travels as an id and arrives whole; housekeeping prunes stored messages after their lifetime")
    func largeMessage() async throws {
        try await Self.withTwo { a, b in
            let channel = LiveChannel.moment(UUID())
            let onA = HubListener(a.app.atelier.live.hub, channel: channel)
            defer { onA.stop() }
            struct Big: Codable { var text: String }
            // Over 8 000 bytes before escaping; quotes, backslashes and non-ASCII survive the trip.
            let text = String(repeating: "ăb\"c\\ ", count: 1_500)
            #expect(text.utf8.count > 8_000)
            await b.app.atelier.live.publish(channel, event: "big", data: Big(text: text))

            let received = await onA.waitFor(1)
            let message = try #require(received.first)
            #expect(received.count == 1)
            #expect(message.event == "big")
            #expect(try JSONDecoder().decode(Big.self, from: Data(message.data.utf8)).text == text)

            let sql = a.app.db.sql
            func stored() async throws -> Int {
                try await sql.raw("SELECT COUNT(*) AS n FROM \(ident: LiveEventRecord.table)").first()?.decode(column: "n", as: Int.self) ?? -1
            }
            #expect(try await stored() == 1)
            let now = a.clock.now()
            try await ClusterBus.pruneStored(on: a.app.db, before: now.addingTimeInterval(-ClusterBus.storedLifetime))
            #expect(try await stored() == 1, "still within its lifetime")
            try await ClusterBus.pruneStored(on: a.app.db, before: now.addingTimeInterval(1))
            #expect(try await stored() == 0)

            // Small ones go inline: no row.
            await b.app.atelier.live.publish(channel, event: "small", data: ["n": 1])
            #expect(await onA.waitFor(2).map(\.event) == ["big", "small"])
            #expect(try await stored() == 0)
        }
    }

    @Test("a product edited through one instance shows its new price on the other at once, not after the cache lifetime")
    func cacheAcrossInstances() async throws {
        // A minute's lifetime (and a clock that stands still): only the bus can make A forget.
        try await Self.withTwo(adjust: { $0.publicListCacheSeconds = 60 }) { a, b in
            let f = try await a.catalogFixture()
            let created = try await a.product(.init(title: "Linen shirt", category: f.tops, price: 49_900), in: f.storeA, owner: f.ownerA)
            let productID = try created.requireID()
            func price(on t: TestApp) async throws -> Int {
                let response = try await t.send(.GET, "/api/v1/products/\(productID.uuidString.lowercased())")
                #expect(response.status == .ok, "\(response.body.string)")
                return try response.content.decode(ProductBody.self).price.amount
            }
            #expect(try await price(on: a) == 49_900)
            // A change nobody announces is not seen on A: its answer is kept.
            let sql = a.app.db.sql
            try await sql.raw("UPDATE products SET price_minor = 45000 WHERE id = \(bind: productID)").run()
            #expect(try await price(on: a) == 49_900)

            // The owner edits the price through instance B (what its PUT handler runs).
            let owner = try #require(try await User.find(UUID(uuidString: f.ownerA.user.id), on: b.app.db))
            let product = try #require(try await Product.find(productID, on: b.app.db))
            let products = ProductService(db: b.app.db, core: b.app.core, catalogChanges: b.app.atelier.catalogChanges, catalogIndexing: b.app.atelier.catalogIndexing, mediaLibrary: b.app.atelier.media)
            var draft = try await products.draft(of: product)
            draft.priceMinor = 59_900
            _ = try await products.replace(product, draft: draft, by: owner)

            // The cache's clock is frozen: without the announcement A would keep the old price for good.
            // (At once on real processes: tests/cluster; ten seconds here, with the whole suite running.)
            let deadline = Date().addingTimeInterval(10)
            var seen = try await price(on: a)
            while seen != 59_900, Date() < deadline {
                try await Task.sleep(for: .milliseconds(5))
                seen = try await price(on: a)
            }
            #expect(seen == 59_900, "instance A still answers the price it kept")
            #expect(try await price(on: b) == 59_900)
        }
    }

    @Test("the listening connection killed by the server: the bus reconnects with backoff, the caches start afresh, and events flow again")
    func survivesKilledListener() async throws {
        try await Self.withTwo { a, b in
            let bus = try #require(a.app.atelier.cluster)
            let pid = try #require(bus.backendPID)
            let listens = bus.listens
            let generation = try #require(a.app.atelier.searchCache).generation
            let sql = a.app.db.sql
            let killed = try await sql.raw("SELECT pg_terminate_backend(\(bind: pid)) AS killed").first()?.decode(column: "killed", as: Bool.self)
            #expect(killed == true)

            #expect(await bus.waitForListens(atLeast: listens + 1, timeout: .seconds(5)), "listening again within 5 s")
            #expect(bus.backendPID != nil && bus.backendPID != pid)
            #expect(try #require(a.app.atelier.searchCache).generation > generation, "what was said while it was deaf is unknown: the caches start afresh")

            let channel = LiveChannel.moment(UUID())
            let onA = HubListener(a.app.atelier.live.hub, channel: channel)
            defer { onA.stop() }
            await b.app.atelier.live.publish(channel, event: "after", data: ["n": 1])
            #expect(await onA.waitFor(1).map(\.event) == ["after"])
        }
    }

    @Test("an installation on another schema hears nothing")
    func otherSchemaHearsNothing() async throws {
        try await Self.withTwo { a, b in
            try await TestApp.with { other in
                let busOther = try #require(other.app.atelier.cluster)
                #expect(busOther.channel != a.app.atelier.cluster?.channel)
                let channel = LiveChannel.moment(UUID())
                let onA = HubListener(a.app.atelier.live.hub, channel: channel)
                let onOther = HubListener(other.app.atelier.live.hub, channel: channel)
                defer { onA.stop(); onOther.stop() }
                await b.app.atelier.live.publish(channel, event: "ours", data: ["n": 1])
                #expect(await onA.waitFor(1).count == 1)
                try await Task.sleep(for: .milliseconds(300))
                #expect(onOther.messages.isEmpty)
            }
        }
    }
}
