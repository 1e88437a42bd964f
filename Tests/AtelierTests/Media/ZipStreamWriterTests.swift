import Foundation
import NIOCore
import Testing
import VaporTesting
import ZIPFoundation

@testable import Atelier

@Suite("Streaming zip writer")
struct ZipStreamWriterTests {
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let data: [UInt8]
        let chunkSize: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            var remaining: ArraySlice<UInt8>
            let chunkSize: Int
            mutating func next() async -> ByteBuffer? {
                guard !remaining.isEmpty else { return nil }
                let chunk = remaining.prefix(chunkSize)
                remaining = remaining.dropFirst(chunkSize)
                return ByteBuffer(bytes: chunk)
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: data[...], chunkSize: chunkSize) }
    }

    final class Collector: @unchecked Sendable {
        var data = Data()
        var writes = 0
    }

    func archive(zip64Threshold: UInt64 = 0xFFFF_FFFF, files: [(String, [UInt8])]) async throws -> (Data, Int) {
        let collector = Collector()
        var writer = ZipStreamWriter(zip64Threshold: zip64Threshold) { buffer in
            collector.data.append(contentsOf: buffer.readableBytesView)
            collector.writes += 1
        }
        var writesBeforeFinish = 0
        for (name, bytes) in files {
            try await writer.addEntry(name: name, modified: Date(timeIntervalSince1970: 1_800_000_000), content: Chunks(data: bytes, chunkSize: 4096))
            writesBeforeFinish = collector.writes
        }
        try await writer.finish()
        return (collector.data, writesBeforeFinish)
    }

    func read(_ data: Data) throws -> [String: Data] {
        let archive = try Archive(data: data, accessMode: .read)
        var files: [String: Data] = [:]
        for entry in archive {
            var content = Data()
            _ = try archive.extract(entry) { content.append($0) }  // checks the CRC
            files[entry.path] = content
        }
        return files
    }

    @Test("an archive written in pieces reads back whole, with its CRCs")
    func roundTrip() async throws {
        let photo = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let (data, writesBeforeFinish) = try await archive(files: [("album/one.jpg", photo), ("album/två.jpg", [1, 2, 3]), ("empty.txt", [])])
        #expect(writesBeforeFinish > 20, "the archive must be written while entries stream, not at the end")
        let files = try read(data)
        #expect(files["album/one.jpg"] == Data(photo))
        #expect(files["album/två.jpg"] == Data([1, 2, 3]))
        #expect(files["empty.txt"] == Data())
    }

    @Test("Zip64 records are written when offsets pass the limit, and readers accept them")
    func zip64() async throws {
        let (data, _) = try await archive(zip64Threshold: 1000, files: [("a.bin", Array(repeating: 7, count: 3000)), ("b.bin", [9, 9])])
        let files = try read(data)
        #expect(files["a.bin"]?.count == 3000 && files["b.bin"] == Data([9, 9]))
        #expect(data.range(of: Data([0x50, 0x4B, 0x06, 0x06])) != nil, "Zip64 end record present")
    }

    @Test("CRC-32 matches the standard check value")
    func crc() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}

@Suite("Album zips from the media store")
struct AlbumZipTests {
    @Test("originals stream from the store into a zip that reads back byte for byte")
    func albumFromStore() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            var originals: [String: Data] = [:]
            for (index, width) in [320, 480].enumerated() {
                let upload = try await t.upload(try TestImages.png(width: width, height: 240), contentType: "image/png", token: s.accessToken)
                let media = try #require(try await Media.find(UUID(uuidString: try upload.content.decode(ImageBody.self).id), on: t.app.db))
                let fetched = try await t.fetch(t.app.atelier.media.signer.privateURL(key: media.originalKey, now: t.clock.now()))
                originals["photo-\(index).png"] = Data(buffer: fetched.body)
                originals["key-\(index)"] = Data(media.originalKey.utf8)
            }
            let collector = ZipStreamWriterTests.Collector()
            var writer = ZipStreamWriter { collector.data.append(contentsOf: $0.readableBytesView) }
            for index in 0..<2 {
                let key = String(decoding: originals["key-\(index)"]!, as: UTF8.self)
                try await writer.addEntry(name: "photo-\(index).png", modified: t.clock.now(), content: try await t.app.atelier.media.store.contents(key: key))
            }
            try await writer.finish()
            let files = try ZipStreamWriterTests().read(collector.data)
            #expect(files["photo-0.png"] == originals["photo-0.png"] && files["photo-1.png"] == originals["photo-1.png"])
        }
    }
}
