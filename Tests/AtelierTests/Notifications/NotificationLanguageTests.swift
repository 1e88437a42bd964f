import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Notifications: English and Romanian, with plural forms")
struct NotificationLanguageTests {
    @Test("Romanian plural forms follow CLDR: one (1), few (0, 2–19 and 101–119…), other ('de': 20, 100, 120…)")
    func romanianPlurals() {
        let ro = NotificationLanguage.ro
        let photos = [0, 1, 2, 19, 20, 100, 101, 119, 120].map { ro.count($0, one: "o fotografie", few: "fotografii", other: "de fotografii") }
        #expect(photos == [
            "0 fotografii", "o fotografie", "2 fotografii", "19 fotografii", "20 de fotografii", "100 de fotografii", "101 fotografii",
            "119 fotografii", "120 de fotografii",
        ])
        #expect(NotificationLanguage.en.count(1, one: "1 new piece", other: "new pieces") == "1 new piece")
        #expect(NotificationLanguage.en.count(12, one: "1 new piece", other: "new pieces") == "12 new pieces")
        #expect(NotificationLanguage(locale: "ro-RO") == .ro)
        #expect(NotificationLanguage(locale: "sv_SE") == .en)
    }

    @Test("grouped and digest texts in both languages")
    func texts() {
        let reaction = NotificationMessage.reaction(actor: "Bea", emoji: "❤️")
        #expect(reaction.grouped(firstActor: "Ana", count: 10, in: .en) == "Ana and 9 others reacted to your outfit.")
        #expect(reaction.grouped(firstActor: "Ana", count: 2, in: .en) == "Ana and 1 other reacted to your outfit.")
        #expect(reaction.grouped(firstActor: "Ana", count: 2, in: .ro) == "Ana și încă o persoană au reacționat la ținuta ta.")
        #expect(reaction.grouped(firstActor: "Ana", count: 10, in: .ro) == "Ana și încă 9 persoane au reacționat la ținuta ta.")
        #expect(reaction.grouped(firstActor: "Ana", count: 21, in: .ro) == "Ana și încă 20 de persoane au reacționat la ținuta ta.")
        #expect(NotificationMessage.newFromFollowedStores(products: 12, stores: 3).text(in: .en) == "12 new pieces from 3 stores you follow.")
        #expect(NotificationMessage.newFromFollowedStores(products: 1, stores: 1).text(in: .en) == "1 new piece from a store you follow.")
        #expect(NotificationMessage.newFromFollowedStores(products: 12, stores: 3).text(in: .ro) == "12 articole noi de la 3 magazine pe care le urmărești.")
        #expect(NotificationMessage.newFromFollowedStores(products: 25, stores: 1).text(in: .ro) == "25 de articole noi de la un magazin pe care îl urmărești.")
        #expect(NotificationMessage.newFromFollowedStores(products: 1, stores: 1).text(in: .ro) == "Un articol nou de la un magazin pe care îl urmărești.")
        #expect(NotificationMessage.momentStarting(moment: "Picnic", minutes: 60).text(in: .ro) == "„Picnic” începe peste o oră.")
        #expect(NotificationMessage.momentStarting(moment: "Picnic", minutes: 45).text(in: .en) == "“Picnic” starts in 45 minutes.")
        #expect(NotificationMessage.reservationExpiring(number: 7, store: "Nord", hours: 3).text(in: .ro)
            == "Rezervarea ta de la Nord (comanda 7) expiră peste 3 ore: ridic-o până atunci.")
        #expect(NotificationMessage.wishlistChanges(items: 20).text(in: .ro) == "20 de articole din lista ta de dorințe sunt din nou în stoc sau mai ieftine.")
    }

    @Test("the inbox is written in the recipient's language; each push in its device's, else the account's")
    func recipientAndDeviceLanguages() async throws {
        try await TestApp.with { t in
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            let ana = try await t.signUp(name: "Ana")
            let radu = try await t.signUp(name: "Radu")
            #expect(try await t.send(.PATCH, "/api/v1/me", json: #"{"locale":"ro-RO"}"#, token: radu.accessToken).status == .ok)
            let english = try await t.registerPhone(radu, suffix: "e1")
            #expect(try await t.send(.PUT, "/api/v1/me/devices/\(english)", json: #"{"platform":"apns","locale":"en"}"#, token: radu.accessToken).status == .ok)
            let romanian = try await t.registerPhone(radu, suffix: "b1")

            let asked = try await t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(radu.user.id)"}"#, token: ana.accessToken)
            #expect(asked.status == .created)
            try await t.runJobs()
            #expect(try await t.inbox(radu, kind: .friendRequest).map(\.text) == ["Ana ți-a trimis o cerere de prietenie."])
            let byDevice = Dictionary(uniqueKeysWithValues: zip(sender.targets.map(\.token), sender.messages.map(\.text)))
            #expect(byDevice[english] == "Ana sent you a friend request.")
            #expect(byDevice[romanian] == "Ana ți-a trimis o cerere de prietenie.")
        }
    }
}
