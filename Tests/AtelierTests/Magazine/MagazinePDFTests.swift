import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Magazine: PDF editions")
struct MagazinePDFTests {
    static let pdf = Data("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)

    @Test("a PDF is checked by its bytes, stored, and offered to readers per language; anything else changes nothing")
    func pdfEditions() async throws {
        try await TestApp.with { t in
            let editor = try await t.signUp(name: "Editor Eva")
            let author = try await t.editor.createAuthor(name: "Ioana Marin", bios: ["en": "Editor."])
            let (issue, _) = try await t.publishedIssue(1, titles: [("Wool", nil)], by: author)
            let pdfs = MagazinePDFs(db: t.app.db, core: t.app.core, mediaLibrary: t.app.atelier.media)
            let uploader = try #require(UUID(uuidString: editor.user.id))

            // A PNG called a PDF, and a PDF without its end marker, are refused.
            for bad in [try TestImages.png(width: 64, height: 64), Data("%PDF-1.4\nno end".utf8)] {
                await #expect(throws: Problem.self) { try await pdfs.attach(bad, lang: "en", to: issue, uploaderID: uploader) }
            }
            let tooBig = Data("%PDF-".utf8) + Data(count: MagazinePDFs.maxBytes) + Data("%%EOF".utf8)
            do {
                try await pdfs.attach(tooBig, lang: "en", to: issue, uploaderID: uploader)
                Issue.record("a PDF over 50 MB was accepted")
            } catch let problem as Problem {
                #expect(problem.status == .payloadTooLarge)
            }
            await #expect(throws: Problem.self) { try await pdfs.attach(Self.pdf, lang: "xx", to: issue, uploaderID: uploader) }
            #expect(try await MagazineIssue.find(issue.id, on: t.app.db)?.pdfs.isEmpty == true)

            try await pdfs.attach(Self.pdf, lang: "en", to: issue, uploaderID: uploader)
            let body = try await t.send(.GET, "/api/v1/magazine/issues/\(issue.id!)?lang=ro").body.string
            let raw = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            let url = try #require(raw?["pdfUrl"] as? String, "\(body)")
            let file = try await t.send(.GET, String(url.dropFirst("http://atelier.test".count)))
            #expect(file.status == .ok)
            #expect(file.headers.contentType?.description.hasPrefix("application/pdf") == true)
            #expect(Data(file.body.readableBytesView) == Self.pdf)
            // The reader's issue page links it.
            #expect(try await t.send(.GET, "/magazine/issues/\(issue.id!)?lang=en").body.string.contains("PDF edition"))
        }
    }
}
