import Foundation

/// What a notification says, kept as data so that it is written in the reader's language: the
/// inbox entry in the recipient's, each push in its device's (else the account's).
enum NotificationMessage: Codable, Sendable, Equatable {
    case reaction(actor: String, emoji: String)
    case comment(actor: String, excerpt: String)
    case friendRequest(actor: String)
    case friendAccepted(actor: String)
    case momentInvitation(actor: String, moment: String)
    case momentPhoto(actor: String, moment: String)
    case momentStarting(moment: String, minutes: Int)
    case orderUpdated(number: Int, store: String, status: String, reserved: Bool, reason: String?)
    case reservationExpiring(number: Int, store: String, hours: Int)
    case lowStock(product: String, size: String)
    case outfitReminder(outfit: String, note: String)
    case magazineIssue(title: String)
    case weMissYou
    case newFromFollowedStores(products: Int, stores: Int)
    case wishlistChanges(items: Int)

    func text(in language: NotificationLanguage) -> String {
        switch language {
        case .en: english
        case .ro: romanian
        }
    }

    /// A burst of one kind on one thing, as one push: "Ana and 9 others reacted to your outfit."
    /// Nil for kinds that are not grouped.
    func grouped(firstActor: String, count: Int, in language: NotificationLanguage) -> String? {
        let others = count - 1
        guard others > 0 else { return text(in: language) }
        switch language {
        case .en:
            let who = "\(firstActor) and \(others) \(others == 1 ? "other" : "others")"
            switch self {
            case .reaction: return "\(who) reacted to your outfit."
            case .comment: return "\(who) commented on your outfit."
            case .momentPhoto(_, let moment): return "\(who) added photos to “\(moment)”."
            default: return nil
            }
        case .ro:
            let who = "\(firstActor) și " + (others == 1 ? "încă o persoană" : "încă " + language.count(others, one: "", few: "persoane", other: "de persoane"))
            switch self {
            case .reaction: return "\(who) au reacționat la ținuta ta."
            case .comment: return "\(who) au comentat la ținuta ta."
            case .momentPhoto(_, let moment): return "\(who) au adăugat fotografii în „\(moment)”."
            default: return nil
            }
        }
    }

    private var english: String {
        let en = NotificationLanguage.en
        switch self {
        case .reaction(let actor, let emoji): return "\(actor) reacted \(emoji) to your outfit."
        case .comment(let actor, let excerpt): return "\(actor) commented on your outfit: “\(excerpt)”"
        case .friendRequest(let actor): return "\(actor) sent you a friend request."
        case .friendAccepted(let actor): return "\(actor) accepted your friend request."
        case .momentInvitation(let actor, let moment): return "\(actor) invited you to “\(moment)”"
        case .momentPhoto(let actor, let moment): return "\(actor) added photos to “\(moment)”"
        case .momentStarting(let moment, let minutes):
            let when = minutes % 60 == 0
                ? en.count(minutes / 60, one: "1 hour", other: "hours") : en.count(minutes, one: "1 minute", other: "minutes")
            return "“\(moment)” starts in \(when)."
        case .orderUpdated(let number, let store, let status, let reserved, let reason):
            let name = "Order \(number) at \(store)"
            switch OrderStage(rawValue: status) {
            case .pendingPayment: return "\(name) is waiting for your payment."
            case .placed: return reserved ? "\(name): your items are reserved." : "\(name) is placed."
            case .confirmed: return "\(name) was confirmed by the store."
            case .readyForPickup: return "\(name) is ready to collect."
            case .outForDelivery: return "\(name) is on its way."
            case .completed: return "\(name) is complete. Thank you!"
            case .cancelled: return "\(name) was cancelled\(reason.map { ": \($0)" } ?? ".")"
            case .expired: return "\(name) expired: it was not collected or paid in time."
            case .refunded: return "\(name) was refunded."
            case nil: return "\(name) changed."
            }
        case .reservationExpiring(let number, let store, let hours):
            return "Your reservation at \(store) (order \(number)) ends in \(en.count(hours, one: "1 hour", other: "hours")): collect it before then."
        case .lowStock(let product, let size): return "Running low: \(product), size \(size)."
        case .outfitReminder(let outfit, let note): return note.isEmpty ? "Today's outfit: \(outfit)." : "Today's outfit: \(outfit), for \(note)."
        case .magazineIssue(let title): return "New in the magazine: \(title)"
        case .weMissYou: return "We miss you! See what is new in the stores near you."
        case .newFromFollowedStores(let products, let stores):
            return "\(en.count(products, one: "1 new piece", other: "new pieces")) from \(en.count(stores, one: "a store", other: "stores")) you follow."
        case .wishlistChanges(let items):
            return items == 1 ? "A piece on your wishlist is back in stock or cheaper." : "\(items) pieces on your wishlist are back in stock or cheaper."
        }
    }

