import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where file uploads run. On iOS each upload goes through a background `URLSession`, so the system
/// keeps sending a photo or a PDF while the app is in the background or suspended; the app's
/// delegate passes the system's wake-up to `handleEvents(forIdentifier:completion:)`:
///
///     func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
///                      completionHandler: @escaping () -> Void) {
///         BackgroundUploads.handleEvents(forIdentifier: identifier, completion: completionHandler)
///     }
///
/// Elsewhere (macOS, Linux) uploads use an ephemeral session. If the app is terminated while an
/// upload is on its way, the server may still get it, but the app never learns the answer: the
/// person uploads again. Not compiled on Linux, where this repository's CI runs (iOS only).
public enum BackgroundUploads {
    /// Prefix of the background sessions' identifiers.
    public static let identifierPrefix = "app.atelier.kit.upload."

    private static let lock = NSLock()
    nonisolated(unsafe) private static var waiting: [String: @Sendable () -> Void] = [:]
    /// The background sessions this process has open.
    nonisolated(unsafe) private static var open: Set<String> = []

    static func opened(_ identifier: String?) {
        guard let identifier else { return }
        lock.withLock { _ = open.insert(identifier) }
    }

    static func closed(_ identifier: String?) {
        guard let identifier else { return }
        lock.withLock { _ = open.remove(identifier) }
    }

    /// The configuration of one upload's session.
    static func configuration() -> URLSessionConfiguration {
        #if os(iOS)
        let configuration = URLSessionConfiguration.background(withIdentifier: identifierPrefix + UUID().uuidString.lowercased())
        configuration.sessionSendsLaunchEvents = true
        configuration.isDiscretionary = false
        return configuration
        #else
        return .ephemeral
        #endif
    }

    /// Keeps the system's completion handler until the session of `identifier` has delivered its
    /// events (`finishedEvents(forIdentifier:)`). A session this process no longer has (the app
    /// was terminated and relaunched) is opened again only to take its events and end.
    public static func handleEvents(forIdentifier identifier: String, completion: @escaping @Sendable () -> Void) {
        guard identifier.hasPrefix(identifierPrefix) else { return }
        let alive = lock.withLock { () -> Bool in
            waiting[identifier] = completion
            return open.contains(identifier)
        }
        #if os(iOS)
        if !alive {
            let orphan = URLSession(
                configuration: .background(withIdentifier: identifier), delegate: OrphanedUploads(), delegateQueue: nil)
            orphan.finishTasksAndInvalidate()
        }
        #else
        _ = alive
        #endif
    }

    /// Called by a session's delegate once it delivered everything the system held for it.
    static func finishedEvents(forIdentifier identifier: String?) {
        guard let identifier else { return }
        let completion = lock.withLock { waiting.removeValue(forKey: identifier) }
        guard let completion else { return }
        DispatchQueue.main.async { completion() }
    }
}

/// Takes the events of an upload whose caller is gone, so that the system's handler is called.
final class OrphanedUploads: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        BackgroundUploads.finishedEvents(forIdentifier: session.configuration.identifier)
    }
}
