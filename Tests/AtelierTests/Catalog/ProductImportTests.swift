import Fluent
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor
import VaporTesting
import ZIPFoundation

@testable import Atelier

@Suite("Catalog: bulk import")
struct ProductImportTests {
    typealias RowError = ProductImport.RowError

    /// Three photos of different widths, so the order they are attached in can be read back.
    static func photosZip(brokenJeans: Bool = false) throws -> URL {
        try zip([
            ("shirt-front.png", try TestImages.png(width: 320, height: 400)),
            ("shirt-back.png", try TestImages.png(width: 300, height: 420)),
            ("photos/jeans.png", brokenJeans ? Data("not an image".utf8) : try TestImages.png(width: 280, height: 360)),
        ])
    }

    static func zip(_ files: [(String, Data)]) throws -> URL {
        let url = try TestImages.directory().appendingPathComponent("photos.zip")
        let archive = try Archive(url: url, accessMode: .create)
        for (name, data) in files {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url
    }

    /// Two products, the shirt in two sizes; a BOM, CRLF line ends and a quoted field with commas,
    /// quotes and a line break. Brand and category are named in another case than stored.
    static func csv(_ f: CatalogFixture, jeansBrand: String) -> Data {
        let lines = [
            "handle,title,description,brand,category,gender,price,original_price,currency,colors,styles,size,stock,sku,photos,status",
            "shirt,Linen shirt,\"Airy, loose \"\"summer\"\" shirt\nwith two pockets\",\(f.brand.name.uppercased()),"
                + "\(f.women.name.lowercased()) > tops > SHIRTS,,499.00,,SEK,white,casual;beach,S,2,LS-S,shirt-front.png; shirt-back.png,active",
            "shirt,,,,,,,,,,,M,1,LS-M,,",
            "jeans,Wide jeans,,\(jeansBrand),\(f.men.id!.idString),men,899,1200,sek,blue,street,32,3,,jeans.png,inactive",
        ]
        return Data(("\u{FEFF}" + lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    static func importer(_ t: TestApp) -> ProductImport { ProductImport(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media) }

    static func owner(_ t: TestApp, _ f: CatalogFixture) async throws -> User {
        try #require(try await User.find(UUID(uuidString: f.ownerA.user.id), on: t.app.db))
    }

    static func written(_ t: TestApp, _ f: CatalogFixture) async throws -> (products: Int, media: Int) {
        let products = try await Product.query(on: t.app.db).filter(\.$store.$id == f.storeA.id!).count()
        let media = try await Media.query(on: t.app.db).filter(\.$uploader.$id == UUID(uuidString: f.ownerA.user.id)!).count()
        return (products, media)
    }

    @Test("an unknown brand fails the dry run at its row and column and the real run writes nothing")
    func unknownBrand() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let user = try await Self.owner(t, f)
            let zip = try Self.photosZip()
            let bad = Self.csv(f, jeansBrand: "Acme")

            let report = try await Self.importer(t).run(storeID: f.storeA.id!, csv: bad, photos: zip, dryRun: true, by: user)
            #expect(report.errors == [RowError(row: 4, column: "brand", message: "no brand named \"Acme\"")])
            #expect((report.products, report.variants, report.photos) == (2, 3, 3))
            #expect(try await Self.written(t, f) == (0, 0))

            do {
                _ = try await Self.importer(t).run(storeID: f.storeA.id!, csv: bad, photos: zip, dryRun: false, by: user)
                Issue.record("the real run should have refused the file")
            } catch let problem as Problem {
                #expect(problem.status == .unprocessableEntity)
                #expect(problem.errors == [.init(field: "row 4, brand", message: "no brand named \"Acme\"")])
            }
            #expect(try await Self.written(t, f) == (0, 0))
        }
    }

    @Test("a good file imports every row with its photos in order, in one go")
    func importsEverything() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let user = try await Self.owner(t, f)
            let calls = NIOLockedValueBox<[[Int]]>([])
            let report = try await Self.importer(t).run(
                storeID: f.storeA.id!, csv: Self.csv(f, jeansBrand: ""), photos: try Self.photosZip(), dryRun: false, by: user,
                progress: { done, total in calls.withLockedValue { $0.append([done, total]) } })
            #expect(report.errors.isEmpty)
            #expect((report.products, report.variants, report.photos) == (2, 3, 3))
            #expect(calls.withLockedValue { $0.last } == [9, 9])  // 3 rows checked, 3 photos ingested, 3 rows written

            let products = try await Product.query(on: t.app.db).filter(\.$store.$id == f.storeA.id!).sort(\.$title).all()
            try #require(products.map(\.title) == ["Linen shirt", "Wide jeans"])
            let (shirt, jeans) = (products[0], products[1])
            #expect(shirt.description == "Airy, loose \"summer\" shirt\nwith two pockets")
            #expect(shirt.brandID == f.brand.id && shirt.categoryID == f.shirts.id && shirt.gender == "women")
            #expect(shirt.priceMinor == 49_900 && shirt.currency == "SEK" && shirt.isActive)
            #expect(shirt.styles == ["beach", "casual"])
            #expect(jeans.brandID == nil && jeans.categoryID == f.men.id && !jeans.isActive)
            #expect(jeans.priceMinor == 89_900 && jeans.originalPriceMinor == 120_000)

            let variants = try await ProductVariant.query(on: t.app.db).filter(\.$product.$id == shirt.id!).sort(\.$position).all()
            #expect(variants.map { "\($0.size) \($0.stock) \($0.sku ?? "")" } == ["S 2 LS-S", "M 1 LS-M"])
            for (product, widths) in [(shirt, [320, 300]), (jeans, [280])] {
                let photos = try await ProductPhoto.query(on: t.app.db).filter(\.$product.$id == product.id!).sort(\.$position)
                    .with(\.$media).all()
                #expect(photos.map(\.media.width) == widths)
                #expect(photos.allSatisfy { $0.media.ownerID == product.id && $0.media.visibility == "public" && $0.media.attachedAt != nil })
            }
            let store = try #require(try await Store.find(f.storeA.id, on: t.app.db))
            #expect(store.activeProductCount == 1)
        }
    }

