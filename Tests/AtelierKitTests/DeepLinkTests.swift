import AtelierKit
import Foundation
import Testing

@testable import Atelier

private let first = UUID()
private let second = UUID()

private func id(_ uuid: UUID) -> String { uuid.uuidString.lowercased() }

@Suite("Deep links: the server's links to typed routes")
struct DeepLinkTests {
    /// Every link form the server writes (`grep -rn 'atelier://' Sources/Atelier`), as it writes it.
    static let serverLinks: [(String, DeepLink)] = [
        ("atelier://posts/\(id(first))", .post(first)),  // reactions, comments
        ("atelier://moments/\(id(first))", .moment(first)),  // invitations, new photos, starting soon
        ("atelier://moments/\(id(first))/photos/\(id(second))", .momentPhoto(moment: first, photo: second)),  // notifications.md
        ("atelier://orders/\(id(first))", .order(first)),  // order states, reservations ending
        ("atelier://outfits/\(id(first))", .outfit(first)),  // the morning reminder
        ("atelier://users/\(id(first))", .user(first)),  // friend request accepted
        ("atelier://friends/requests", .friendRequests),
        ("atelier://magazine/issues/\(id(first))", .magazineIssue(first)),
        ("atelier://stores/\(id(first))", .store(first)),  // a store without an owner
        ("atelier://stores/\(id(first))/stock", .storeStock(first)),  // low stock
        ("atelier://products/\(id(first))", .product(first)),  // shared pages, opened as Universal Links
        ("atelier://boards/\(id(first))", .board(first)),
    ]

    @Test("every link the server writes reads as its route, and the route writes the same link")
    func serverLinksRoundTrip() throws {
        for (link, route) in Self.serverLinks {
            let url = try #require(URL(string: link))
            #expect(DeepLink(url: url) == route, "\(link)")
            #expect(route.url.absoluteString == link)
            #expect(DeepLink(url: route.url) == route)
        }
    }

    @Test("the same paths on the web, and the web paths the server writes for notifications, read as the same routes")
    func webURLs() throws {
        let web = "https://atelier.example"
        let samePaths: [(String, DeepLink)] = Self.serverLinks.map { link, route in
            (link.replacingOccurrences(of: "atelier:/", with: web), route)
        }
        // The web paths notifications carry (`webUrl`) where they differ, and shared links.
        let webPaths: [(String, DeepLink)] = [
            ("\(web)/posts/\(id(first))#comments", .post(first)),
            ("\(web)/people/\(id(first))", .user(first)),
            ("\(web)/friends", .friendRequests),
            ("\(web)/portal/stores/\(id(first))/stock", .storeStock(first)),
            ("\(web)/products/\(id(first))?utm_source=share", .product(first)),
            ("\(web)/boards/\(id(first))/", .board(first)),
            ("http://127.0.0.1:8080/moments/\(id(first))", .moment(first)),
        ]
        for (link, route) in samePaths + webPaths {
            let url = try #require(URL(string: link))
            #expect(DeepLink(url: url) == route, "\(link)")
        }
    }

    @Test("articles, brands and stores by slug, invite links and the mails' token links read as routes and are written back, tokens kept as they are")
    func sharedAndMailLinks() throws {
        let web = URL(string: "https://atelier.example")!
        let links: [(String, DeepLink)] = [
            ("https://atelier.example/magazine/articles/\(id(first))", .article(first)),
            ("https://atelier.example/brands/acne-studios", .brand(slug: "acne-studios")),
            ("https://atelier.example/stores/atelier-nord", .storeSlug("atelier-nord")),
            ("https://atelier.example/invite/AbC-123_xyz", .invite(token: "AbC-123_xyz")),
            ("https://atelier.example/verify-email?token=Q1w2-E3r4_T5", .verifyEmail(token: "Q1w2-E3r4_T5")),
            ("https://atelier.example/reset-password?token=Zz9-8_Yy", .resetPassword(token: "Zz9-8_Yy")),
        ]
        for (link, route) in links {
            let url = try #require(URL(string: link))
            #expect(DeepLink(url: url) == route, "\(link)")
            #expect(route.webURL(baseURL: web).absoluteString == link)
            #expect(DeepLink(url: route.url) == route, "\(route.url)")
        }
        #expect(DeepLink(url: URL(string: "https://atelier.example/stores/\(id(first))")!) == .store(first), "an id is still the store by id")
    }

    @Test("junk, other schemes, unknown paths and bad ids are nil")
    func junk() throws {
        let uuid = id(first)
        let junk = [
            "atelier://posts", "atelier://posts/", "atelier://posts/not-a-uuid", "atelier://posts/\(uuid.dropLast())",
            "atelier://posts/\(uuid)x", "atelier://posts/\(uuid)/extra", "atelier://unknown/\(uuid)", "atelier://nothing-here",
            "atelier://magazine/articles/nope", "atelier://stores/\(uuid)/orders", "atelier://verify-email", "atelier://reset-password?token=",
            "atelier://invite", "atelier://brands", "atelier://friends/blocked",
            "atelier://moments/\(uuid)/photos/nope", "atelier://outfits/new",
            "other://posts/\(uuid)", "ftp://atelier.example/posts/\(uuid)", "mailto:someone@example.com",
            "https://atelier.example/", "https://atelier.example/admin/stores", "https://atelier.example/notifications",
            "/posts/\(uuid)",
        ]
        for link in junk {
            let url = try #require(URL(string: link), "\(link)")
            #expect(DeepLink(url: url) == nil, "\(link)")
        }
    }

    @Test("a push's payload gives its link: the APNs payload the server sends, and the Web Push one")
    func fromUserInfo() throws {
        let message = PushMessage(
            kind: "orderUpdated", text: "Your order is ready", link: "atelier://orders/\(id(first))", badge: 3, collapseID: nil)
        let apns = try #require(try JSONSerialization.jsonObject(with: APNSClient.payload(message)) as? [AnyHashable: Any])
        #expect(DeepLink.from(userInfo: apns) == .order(first))

        let webPush: [AnyHashable: Any] = [
            "title": "Atelier", "body": "Ana invited you", "link": "atelier://moments/\(id(first))",
            "url": "/moments/\(id(first))", "kind": "momentInvitation", "badge": 1,
        ]
        #expect(DeepLink.from(userInfo: webPush) == .moment(first))
        #expect(DeepLink.from(userInfo: ["link": URL(string: "https://atelier.example/posts/\(id(first))")!]) == .post(first))

        #expect(DeepLink.from(userInfo: [:]) == nil)
        #expect(DeepLink.from(userInfo: ["aps": ["badge": 1]]) == nil)
        #expect(DeepLink.from(userInfo: ["link": 42]) == nil)
        #expect(DeepLink.from(userInfo: ["link": "atelier://nowhere/\(id(first))"]) == nil)
        #expect(DeepLink.from(userInfo: ["url": "/posts/\(id(first))"]) == nil)
    }
}
