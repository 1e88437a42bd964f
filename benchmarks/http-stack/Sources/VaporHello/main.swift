import Vapor

// Vapor as `vapor new` makes it (its default middleware: route logging, errors), logging at warning
// so that no request writes a line (Atelier logs none either). PORT from the environment.
struct Health: Content { var status: String }

let app = try await Application.make(.production)
app.logger.logLevel = .warning
app.http.server.configuration.hostname = "127.0.0.1"
app.http.server.configuration.port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "8091") ?? 8091
app.get("health") { _ in Health(status: "ok") }
try await app.execute()
try await app.asyncShutdown()
