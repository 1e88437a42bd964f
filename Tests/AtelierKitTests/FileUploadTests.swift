import AtelierKit
import Foundation
import Testing

@testable import Atelier

@Suite("AtelierKit: uploads streamed from a file, with progress")
struct FileUploadTests {
    /// A file of `size` bytes that the server takes for a PDF (its header and end-of-file marker).
    static func pdfFile(size: Int) throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("kit-\(UUID().uuidString).pdf")
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let head = Data("%PDF-1.7\n".utf8), tail = Data("\n%%EOF\n".utf8)
        try handle.write(contentsOf: head)
        let chunk = Data(repeating: 0x20, count: 1 << 20)
        var left = size - head.count - tail.count
        while left > 0 {
            let part = chunk.prefix(left)
            try handle.write(contentsOf: part)
            left -= part.count
        }
        try handle.write(contentsOf: tail)
        return url
    }

    @Test("a 40 MB PDF edition goes up from its file: progress only grows and ends at the file's size; the issue then has it")
    func bigPDF() async throws {
        try await LiveServer.with { server in
            let session = try await MagazineEditingTests().session(server, editor: true)
            let number = Int.random(in: 100_000...9_999_999)
            let issue = try await session.magazineEditing.createIssue(number: number, labels: ["en": "Issue \(number)"])
            let size = 40 * 1024 * 1024
            let file = try Self.pdfFile(size: size)
            defer { try? FileManager.default.removeItem(at: file) }

            let upload = session.editor.uploadIssuePDF(file: file, issueId: issue.id, lang: "en")
            var seen: [Int64] = []
            for await sent in upload.progress { seen.append(sent) }
            let updated = try await upload.value
            #expect(updated.pdfs.additionalProperties["en"] != nil)
            #expect(seen.count > 1, "more than one progress event: \(seen.count)")
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }, "progress only grows")
            #expect(seen.last == Int64(size))
        }
    }

    @Test("a photo from a file, and the server's refusals as AtelierError: not an image is a 415, signed out is signedOut")
    func photoAndRefusals() async throws {
        try await LiveServer.with { server in
            let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Kit Uploads")
            let photo = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("kit-\(UUID().uuidString).jpg")
            try WardrobeDemoSeed.photo(type: "dress", colour: .navy, shape: 0).write(to: photo)
            defer { try? FileManager.default.removeItem(at: photo) }
            let image = try await session.media.uploadMedia(file: photo, contentType: "image/jpeg", query: .init(visibility: ._public)).value
            #expect(image.width > 0 && !image.variants.isEmpty)

            let pdf = try Self.pdfFile(size: 4096)
            defer { try? FileManager.default.removeItem(at: pdf) }
            await #expect { _ = try await session.media.uploadMedia(file: pdf, contentType: "image/jpeg").value } throws: { error in
                guard case AtelierError.rejected(let problem) = error, problem.status == 415 else { return false }
                return true
            }
            let visitor = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
            await #expect(throws: AtelierError.signedOut) { _ = try await visitor.media.uploadMedia(file: photo, contentType: "image/jpeg").value }
        }
    }
}
