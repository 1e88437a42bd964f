import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOSSL
import Vapor

/// The push channels this instance can send through, built from the configuration. A channel
/// that is not configured leaves its deliveries failed with that reason, visible to admins.
final class PushChannels: Sendable {
    let apns: (any PushSender)?
    let webPush: WebPushClient?
    let fcm: FCMClient?
    private let http: HTTPClient?
    /// Senders put in place of the configured ones (tests' recording fakes).
    private let replaced = NIOLockedValueBox<[String: any PushSender]>([:])

    init(config: AppConfig, clock: any AppClock) throws {
        guard config.apns.isConfigured || config.webPush.isConfigured || config.fcm.isConfigured else {
            (apns, webPush, fcm, http) = (nil, nil, nil, nil)
            return
        }
        // Parsed before the client exists: a bad key file must not leave a client running. The message
        // names the variable and the field at fault, never the file's contents (it holds a private key).
        let fcmAccount: FCMServiceAccount?
        do {
            fcmAccount = try config.fcm.serviceAccountJSON.map { try FCMServiceAccount(json: $0) }
        } catch {
            throw ConfigError.invalid(config.fcm.sourceVariable, FCMServiceAccount.describe(error))
        }
        // Keys and roots are read before the client exists too: one that does not load stops start-up
        // without leaving a client that was never shut down.
        var tls = TLSConfiguration.makeClientConfiguration()
        if let roots = config.apns.trustedRootsPEM {
            tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(roots.utf8)))]
        }
        let settings = config.apns
        let apnsToken = try settings.teamID.flatMap { teamID in
            try settings.keyID.flatMap { keyID in
                try settings.privateKeyPEM.map { try APNSProviderToken(teamID: teamID, keyID: keyID, privateKeyPEM: $0, clock: clock) }
            }
        }
        let vapid = try config.webPush.vapidPrivateKeyPEM.map { try VAPIDSigner(privateKeyPEM: $0, subject: config.webPush.subject, clock: clock) }
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
        self.http = http
        apns = apnsToken.map { APNSClient(http: http, token: $0, baseURL: settings.baseURL, defaultTopic: settings.topic) }
        webPush = vapid.map { WebPushClient(http: http, vapid: $0) }
        do {
            fcm = try fcmAccount.map {
                FCMClient(http: http, token: try FCMAccessToken(account: $0, http: http, clock: clock), projectID: $0.projectID, baseURL: config.fcm.baseURL)
            }
        } catch {
            try? http.syncShutdown()
            throw error
        }
    }

    func sender(for platform: String) -> (any PushSender)? {
        if let sender = replaced.withLockedValue({ $0[platform] }) { return sender }
        switch platform {
        case "apns": return apns
        case "webpush": return webPush
        case "fcm": return fcm
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