    @Test("a photo that fails to process after others were stored leaves no product and no photo behind")
    func rollsBackPhotos() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let user = try await Self.owner(t, f)
            do {
                _ = try await Self.importer(t).run(
                    storeID: f.storeA.id!, csv: Self.csv(f, jeansBrand: ""), photos: try Self.photosZip(brokenJeans: true), dryRun: false, by: user)
                Issue.record("the broken photo should have failed the import")
            } catch let problem as Problem {
                #expect(problem.status == .unprocessableEntity)
                #expect(problem.errors.map(\.field) == ["row 4, photos"], "\(problem.errors)")
            }
            #expect(try await Self.written(t, f) == (0, 0))
            let store = try #require(try await Store.find(f.storeA.id, on: t.app.db))
            #expect(store.activeProductCount == 0)
        }
    }

    @Test("the dry run lists every problem at its row and column")
    func listsEveryProblem() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let user = try await Self.owner(t, f)
            let zip = try Self.zip([("front.png", try TestImages.png(width: 64, height: 80))])
            let text = """
                handle,title,category,price,currency,size,stock,photos,colour
                a,Shirt,\(f.women.name) > Tops > Blouses,49.999,SEK,S,1,front.png,
                a,,,,,s,-1,,
                b,,\(f.men.id!.idString),10,XXX,M,x,missing.png,

                ,Orphan,,,,,,,
                """
            let report = try await Self.importer(t).run(storeID: f.storeA.id!, csv: Data(text.utf8), photos: zip, dryRun: true, by: user)
            #expect(report.errors.map { "\($0.row) \($0.column)" } == [
                "1 colour", "2 category", "2 price", "3 stock", "3 size", "4 currency", "4 stock", "4 photos", "4 title", "6 handle",
            ])
            let messages = Dictionary(report.errors.map { ("\($0.row) \($0.column)", $0.message) }, uniquingKeysWith: { a, _ in a })
            #expect(messages["2 category"] == "no category \"Blouses\" under \"\(f.women.name) > Tops\"")
            #expect(messages["2 price"] == "must be an amount like 499.00 (SEK has 2 decimals)")
            #expect(messages["3 size"] == "is listed twice")
            #expect(messages["4 photos"] == "\"missing.png\" is not in the zip")

            let noCurrency = Data("handle,title,category,price,size,photos\na,T,x,1,S,front.png\n".utf8)
            let header = try await Self.importer(t).run(storeID: f.storeA.id!, csv: noCurrency, photos: zip, dryRun: true, by: user)
            #expect(header.errors == [RowError(row: 1, column: "currency", message: "is missing from the header")])
            #expect(try await Self.written(t, f).products == 0)
        }
    }

    @Test("atelier import-products prints each row error, then imports the fixed file")
    func command() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let directory = try TestImages.directory()
            let zip = try Self.photosZip()
            let bad = directory.appendingPathComponent("bad.csv"), good = directory.appendingPathComponent("good.csv")
            try Self.csv(f, jeansBrand: "Acme").write(to: bad)
            try Self.csv(f, jeansBrand: f.brand.name).write(to: good)

            func run(_ arguments: [String]) async throws -> (String, Bool) {
                let console = RecordingConsole()
                var context = CommandContext(console: console, input: CommandInput(arguments: ["atelier"] + arguments))
                context.application = t.app
                do {
                    try await ImportProductsCommand().run(using: &context)
                    return (console.text, true)
                } catch {
                    return (console.text, false)
                }
            }
            let (checked, checkedOK) = try await run(["--store", f.storeA.slug, "--dry-run", bad.path, zip.path])
            #expect(!checkedOK)
            #expect(checked.contains("row 4, brand: no brand named \"Acme\""), "\(checked)")
            let (imported, importedOK) = try await run([good.path, zip.path, "--store", f.storeA.id!.idString])
            #expect(importedOK, "\(imported)")
            #expect(imported.contains("Imported 2 products (3 variants, 3 photos)"))
            #expect(try await Self.written(t, f).products == 2)
        }
    }
}

