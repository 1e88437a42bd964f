import Crypto
import Foundation
import Testing

@testable import Atelier

/// A browser's side of RFC 8291: reads a push body with the subscription's private key.
enum BrowserPushInbox {
    struct Unreadable: Error {}

    static func decrypt(_ body: Data, privateKey: P256.KeyAgreement.PrivateKey, auth: Data) throws -> Data {
        let body = [UInt8](body)
        guard body.count > 21 else { throw Unreadable() }
        let salt = Data(body[0..<16])
        let idLength = Int(body[20])
        let senderPublic = Data(body[21..<(21 + idLength)])
        let sender = try P256.KeyAgreement.PublicKey(x963Representation: senderPublic)
        let shared = try privateKey.sharedSecretFromKeyAgreement(with: sender)
        let info = Data("WebPush: info".utf8) + [0] + privateKey.publicKey.x963Representation + senderPublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: info, outputByteCount: 32)
        let cek = ikm.withUnsafeBytes {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: $0), salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        }
        let nonce = ikm.withUnsafeBytes {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: $0), salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        }
        let record = Data(body[(21 + idLength)...])
        let box = try AES.GCM.SealedBox(
            nonce: try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }), ciphertext: record.dropLast(16), tag: record.suffix(16))
        var padded = try AES.GCM.open(box, using: cek)
        // Strip the padding: zeros, then the delimiter (2 for the last record).
        while padded.last == 0 { padded.removeLast() }
        guard padded.last == 2 else { throw Unreadable() }
        return padded.dropLast()
    }
}

@Suite("Notifications: Web Push encryption (RFC 8291)")
struct WebPushEncryptionTests {
    func bytes(_ text: String) -> Data { Base64URL.bytes(text, maxLength: 1000)! }

    @Test("RFC 8291's worked example (Appendix A) comes out byte for byte")
    func rfcExample() throws {
        let body = try WebPushEncryption.encrypt(
            Data("When I grow up, I want to be a watermelon".utf8),
            p256dh: bytes("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
            auth: bytes("BTBZMqHH6r4Tts7J_aSIgg"), salt: bytes("DGv6ra1nlYgDCS1FRnbzlw"),
            senderKey: try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")))
        #expect(Base64URL.encode(body) == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
        // The browser of the example reads it.
        let browser = try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"))
        #expect(String(decoding: try BrowserPushInbox.decrypt(body, privateKey: browser, auth: bytes("BTBZMqHH6r4Tts7J_aSIgg")), as: UTF8.self)
            == "When I grow up, I want to be a watermelon")
    }

    @Test("a fresh body (random salt and key) decrypts with the subscription's private key and not with another's; bad keys are refused")
    func roundTrip() throws {
        let browser = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let message = Data(#"{"text":"Ana reacted to your outfit.","link":"atelier://posts/1"}"#.utf8)
        let first = try WebPushEncryption.encrypt(message, p256dh: browser.publicKey.x963Representation, auth: auth)
        let second = try WebPushEncryption.encrypt(message, p256dh: browser.publicKey.x963Representation, auth: auth)
        #expect(first != second, "each message has its own salt and key")
        #expect(try BrowserPushInbox.decrypt(first, privateKey: browser, auth: auth) == message)
        #expect(throws: (any Error).self) { try BrowserPushInbox.decrypt(first, privateKey: P256.KeyAgreement.PrivateKey(), auth: auth) }
        #expect(throws: WebPushEncryption.Failure.badSubscriptionKey) {
            try WebPushEncryption.encrypt(message, p256dh: Data(repeating: 4, count: 65), auth: auth)
        }
        #expect(throws: WebPushEncryption.Failure.badAuthSecret) {
            try WebPushEncryption.encrypt(message, p256dh: browser.publicKey.x963Representation, auth: Data(count: 8))
        }
    }
}
