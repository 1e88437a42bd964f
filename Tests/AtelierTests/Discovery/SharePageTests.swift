import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Discovery: share pages and app links")
struct SharePageTests {
    func html(_ t: TestApp, _ path: String) async throws -> TestingHTTPResponse {
        try await t.send(.GET, path, headers: [("Accept", "text/html")])
    }

    /// The `content` of `<meta property|name="key" content="…">`.
    func meta(_ key: String, in page: String) -> String? {
        for attribute in ["property", "name"] {
            guard let start = page.range(of: "<meta \(attribute)=\"\(key)\" content=\"") else { continue }
            return String(page[start.upperBound...].prefix { $0 != "\"" })
        }
        return nil
    }

    @Test("a shared product link carries og:title, og:image (a variant URL), og:price:amount and the smart app banner")
    func productTags() async throws {
        try await TestApp.with(adjust: { $0.appLinks.appleAppStoreID = "1234567890" }) { t in
            let f = try await t.catalogFixture()
            let photo = try await t.uploadPhoto(token: f.ownerA.accessToken, width: 1400, height: 1800)
            let product = try await t.createProduct(
                in: f.storeAID, token: f.ownerA.accessToken,
                json: TestApp.productJSON(title: "Wool coat", category: f.shirts, brand: f.brand, price: 129_950, photos: [photo], status: "active"))
                .content.decode(ProductBody.self)
            let page = try await html(t, "/products/\(product.id.lowercased())?via=share")
            #expect(page.status == .ok)
            // Photo URLs are absolute on PUBLIC_BASE_URL; the page may load them under any host name.
            #expect(page.headers.first(name: "Content-Security-Policy")?.contains("img-src 'self' data: blob: http://atelier.test;") == true)
            let body = page.body.string
            #expect(meta("og:title", in: body) == "Wool coat")
            #expect(meta("og:type", in: body) == "product")
            #expect(meta("og:price:amount", in: body) == "1299.50")
            #expect(meta("og:price:currency", in: body) == "SEK")
            let image = try #require(meta("og:image", in: body))
            let variantURLs = product.photos.first?.variants.map(\.url) ?? []
            #expect(variantURLs.contains(image), "\(image) is not one of \(variantURLs)")
            #expect(image.hasPrefix("http"))
            #expect(meta("og:image:width", in: body) == "1080")
            #expect(meta("twitter:card", in: body) == "summary_large_image")
            #expect(meta("apple-itunes-app", in: body) == "app-id=1234567890, app-argument=\(product.webUrl)")
            #expect(meta("og:url", in: body) == product.webUrl)

            let store = try await html(t, "/stores/\(f.storeA.slug)")
            #expect(meta("og:title", in: store.body.string) == f.storeA.name)
            #expect(meta("og:price:amount", in: store.body.string) == nil)
        }
    }

    @Test("a shared product's og:image is the variant nearest 1080 px of those at least 600 px wide, else the widest",
          arguments: [(900, 1200, 750, 1000), (4000, 3000, 1080, 810), (500, 400, 270, 216)])
    func shareImageSize(width: Int, height: Int, sharedWidth: Int, sharedHeight: Int) async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let photo = try await t.uploadPhoto(token: f.ownerA.accessToken, width: width, height: height)
            let product = try await t.createProduct(
                in: f.storeAID, token: f.ownerA.accessToken,
                json: TestApp.productJSON(title: "Linen dress", category: f.shirts, brand: f.brand, price: 59_900, photos: [photo], status: "active"))
                .content.decode(ProductBody.self)
            let body = try await html(t, "/products/\(product.id.lowercased())").body.string
            #expect(meta("og:image:width", in: body) == "\(sharedWidth)")
            #expect(meta("og:image:height", in: body) == "\(sharedHeight)")
            let image = try #require(meta("og:image", in: body))
            let variant = product.photos.first?.variants.first { $0.url == image }
            #expect(variant?.width == sharedWidth && variant?.format == "jpeg", "\(image) is not the \(sharedWidth) px JPEG")
        }
    }

    @Test("APPLE_APP_IDS gives each app its own paths when written id=path|path, the shared list otherwise")
    func appleAppPathsFromEnvironment() throws {
        let config = try AppConfig.fromEnvironment([
            "DATABASE_URL": "sqlite::memory:",
            "APPLE_APP_IDS": "T1.app.picwear, T1.app.injoin=/moments/*|/invite/* ,T1.app.tsm=/magazine/articles/*",
        ])
        #expect(config.appLinks.appleAppIDs == ["T1.app.picwear", "T1.app.injoin", "T1.app.tsm"])
        #expect(config.appLinks.applePaths == ["T1.app.injoin": ["/moments/*", "/invite/*"], "T1.app.tsm": ["/magazine/articles/*"]])
    }

    @Test("apple-app-site-association and assetlinks.json name the configured apps and the shareable paths")
    func wellKnownFiles() async throws {
        try await TestApp.with(adjust: {
            $0.appLinks.appleAppIDs = ["ABCDE12345.app.atelier", "ABCDE12345.app.injoin"]
            $0.appLinks.applePaths = ["ABCDE12345.app.injoin": ["/moments/*", "/invite/*"]]
            $0.appLinks.androidPackage = "app.atelier"
            $0.appLinks.androidCertFingerprints = ["AA:BB"]
        }) { t in
            let apple = try await t.send(.GET, "/.well-known/apple-app-site-association")
            #expect(apple.status == .ok)
            #expect(apple.headers.contentType == .json)
            struct Association: Decodable {
                struct Links: Decodable {
                    struct Detail: Decodable { var appIDs: [String]; var components: [[String: String]] }
                    var details: [Detail]
                }
                var applinks: Links
            }
            let association = try apple.content.decode(Association.self)
            #expect(association.applinks.details.map(\.appIDs) == [["ABCDE12345.app.atelier"], ["ABCDE12345.app.injoin"]])
            #expect(association.applinks.details.first?.components.compactMap { $0["/"] }.contains("/products/*") == true)
            #expect(association.applinks.details.last?.components.compactMap { $0["/"] } == ["/moments/*", "/invite/*"], "each app its own paths")

            let android = try await t.send(.GET, "/.well-known/assetlinks.json")
            struct Statement: Decodable {
                struct Target: Decodable { var namespace: String; var package_name: String; var sha256_cert_fingerprints: [String] }
                var relation: [String]
                var target: Target
            }
            let statements = try android.content.decode([Statement].self)
            #expect(statements.first?.target.package_name == "app.atelier")
            #expect(statements.first?.relation == ["delegate_permission/common.handle_all_urls"])
        }
        // Not configured: valid files that name no app.
        try await TestApp.with { t in
            let none = try await t.send(.GET, "/.well-known/assetlinks.json")
            #expect(none.body.string == "[]")
        }
    }
}
