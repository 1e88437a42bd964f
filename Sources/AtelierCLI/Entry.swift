import Atelier
import Foundation
import Vapor

@main
enum Entry {
    static func main() async {
        do {
            try await run()
        } catch {
            // Already reported (by the command or below); a failed command is an exit status,
            // not a crash with a backtrace.
            exit(1)
        }
    }

    static func run() async throws {
        if try await OfflineCommands.runIfOffline(Array(CommandLine.arguments.dropFirst())) { return }
        var env = try Environment.detect()
        let config = try AppConfig.fromEnvironment(ServeFlags.environment(ProcessInfo.processInfo.environment, arguments: CommandLine.arguments))
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
