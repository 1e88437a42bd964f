import Crypto
import Foundation

/// A push message encrypted for one browser (RFC 8291 on RFC 8188's `aes128gcm`): a one-off key
/// pair of ours agrees a secret with the subscription's public key, mixed with its auth secret,
/// from which a content key and nonce are drawn; the body is one record.
enum WebPushEncryption {
    enum Failure: Error { case badSubscriptionKey, badAuthSecret, tooLong }

    /// One record must hold the whole message: 4 096 bytes less the record's padding delimiter and tag.
    static let recordSize = 4096
    static let maxPlaintext = recordSize - 17

    /// `salt` and `senderKey` are drawn fresh for every message; tests pass RFC 8291's.
    static func encrypt(
        _ plaintext: Data, p256dh: Data, auth: Data,
        salt: Data = Data((0..<16).map { _ in UInt8.random(in: 0...255) }),
        senderKey: P256.KeyAgreement.PrivateKey = .init()
    ) throws -> Data {
        guard auth.count == 16 else { throw Failure.badAuthSecret }
        guard plaintext.count <= maxPlaintext else { throw Failure.tooLong }
        guard let receiver = try? P256.KeyAgreement.PublicKey(x963Representation: p256dh) else { throw Failure.badSubscriptionKey }
        let senderPublic = senderKey.publicKey.x963Representation
        let shared = try senderKey.sharedSecretFromKeyAgreement(with: receiver)

        // RFC 8291 §3.4: IKM from the ECDH secret, keyed by the auth secret, bound to both public keys.
        let keyInfo = Data("WebPush: info".utf8) + [0] + p256dh + senderPublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2–2.3: the content key and nonce from the salt.
        let prk = ikm.withUnsafeBytes { HKDF<SHA256>.extract(inputKeyMaterial: SymmetricKey(data: $0), salt: salt) }
        let cek = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)

        // The last (only) record ends with the delimiter 2 and no padding.
        let sealed = try AES.GCM.seal(plaintext + [2], using: cek, nonce: try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
        var header = salt
        header.append(contentsOf: withUnsafeBytes(of: UInt32(recordSize).bigEndian, Array.init))
        header.append(UInt8(senderPublic.count))
        header.append(senderPublic)
        return header + sealed.ciphertext + sealed.tag
    }
}
