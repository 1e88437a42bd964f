import Fluent
import Foundation
import Vapor

/// The live channel of one signed-in client (`GET /api/v1/live` with a bearer token, or `/live`
/// from a web page with its session cookie), upgraded to a WebSocket.
///
/// The client's own inbox is subscribed from the start (`inbox`); other channels on request:
/// `{"type":"subscribe","channel":"moment:{id}"}` answers `subscribed`, or `refused` with a
/// status (404 for a moment the client may not see). Events arrive as
/// `{"type":"event","channel":…,"id":…,"event":"photo.created","data":{…}}`. After a reconnect,
/// `{"type":"subscribe","channel":…,"since":"<the last event id it got>"}` sends what was missed first.
enum LiveSocket {
    static let maxChannels = 50
    /// Seconds between checks that a subscriber may still see a channel.
    static let recheck: TimeInterval = 30

    /// Answers the upgrade for `user` (already authenticated by the route).
    static func upgrade(_ req: Request, user: User) -> Response {
        let response = Response(status: .switchingProtocols)
        response.upgrader = WebSocketUpgrader(
            maxFrameSize: .default, shouldUpgrade: { req.eventLoop.makeSucceededFuture([:]) },
            onUpgrade: { ws in
                let connection = LiveConnection(
                    socket: ws, userID: user.id!, db: req.application.db, core: req.application.core, live: req.application.atelier.live, liveAccess: req.application.atelier.liveAccess)
                ws.pingInterval = .seconds(25)
                let sockets = req.application.atelier.liveSockets
                sockets.add(ws)
                ws.onText { _, text in await connection.received(text) }
                ws.onClose.whenComplete { _ in
                    sockets.remove(ws)
                    Task { await connection.close() }
                }
                Task { await connection.start() }
            })
        return response
    }
}


