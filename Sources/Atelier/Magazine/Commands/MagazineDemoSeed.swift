import Fluent
import Vapor

/// Demo magazine for `seed-demo`: two published issues in English and Romanian, with a few
/// articles by three authors. Skipped when issue 1 exists.
struct MagazineDemoSeed {
    let app: Application

    func run() async throws -> Int {
        guard try await MagazineIssue.query(on: app.db).filter(\.$number == 1).count() == 0 else { return 0 }
        let editor = MagazineEditor(db: app.db, core: app.core, mediaLibrary: app.atelier.media)
        let ioana = try await editor.createAuthor(name: "Ioana Marin", bios: [
            "en": "Fashion editor in Bucharest; writes about second-hand and small labels.",
            "ro": "Editor de modă în București; scrie despre second-hand și branduri mici."])
        let erik = try await editor.createAuthor(name: "Erik Sand", bios: [
            "en": "Tailor and writer from Gothenburg.", "ro": "Croitor și autor din Göteborg."])
        let lena = try await editor.createAuthor(name: "Lena Berg", bios: ["en": "Photographer; shoots the street style pages."])
        let issues: [(Int, String, String, [(MagazineEditor.ArticleText, MagazineEditor.ArticleText?, [UUID])])] = [
            (1, "Issue 1 · Autumn layers", "Numărul 1 · Straturi de toamnă", [
                (.init(slug: "how-to-layer-wool", title: "How to layer wool", summary: "Three layers, no bulk.",
                       markdown: "## Start thin\n\nA fine merino next to the skin, then **one** knit, then the coat.\n\n- merino\n- lambswool\n- a loden coat"),
                 .init(slug: "cum-sa-porti-lana-in-straturi", title: "Cum să porți lâna în straturi", summary: "Trei straturi, fără volum.",
                       markdown: "## Începe subțire\n\nMerinos fin pe piele, apoi **un** tricot, apoi paltonul."), [ioana.id!]),
                (.init(slug: "mending-a-hem", title: "Mending a hem in ten minutes", summary: "A blind stitch anyone can learn.",
                       markdown: "Fold, pin, and take *tiny* stitches. See [our tailor](/magazine) for more."),
                 nil, [erik.id!]),
            ]),
            (2, "Issue 2 · Winter street", "Numărul 2 · Stradă de iarnă", [
                (.init(slug: "street-style-gothenburg", title: "Street style: Gothenburg in the snow", summary: "What people wore on Avenyn.",
                       markdown: "Big scarves, bright hats and **very** sensible boots."),
                 .init(slug: "stil-de-strada-goteborg", title: "Stil de stradă: Göteborg pe zăpadă", summary: "Ce s-a purtat pe Avenyn.",
                       markdown: "Fulare mari, căciuli colorate și ghete **foarte** practice."), [lena.id!, ioana.id!]),
                (.init(slug: "care-for-your-boots", title: "Care for your boots", summary: "Salt, snow and leather.",
                       markdown: "Wipe the salt off the same day; feed the leather once a month."),
                 .init(slug: "ingrijirea-ghetelor", title: "Îngrijirea ghetelor", summary: "Sare, zăpadă și piele.",
                       markdown: "Șterge sarea în aceeași zi; hrănește pielea o dată pe lună."), [erik.id!]),
            ]),
        ]
        for (number, english, romanian, articles) in issues {
            let issue = try await editor.createIssue(number: number, labels: ["en": english, "ro": romanian])
            for (position, (en, ro, authors)) in articles.enumerated() {
                let article = try await editor.createArticle(in: issue, position: position, authors: authors)
                try await editor.setText(en, lang: "en", of: article)
                if let ro { try await editor.setText(ro, lang: "ro", of: article) }
                try await editor.setPublished(true, article)
            }
            try await editor.publish(issue)
        }
        return issues.count
    }
}
