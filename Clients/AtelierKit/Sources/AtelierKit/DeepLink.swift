import Foundation

/// A place in the app a notification (or a shared web link) points to, so the app can open the
/// right screen:
///
///     func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
///         if let link = DeepLink.from(userInfo: response.notification.request.content.userInfo) {
///             router.open(link)
///         } else {
///             router.openInbox()
///         }
///     }
///
/// It reads the links the server writes (`atelier://posts/{id}`, the `link` of an inbox entry and
/// of a push) and the same paths on the web (`https://<host>/posts/{id}`, a notification's
/// `webUrl` or a Universal Link), including the web's own names for some places (`/people/{id}`,
/// `/friends`, `/portal/stores/{id}/stock`, `/stores/{slug}`, `/brands/{slug}`, `/invite/{token}`, and the
/// mails' `/verify-email?token=` and `/reset-password?token=`). Anything else is nil: open the inbox then.
public enum DeepLink: Hashable, Sendable {
    /// An outfit-of-the-day post (reactions, comments).
    case post(UUID)
    /// A moment (an invitation, new photos, about to start).
    case moment(UUID)
    /// One photo of a moment (the web link of a new photo).
    case momentPhoto(moment: UUID, photo: UUID)
    /// An order of the user's (its state changed, a reservation ends soon).
    case order(UUID)
    /// An outfit in the closet (the morning reminder).
    case outfit(UUID)
    /// A person's profile (they accepted a friend request).
    case user(UUID)
    /// The friend requests waiting for an answer.
    case friendRequests
    /// A newly published magazine issue.
    case magazineIssue(UUID)
    /// A store (for admins: one left without an owner).
    case store(UUID)
    /// A store's stock, for its staff (low stock).
    case storeStock(UUID)
    /// A product page (a shared link).
    case product(UUID)
    /// A lookbook board (a shared link).
    case board(UUID)
    /// A magazine article (a shared link).
    case article(UUID)
    /// A brand's page, by its slug.
    case brand(slug: String)
    /// A store's public page, by its slug (the web's store links).
    case storeSlug(String)
    /// An invite link a friend sent: sign up through it to be connected.
    case invite(token: String)
    /// The link of the "confirm your address" mail.
    case verifyEmail(token: String)
    /// The link of the "choose a new password" mail.
    case resetPassword(token: String)

    /// The scheme of the app's links.
    public static let scheme = "atelier"

