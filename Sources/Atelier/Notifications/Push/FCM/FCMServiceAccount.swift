import Foundation
import JWTKit

/// The parts of a Google service account key file (the JSON the Firebase console gives) that FCM
/// needs: the project to send for, and the identity and RSA key that sign the OAuth assertion.
struct FCMServiceAccount: Sendable {
    var projectID: String
    var clientEmail: String
    var privateKeyPEM: String
    var privateKeyID: String
    var tokenURI: String

    /// What is wrong with a key file. Descriptions name fields, never their values: the file holds a private key.
    enum Problem: Error, CustomStringConvertible {
        case notJSON
        case notServiceAccount
        case missing(String)
        case unusable(String)

        var description: String {
            switch self {
            case .notJSON: "not a service account's JSON"
            case .notServiceAccount: "its type is not service_account"
            case .missing(let field): "the JSON has no \(field)"
            case .unusable(let field): "its \(field) is not usable"
            }
        }
    }

    /// What to say about a key file that did not parse.
    static func describe(_ error: any Error) -> String {
        (error as? Problem)?.description ?? "not a usable service account"
    }

    private struct KeyFile: Decodable {
        var type: String?
        var projectID: String?
        var clientEmail: String?
        var privateKey: String?
        var privateKeyID: String?
        var tokenURI: String?

        enum CodingKeys: String, CodingKey {
            case type
            case projectID = "project_id"
            case clientEmail = "client_email"
            case privateKey = "private_key"
            case privateKeyID = "private_key_id"
            case tokenURI = "token_uri"
        }
    }

    init(json: String) throws {
        guard let file = try? JSONDecoder().decode(KeyFile.self, from: Data(json.utf8)) else { throw Problem.notJSON }
        if let type = file.type, type != "service_account" { throw Problem.notServiceAccount }
        func required(_ value: String?, _ field: String) throws -> String {
            guard let value, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw Problem.missing(field) }
            return value
        }
        projectID = try required(file.projectID, "project_id")
        clientEmail = try required(file.clientEmail, "client_email")
        privateKeyPEM = try required(file.privateKey, "private_key")
        privateKeyID = try required(file.privateKeyID, "private_key_id")
        tokenURI = try required(file.tokenURI, "token_uri")
        // The id goes into the send URL's path; Google's are lower-case letters, digits and hyphens
        // (older ones may carry a `domain:` prefix).
        guard projectID.count <= 100, projectID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:".contains($0)) }) else {
            throw Problem.unusable("project_id")
        }
        // The assertion is a credential: it only goes to an https endpoint.
        guard let url = URL(string: tokenURI), url.scheme?.lowercased() == "https", url.host?.isEmpty == false else {
            throw Problem.unusable("token_uri")
        }
        guard (try? Insecure.RSA.PrivateKey(pem: privateKeyPEM)) != nil else { throw Problem.unusable("private_key") }
    }
}

/// jwt-kit's RSA key, named without `Insecure` (files that also see swift-crypto find that name twice).
typealias RSASigningKey = Insecure.RSA.PrivateKey
typealias RSAVerifyingKey = Insecure.RSA.PublicKey
