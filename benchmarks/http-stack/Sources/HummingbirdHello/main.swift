import Foundation
import Hummingbird

// Hummingbird 2 with its defaults (no middleware). PORT from the environment.
struct Health: ResponseEncodable { var status: String }

let router = Router()
router.get("health") { _, _ in Health(status: "ok") }
let port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "8092") ?? 8092
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
