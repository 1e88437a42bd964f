import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOSSL
import Vapor

/// The push channels this instance can send through, built from the configuration. A channel
/// that is not configured leaves its deliveries failed with that reason, visible to admins.
final class PushChannels: Sendable {
    let apns: (any PushSender)?
    private let http: HTTPClient?
    /// Senders put in place of the configured ones (tests' recording fakes).
    private let replaced = NIOLockedValueBox<[String: any PushSender]>([:])

    init(config: AppConfig, clock: any AppClock) throws {
        let settings = config.apns
        guard settings.isConfigured, let teamID = settings.teamID, let keyID = settings.keyID, let key = settings.privateKeyPEM else {
            apns = nil
            http = nil
            return
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        if let roots = settings.trustedRootsPEM {
            tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(roots.utf8)))]
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.http = http
        apns = APNSClient(
            http: http, token: try APNSProviderToken(teamID: teamID, keyID: keyID, privateKeyPEM: key, clock: clock),
            baseURL: settings.baseURL, defaultTopic: settings.topic)
    }

    func sender(for platform: String) -> (any PushSender)? {
        if let sender = replaced.withLockedValue({ $0[platform] }) { return sender }
        switch platform {
        case "apns": return apns
        default: return nil
        }
    }

    /// Sends `platform`'s pushes through `sender` from now on.
    func use(_ sender: any PushSender, for platform: String) {
        replaced.withLockedValue { $0[platform] = sender }
    }

    /// Closes the channels' connections when the app stops.
    struct Shutdown: LifecycleHandler {
        func shutdownAsync(_ app: Application) async {
            try? await app.atelier.push.http?.shutdown()
        }
    }
}
