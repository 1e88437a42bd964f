import AtelierAPI
import Foundation
import Observation

/// TSM's library: the issues kept on the phone, shown at once from the copy, then brought up to
/// date when the network allows. Offline, the copy stays on screen and `isOffline` says the last
/// sync could not reach the server.
@MainActor
@Observable
public final class LibraryScreen {
    public let library: MagazineLibrary
    public private(set) var issues: [MagazineLibrary.Issue] = []
    public private(set) var lastSyncedAt: Date?
    public private(set) var lastSync: MagazineLibrary.SyncReport?
    public private(set) var isOffline = false
    public let activity = ScreenActivity()

    public init(library: MagazineLibrary) {
        self.library = library
    }

    /// The copy as it is, then a sync, then the copy again.
    public func load() async {
        await showCopy()
        await sync()
    }

    public func sync() async {
        let report = await activity.run { [library] in try await library.sync() }
        if let report { lastSync = report }
        isOffline = report == nil && activity.error.map(RetryMiddleware.isConnectionFailure) == true
        await showCopy()
    }

    private func showCopy() async {
        issues = await library.issues()
        lastSyncedAt = await library.lastSyncedAt
    }
}
