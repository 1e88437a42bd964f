import Fluent
import Foundation
import Testing
import VaporTesting
import ZIPFoundation

@testable import Atelier

@Suite("Moments: the album as a zip")
struct MomentAlbumZipTests {
    @Test("the zip of a 200-photo album holds every original, byte for byte, oldest first")
    func twoHundredPhotos() async throws {
        try await TestApp.with { t in
            var ana = try await t.signUp(name: "Host Ana")
            let moment = try await t.createMoment(ana, startIn: -60, endIn: 24 * 3600)
            var photoIDs: [String] = []
            for index in 0..<200 {
                // Distinct sizes, so every original is a different file.
                let media = try await t.uploadPhoto(token: ana.accessToken, width: 64 + index % 50, height: 64 + index / 50)
                let response = try await t.send(.POST, "/api/v1/moments/\(moment.id)/photos", json: #"{"mediaId":"\#(media)"}"#, token: ana.accessToken)
                #expect(response.status == .created)
                photoIDs.append(try response.content.decode(MomentPhotoBody.self).id)
                t.clock.advance(by: 1)
                if index % 100 == 99 { ana = try await t.refreshed(ana) }
            }
            let response = try await t.send(.GET, "/api/v1/moments/\(moment.id)/album.zip", token: ana.accessToken)
            #expect(response.status == .ok)
            #expect(response.headers.contentType?.description.hasPrefix("application/zip") == true)
            #expect(response.headers.first(name: .contentDisposition)?.contains("dana-s-birthday-album.zip") == true)

            let archive = try Archive(data: Data(response.body.readableBytesView), accessMode: .read)
            let entries = Array(archive)
            #expect(entries.count == 200)
            for (entry, photoID) in zip(entries, photoIDs) {
                let photo = try #require(try await MomentPhoto.find(UUID(uuidString: photoID), on: t.app.db))
                let media = try #require(try await Media.find(photo.mediaID, on: t.app.db))
                var stored = Data()
                for try await var chunk in try await t.app.atelier.media.store.contents(key: media.originalKey) {
                    stored.append(contentsOf: chunk.readBytes(length: chunk.readableBytes) ?? [])
                }
                var unzipped = Data()
                _ = try archive.extract(entry, skipCRC32: false) { unzipped.append($0) }
                #expect(unzipped == stored, "\(entry.path)")
                #expect(entry.path.contains(String(photoID.lowercased().suffix(12))), "\(entry.path)")
            }
        }
    }

    @Test("an album named \"Ziua lui Ștefan\" saves as ziua-lui-ștefan-album.zip: Content-Disposition per RFC 6266")
    func nonASCIIFileName() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Host Ana")
            let moment = try await t.createMoment(ana, name: "Ziua lui Ștefan", startIn: -60, endIn: 24 * 3600)
            let media = try await t.uploadPhoto(token: ana.accessToken, width: 80, height: 80)
            let added = try await t.send(.POST, "/api/v1/moments/\(moment.id)/photos", json: #"{"mediaId":"\#(media)"}"#, token: ana.accessToken)
            #expect(added.status == .created)
            let response = try await t.send(.GET, "/api/v1/moments/\(moment.id)/album.zip", token: ana.accessToken)
            #expect(response.status == .ok)
            let header = try #require(response.headers.first(name: .contentDisposition))
            let ascii = header.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(ascii, "a header value is ASCII: \(header)")
            let disposition = RFC6266Disposition(header)
            #expect(disposition.type == "attachment", "\(header)")
            // RFC 6266 §4.3: filename* wins where understood; filename is the stand-in for the rest.
            #expect(disposition.parameters["filename*"] == "UTF-8''ziua-lui-%C8%99tefan-album.zip", "\(header)")
            #expect(disposition.extendedFileName == "ziua-lui-ștefan-album.zip")
            #expect(disposition.parameters["filename"] == "ziua-lui-stefan-album.zip", "\(header)")

            let plain = try await t.createMoment(ana, name: "Dana's birthday", startIn: -60, endIn: 24 * 3600)
            let plainHeader = try await t.send(.GET, "/api/v1/moments/\(plain.id)/album.zip", token: ana.accessToken)
                .headers.first(name: .contentDisposition)
            #expect(plainHeader == #"attachment; filename="dana-s-birthday-album.zip""#)
        }
    }

    @Test("the producer waits for the reader: at most one chunk is ever ahead")
    func pulledBytesBackpressure() async throws {
        let produced = ManagedCounter()
        let bytes = PulledBytes { send in
            for index in 0..<1000 {
                try await send(ArraySlice([UInt8(index % 256)]))
                produced.increment()
            }
        }
        var iterator = bytes.makeAsyncIterator()
        for expected in 0..<10 {
            let chunk = try await iterator.next()
            #expect(chunk == ArraySlice([UInt8(expected)]))
            try await Task.sleep(nanoseconds: 5_000_000)
            #expect(produced.value <= expected + 1, "the producer ran ahead: \(produced.value) after \(expected + 1) reads")
        }
    }
}

final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

/// A `Content-Disposition` value read as RFC 6266 says: a type, then `;`-separated parameters
/// whose values are tokens or quoted strings; `filename*` is RFC 8187's `charset'lang'pct-encoded`.
struct RFC6266Disposition {
    var type = ""
    var parameters: [String: String] = [:]

    init(_ value: String) {
        var parts: [String] = []
        var current = "", quoted = false
        for character in value {
            if character == "\"" { quoted.toggle() }
            if character == ";" && !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        type = parts.first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let name = part[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var raw = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if raw.hasPrefix("\""), raw.hasSuffix("\""), raw.count >= 2 { raw = String(raw.dropFirst().dropLast()) }
            parameters[name] = raw
        }
    }

    /// `filename*` decoded (UTF-8 only, as RFC 8187 requires senders to use).
    var extendedFileName: String? {
        guard let value = parameters["filename*"], value.lowercased().hasPrefix("utf-8''") else { return nil }
        return String(value.dropFirst(7)).removingPercentEncoding
    }
}