@Suite("Catalog: CSV reading")
struct ProductImportCSVTests {
    @Test("plain fields, empty fields and a missing last line break")
    func plain() throws {
        #expect(try CSVReader.records("a,b,c\n1,,3") == [["a", "b", "c"], ["1", "", "3"]])
        #expect(try CSVReader.records("a,\n") == [["a", ""]])
        #expect(try CSVReader.records("") == [])
    }

    @Test("quoted fields hold commas, doubled quotes and line breaks")
    func quoted() throws {
        let text = "name,note\n\"Shirt, linen\",\"say \"\"hi\"\"\nthen\r\nbye\"\n\"\",x\n\"last\""
        #expect(try CSVReader.records(text) == [["name", "note"], ["Shirt, linen", "say \"hi\"\nthen\r\nbye"], ["", "x"], ["last"]])
        #expect(try CSVReader.records("5\" heel,x") == [["5\" heel", "x"]])
    }

    @Test("a BOM is skipped; CRLF, LF and CR all end a record; a blank line is a record of one empty field")
    func lineEnds() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array("a,b\r\n1,2\r\n\r\n3,4\r5,6\n".utf8))
        #expect(try CSVReader.records(data) == [["a", "b"], ["1", "2"], [""], ["3", "4"], ["5", "6"]])
    }

    @Test("malformed input names the record it starts in")
    func malformed() {
        #expect(throws: CSVReader.Failure(record: 2, message: "a quoted field is never closed")) {
            try CSVReader.records("a,b\n\"open,\nmore")
        }
        #expect(throws: CSVReader.Failure.self) { try CSVReader.records("\"a\"b,c") }
        #expect(throws: CSVReader.Failure(record: 1, message: "the file is not UTF-8 text")) { try CSVReader.records(Data([0x61, 0xFF])) }
    }

    @Test("prices in major units become minor units of the currency")
    func prices() {
        #expect(MoneyText.minorUnits("499", digits: 2) == 49_900)
        #expect(MoneyText.minorUnits("499.5", digits: 2) == 49_950)
        #expect(MoneyText.minorUnits("499.05", digits: 2) == 49_905)
        #expect(MoneyText.minorUnits("1500.00", digits: 0) == 1_500)
        for bad in ["", "4.999", "-1", "1,5", "1.", ".5", "1e3", "12.3.4"] { #expect(MoneyText.minorUnits(bad, digits: 2) == nil, "\(bad)") }
        #expect(MoneyText.minorUnits("1 299,50", currency: "SEK") == 129_950)
        #expect(MoneyText.minorUnits("-5", currency: "EUR") == -500)
        #expect(MoneyText.minorUnits("12", currency: "JPY") == 12)
        #expect(MoneyText.format(129_950, "SEK") == "1\u{2009}299.50 SEK")
    }
}

/// A console that keeps what is printed.
final class RecordingConsole: Console {
    private let lines = NIOLockedValueBox<[String]>([])
    private let info = NIOLockedValueBox<[AnySendableHashable: any Sendable]>([:])

    var text: String { lines.withLockedValue { $0.joined(separator: "\n") } }
    var size: (width: Int, height: Int) { (80, 24) }
    var supportsANSICommands: Bool { false }
    var userInfo: [AnySendableHashable: any Sendable] {
        get { info.withLockedValue { $0 } }
        set { info.withLockedValue { $0 = newValue } }
    }

    func input(isSecure: Bool) -> String { "" }
    func output(_ text: ConsoleText, newLine: Bool) { lines.withLockedValue { $0.append(text.description) } }
    func clear(_ type: ConsoleClear) {}
    func report(error: String, newLine: Bool) { lines.withLockedValue { $0.append(error) } }
}