    private var romanian: String {
        let ro = NotificationLanguage.ro
        switch self {
        case .reaction(let actor, let emoji): return "\(actor) a reacționat \(emoji) la ținuta ta."
        case .comment(let actor, let excerpt): return "\(actor) a comentat la ținuta ta: „\(excerpt)”"
        case .friendRequest(let actor): return "\(actor) ți-a trimis o cerere de prietenie."
        case .friendAccepted(let actor): return "\(actor) ți-a acceptat cererea de prietenie."
        case .momentInvitation(let actor, let moment): return "\(actor) te-a invitat la „\(moment)”"
        case .momentPhoto(let actor, let moment): return "\(actor) a adăugat fotografii în „\(moment)”"
        case .momentStarting(let moment, let minutes):
            let when = minutes % 60 == 0
                ? ro.count(minutes / 60, one: "o oră", few: "ore", other: "de ore") : ro.count(minutes, one: "un minut", few: "minute", other: "de minute")
            return "„\(moment)” începe peste \(when)."
        case .orderUpdated(let number, let store, let status, let reserved, let reason):
            let name = "Comanda \(number) de la \(store)"
            switch OrderStage(rawValue: status) {
            case .pendingPayment: return "\(name) așteaptă plata."
            case .placed: return reserved ? "\(name): produsele sunt rezervate pentru tine." : "\(name) a fost plasată."
            case .confirmed: return "\(name) a fost confirmată de magazin."
            case .readyForPickup: return "\(name) te așteaptă la magazin."
            case .outForDelivery: return "\(name) este pe drum."
            case .completed: return "\(name) este finalizată. Mulțumim!"
            case .cancelled: return "\(name) a fost anulată\(reason.map { ": \($0)" } ?? ".")"
            case .expired: return "\(name) a expirat: nu a fost ridicată sau plătită la timp."
            case .refunded: return "\(name) a fost rambursată."
            case nil: return "\(name) s-a schimbat."
            }
        case .reservationExpiring(let number, let store, let hours):
            return "Rezervarea ta de la \(store) (comanda \(number)) expiră peste \(ro.count(hours, one: "o oră", few: "ore", other: "de ore")): ridic-o până atunci."
        case .lowStock(let product, let size): return "Stoc redus: \(product), mărimea \(size)."
        case .outfitReminder(let outfit, let note): return note.isEmpty ? "Ținuta de azi: \(outfit)." : "Ținuta de azi: \(outfit), pentru \(note)."
        case .magazineIssue(let title): return "Nou în revistă: \(title)"
        case .weMissYou: return "Ne lipsești! Vezi ce e nou în magazinele din apropiere."
        case .newFromFollowedStores(let products, let stores):
            let pieces = ro.count(products, one: "Un articol nou", few: "articole noi", other: "de articole noi")
            let from = stores == 1 ? "un magazin pe care îl urmărești" : ro.count(stores, one: "", few: "magazine pe care le urmărești", other: "de magazine pe care le urmărești")
            return "\(pieces) de la \(from)."
        case .wishlistChanges(let items):
            return items == 1
                ? "Un articol din lista ta de dorințe este din nou în stoc sau mai ieftin."
                : "\(ro.count(items, one: "", few: "articole", other: "de articole")) din lista ta de dorințe sunt din nou în stoc sau mai ieftine."
        }
    }
}
