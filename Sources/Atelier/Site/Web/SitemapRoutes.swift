import Foundation
import Vapor

/// `/robots.txt`, `/sitemap.xml` (an index) and its files `/sitemaps/{part}-{n}.xml`, with
/// absolute URLs on `PUBLIC_BASE_URL` as the sitemaps protocol requires.
enum SitemapRoutes {
    static func register(_ web: any RoutesBuilder) {
        web.get("robots.txt", use: robots)
        web.get("sitemap.xml", use: index)
        web.get("sitemaps", ":file", use: file)
    }

    static func robots(_ req: Request) async throws -> Response {
        let text = """
            User-agent: *
            Disallow: /api/
            Disallow: /portal/
            Disallow: /admin/
            Disallow: /editor/
            Sitemap: \(req.atelier.config.publicBaseURL)/sitemap.xml

            """
        return Response(status: .ok, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .init(string: text))
    }

    static func index(_ req: Request) async throws -> Response {
        let base = req.atelier.config.publicBaseURL
        let counts = try await req.reading { db in try await Sitemap(db: db, now: req.atelier.clock.now()).fileCounts() }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
        for (part, files) in counts {
            for n in 1...files { xml += "<sitemap><loc>\(Markup.escape("\(base)/sitemaps/\(part.rawValue)-\(n).xml"))</loc></sitemap>\n" }
        }
        return xmlResponse(xml + "</sitemapindex>\n")
    }

    /// `products-3.xml`: the third file of products. An unknown part or a file past the end is a 404.
    static func file(_ req: Request) async throws -> Response {
        let name = req.parameters.get("file") ?? ""
        guard name.hasSuffix(".xml"), let dash = name.lastIndex(of: "-"),
            let part = Sitemap.Part(rawValue: String(name[..<dash])),
            let number = Int(name[name.index(after: dash)..<name.index(name.endIndex, offsetBy: -4)]), number >= 1
        else { throw Problem.notFound("sitemap") }
        let base = req.atelier.config.publicBaseURL
        let entries = try await req.reading { db -> [Sitemap.Entry]? in
            let sitemap = Sitemap(db: db, now: req.atelier.clock.now())
            guard let files = try await sitemap.fileCounts().first(where: { $0.part == part })?.files, number <= files else { return nil }
            return try await sitemap.entries(part, file: number - 1)
        }
        guard let entries else { throw Problem.notFound("sitemap") }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
        for entry in entries {
            xml += "<url><loc>\(Markup.escape(base + entry.path))</loc>" + (entry.lastModified.map { "<lastmod>\(day.string(from: $0))</lastmod>" } ?? "") + "</url>\n"
        }
        return xmlResponse(xml + "</urlset>\n")
    }

    private static func xmlResponse(_ xml: String) -> Response {
        Response(status: .ok, headers: ["Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600"], body: .init(string: xml))
    }
}
