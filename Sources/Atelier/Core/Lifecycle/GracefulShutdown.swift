import Vapor

/// Shutdown in the order that loses nothing (operations.md): stop accepting, let requests in
/// flight finish (uploads, album downloads: streams too) within `SHUTDOWN_DRAIN_SECONDS`, then
/// stop the background loops and the worker threads, and close the database pool last.
///
/// Vapor runs lifecycle handlers' shutdowns in reverse order of registration, before it stops the
/// HTTP server (that happens when its storage is cleared). Left alone, the database pool would
/// close under requests still running. So `configure` registers this handler last: its shutdown
/// runs first and drains the server; Vapor's own server shutdown later finds nothing to do.
///
/// First `/health/ready` answers 503 for `READY_GRACE_SECONDS`, so a load balancer checking it
/// stops sending new requests before the listener closes. Live WebSockets never end by themselves:
/// they are closed (1012, service restart) while the server drains, so clients reconnect elsewhere
/// at once and the drain does not wait for them.
struct RequestDrain: LifecycleHandler {
    /// Closes the connections that never end by themselves (the live WebSockets).
    let closeLongLived: @Sendable () async -> Void

    func shutdownAsync(_ app: Application) async {
        app.core.draining.withLockedValue { $0 = true }
        let grace = app.core.config.readyGraceSeconds
        if grace > 0 { try? await Task.sleep(for: .seconds(grace)) }
        async let drained: Void = app.server.shutdown()
        await closeLongLived()
        await drained
    }
}

/// Stops the threads Atelier starts itself (images, file work, password hashing) after the
/// requests that use them have drained. `domainThreads`: the domains' own (the media's workers), from
/// the composition root.
struct OwnedThreadsShutdown: LifecycleHandler {
    let domainThreads: @Sendable () async -> Void

    func shutdownAsync(_ app: Application) async {
        await domainThreads()
        await app.core.passwordHasher.shutdown()
        await app.core.sqliteReads?.close()
        await app.core.sqliteWriter?.close()
    }
}
