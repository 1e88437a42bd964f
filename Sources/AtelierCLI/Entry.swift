import Atelier
import Vapor

@main
enum Entry {
    static func main() async throws {
        var env = try Environment.detect()
        let config = try AppConfig.fromEnvironment()
        LoggingSetup.bootstrap(config: config, environment: &env)
        let app = try await Application.make(env)
        do {
            try await configure(app, config: config)
            Commands.register(app)
            try await app.execute()
        } catch {
            app.logger.report(error: error)
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}