    /// Reads an `atelier://` link, or an `https://` (or `http://`, for development servers) URL
    /// with the same path on any host: the app receives Universal Links only for its own domains.
    /// The query and fragment are ignored. Nil for other schemes and unknown paths.
    public init?(url: URL) {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        let segments: [String]
        switch scheme {
        case Self.scheme:
            // In atelier://posts/{id}, "posts" is the URL's host.
            segments = [url.host].compactMap { $0 } + Self.segments(of: url.path)
        case "https", "http":
            guard let host = url.host, !host.isEmpty else { return nil }
            segments = Self.segments(of: url.path)
        default:
            return nil
        }
        let token = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "token" }?.value
        guard let link = Self(segments: segments, token: token) else { return nil }
        self = link
    }

    /// The link in a push's payload (`userInfo` of a `UNNotificationContent`): the server puts it
    /// under `link`: next to `aps` in APNs pushes, among the data fields in FCM ones (which iOS
    /// puts in `userInfo` too), and in Web Push messages. Nil when there is none or it is not a
    /// link this type knows.
    public static func from(userInfo: [AnyHashable: Any]) -> DeepLink? {
        let value = userInfo["link"]
        guard let url = (value as? URL) ?? (value as? String).flatMap({ URL(string: $0) }) else { return nil }
        return DeepLink(url: url)
    }

    /// The link as the server writes it (`atelier://posts/{id}`, ids in lower case).
    public var url: URL {
        URL(string: "\(Self.scheme)://" + pathSegments.joined(separator: "/") + tokenQuery)!
    }

    /// The same place on the web site at `baseURL` (its Universal Link).
    public func webURL(baseURL: URL) -> URL {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        return URL(string: base + "/" + pathSegments.joined(separator: "/") + tokenQuery)!
    }

    private var tokenQuery: String {
        switch self {
        case .verifyEmail(let token), .resetPassword(let token):
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            return "?token=" + (token.addingPercentEncoding(withAllowedCharacters: allowed) ?? token)
        default: return ""
        }
    }

    private var pathSegments: [String] {
        func id(_ uuid: UUID) -> String { uuid.uuidString.lowercased() }
        switch self {
        case .post(let post): return ["posts", id(post)]
        case .moment(let moment): return ["moments", id(moment)]
        case .momentPhoto(let moment, let photo): return ["moments", id(moment), "photos", id(photo)]
        case .order(let order): return ["orders", id(order)]
        case .outfit(let outfit): return ["outfits", id(outfit)]
        case .user(let user): return ["users", id(user)]
        case .friendRequests: return ["friends", "requests"]
        case .magazineIssue(let issue): return ["magazine", "issues", id(issue)]
        case .store(let store): return ["stores", id(store)]
        case .storeStock(let store): return ["stores", id(store), "stock"]
        case .product(let product): return ["products", id(product)]
        case .board(let board): return ["boards", id(board)]
        case .article(let article): return ["magazine", "articles", id(article)]
        case .brand(let slug): return ["brands", Self.escaped(slug)]
        case .storeSlug(let slug): return ["stores", Self.escaped(slug)]
        case .invite(let token): return ["invite", Self.escaped(token)]
        case .verifyEmail: return ["verify-email"]
        case .resetPassword: return ["reset-password"]
        }
    }

    private static func escaped(_ segment: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }

    /// Names and ids are read in any case; slugs and tokens keep theirs.
    private init?(segments original: [String], token: String?) {
        let s = original.map { $0.lowercased() }
        switch s.count {
        case 1 where s[0] == "verify-email" || s[0] == "reset-password":
            guard let token, !token.isEmpty else { return nil }
            self = s[0] == "verify-email" ? .verifyEmail(token: token) : .resetPassword(token: token)
        case 2 where s[0] == "invite":
            self = .invite(token: original[1])
        case 2 where s[0] == "brands":
            self = .brand(slug: s[1])
        case 2 where s[0] == "stores" && UUID(uuidString: s[1]) == nil:
            self = .storeSlug(s[1])
        case 1 where s[0] == "friends":
            self = .friendRequests
        case 2 where s == ["friends", "requests"]:
            self = .friendRequests
        case 2:
            guard let id = UUID(uuidString: s[1]) else { return nil }
            switch s[0] {
            case "posts": self = .post(id)
            case "moments": self = .moment(id)
            case "orders": self = .order(id)
            case "outfits": self = .outfit(id)
            case "users", "people": self = .user(id)
            case "stores": self = .store(id)
            case "products": self = .product(id)
            case "boards": self = .board(id)
            default: return nil
            }
        case 3 where s[0] == "magazine" && s[1] == "issues":
            guard let id = UUID(uuidString: s[2]) else { return nil }
            self = .magazineIssue(id)
        case 3 where s[0] == "magazine" && s[1] == "articles":
            guard let id = UUID(uuidString: s[2]) else { return nil }
            self = .article(id)
        case 3 where s[0] == "stores" && s[2] == "stock":
            guard let id = UUID(uuidString: s[1]) else { return nil }
            self = .storeStock(id)
        case 4 where s[0] == "portal" && s[1] == "stores" && s[3] == "stock":
            guard let id = UUID(uuidString: s[2]) else { return nil }
            self = .storeStock(id)
        case 4 where s[0] == "moments" && s[2] == "photos":
            guard let moment = UUID(uuidString: s[1]), let photo = UUID(uuidString: s[3]) else { return nil }
            self = .momentPhoto(moment: moment, photo: photo)
        default:
            return nil
        }
    }

    private static func segments(of path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }
}