actor LiveConnection {
    private let socket: WebSocket
    private let userID: UUID
    private let db: any Database
    let core: CoreServices
    let live: LiveUpdates
    let liveAccess: LiveChannelAccess
    /// Client-facing channel name → the forwarding task.
    private var subscriptions: [String: Task<Void, Never>] = [:]

    init(socket: WebSocket, userID: UUID, db: any Database, core: CoreServices, live: LiveUpdates, liveAccess: LiveChannelAccess) {
        self.socket = socket
        self.userID = userID
        self.db = db
        self.core = core
        self.live = live
        self.liveAccess = liveAccess
    }

    func start() async {
        listen(as: "inbox", to: LiveChannel.inbox(userID))
        await send(["type": "ready", "channels": ["inbox"]])
    }

    func received(_ text: String) async {
        struct Command: Decodable { var type: String; var channel: String?; var since: String? }
        guard let command = try? JSONDecoder().decode(Command.self, from: Data(text.utf8)) else {
            return await send(["type": "error", "detail": "Send JSON: {\"type\":\"subscribe\",\"channel\":\"moment:<id>\"}."])
        }
        switch (command.type, command.channel) {
        case ("ping", _):
            await send(["type": "pong"])
        case ("subscribe", let channel?):
            if subscriptions[channel] != nil { return await send(["type": "subscribed", "channel": channel]) }
            guard subscriptions.count < LiveSocket.maxChannels else {
                return await send(["type": "refused", "channel": channel, "status": 429, "detail": "At most \(LiveSocket.maxChannels) channels per connection."])
            }
            if let status = await liveAccess.refusal(channel, userID: userID, db: db) {
                let detail = status == 404 ? "No such channel, or you may not see it." : "Unknown channel; use moment:<id>."
                return await send(["type": "refused", "channel": channel, "status": status, "detail": detail])
            }
            // The access check awaited; another subscribe of the same channel may have won meanwhile.
            if subscriptions[channel] == nil {
                listen(as: channel, to: LiveChannel.canonical(channel), since: command.since.flatMap(UUID.init(uuidString:)))
            }
            await send(["type": "subscribed", "channel": channel])
        case ("unsubscribe", let channel?):
            subscriptions.removeValue(forKey: channel)?.cancel()
            await send(["type": "unsubscribed", "channel": channel])
        default:
            await send(["type": "error", "detail": "Unknown command; use subscribe, unsubscribe or ping."])
        }
    }

    func close() {
        for task in subscriptions.values { task.cancel() }
        subscriptions.removeAll()
    }

    /// Forwards the channel's events. Access was checked when subscribing; it is checked again
    /// at most every `LiveSocket.recheck` seconds as events arrive (a block, a deleted moment),
    /// and events caused by people blocked either way are not passed on. `since`: the last event
    /// the client got before it lost its connection; what came after is sent first, once each
    /// (or `replay-incomplete` when it is no longer kept).
    private func listen(as name: String, to channel: String, since: UUID? = nil) {
        let (_, events) = live.hub.subscribe(channel)
        let (socket, userID, db, live, liveAccess) = (self.socket, self.userID, self.db, self.live, self.liveAccess)
        let checksAccess = name != "inbox"
        subscriptions[name] = Task {
            var checkedAt = Date()
            var replayed = Set<UUID>()
            if let since {
                if let missed = live.hub.missed(channel, after: since) {
                    for message in missed {
                        if let actor = message.actorID, actor != userID,
                            await liveAccess.hides(actor, from: userID, db: db) { continue }
                        if let id = message.id { replayed.insert(id) }
                        try? await socket.send(Self.frame(name, message))
                    }
                } else {
                    try? await socket.send("{\"type\":\"replay-incomplete\",\"channel\":\(Self.quoted(name))}")
                }
            }
            for await message in events {
                if let id = message.id, replayed.remove(id) != nil { continue }
                if Date().timeIntervalSince(checkedAt) > LiveSocket.recheck {
                    checkedAt = Date()
                    if checksAccess, let status = await liveAccess.refusal(channel, userID: userID, db: db) {
                        try? await socket.send("{\"type\":\"revoked\",\"channel\":\(Self.quoted(name)),\"status\":\(status)}")
                        return
                    }
                }
                if let actor = message.actorID, actor != userID,
                    await liveAccess.hides(actor, from: userID, db: db) { continue }
                try? await socket.send(Self.frame(name, message))
            }
        }
    }

    private static func frame(_ name: String, _ message: LiveMessage) -> String {
        let id = message.id.map { ",\"id\":\(quoted($0.idString))" } ?? ""
        return "{\"type\":\"event\",\"channel\":\(quoted(name))\(id),\"event\":\(quoted(message.event)),\"data\":\(message.data)}"
    }

    private func send(_ object: [String: Any]) async {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        try? await socket.send(String(decoding: data, as: UTF8.self))
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}

/// `GET /api/v1/live` (bearer token, for the apps) and `GET /live` (session cookie, for web pages).
enum LiveRoutes {
    static func register(api app: Application) {
        app.get("api", "v1", "live") { req async throws -> Response in
            try requireUpgrade(req)
            return LiveSocket.upgrade(req, user: try await req.requireCaller().user)
        }
    }

    static func register(web: any RoutesBuilder, publicBaseURL: String) {
        web.get("live") { req async throws -> Response in
            try requireUpgrade(req)
            // A cookie rides along on any site's WebSocket; only our own pages may open this one.
            guard let origin = req.headers.first(name: .origin), origin == publicBaseURL || origin == originOf(req) else {
                throw Problem(.forbidden, detail: "Live updates are only for Atelier's own pages.")
            }
            guard let user = req.webSessionUser else { throw Problem.unauthorized("Sign in first.") }
            return LiveSocket.upgrade(req, user: user)
        }
    }

    private static func requireUpgrade(_ req: Request) throws {
        guard req.headers[.upgrade].contains(where: { $0.lowercased() == "websocket" }) else {
            throw Problem(.upgradeRequired, detail: "This is a WebSocket endpoint; connect with a WebSocket client.",
                          headers: [("Upgrade", "websocket")])
        }
    }

    /// The origin a browser reports when the page came from this very host (e.g. a test server).
    private static func originOf(_ req: Request) -> String? {
        req.headers.first(name: .host).map { "http://\($0)" }
    }
}
