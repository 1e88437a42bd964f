import Foundation
import Testing

@testable import Atelier

@Suite("Live: the events a reconnecting client missed")
struct LiveReplayTests {
    func message(_ n: Int, on channel: String = "moment:a") -> LiveMessage {
        LiveMessage(channel: channel, event: "photo.created", data: #"{"n":\#(n)}"#, actorID: nil, id: .v7())
    }

    @Test("after a kept event: the later ones of that channel, in order; after one no longer kept (or too old): nil")
    func missed() {
        let hub = LiveHub()
        let events = (1...4).map { message($0) }
        for event in events { hub.deliver(event) }
        hub.deliver(message(9, on: "moment:b"))
        hub.deliver(LiveMessage(channel: "moment:a", event: "photo.created", data: "{}", actorID: nil))  // no id: not kept
        #expect(hub.missed("moment:a", after: events[1].id!) == Array(events[2...]))
        #expect(hub.missed("moment:a", after: events[3].id!) == [])
        #expect(hub.missed("moment:a", after: UUID()) == nil, "an id the hub never kept")
        #expect(hub.missed("moment:a", after: events[0].id!, now: Date().addingTimeInterval(LiveHub.replayWindow + 1)) == nil, "older than the window")
    }

    @Test("a channel keeps at most replayLimit events")
    func limit() {
        let hub = LiveHub()
        let events = (0..<(LiveHub.replayLimit + 10)).map { message($0) }
        for event in events { hub.deliver(event) }
        #expect(hub.missed("moment:a", after: events[5].id!) == nil, "pushed out")
        #expect(hub.missed("moment:a", after: events[20].id!)?.count == LiveHub.replayLimit + 10 - 21)
    }
}
