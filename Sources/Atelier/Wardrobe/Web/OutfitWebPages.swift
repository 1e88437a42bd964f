import Fluent
import Foundation
import Vapor

/// Outfits on the web: the builder (drag cut-outs onto the canvas), the outfit page with its
/// plan and worn buttons, the calendar month and the suggestions.
enum OutfitWebPages {
    struct BuilderPage: WebPageContext {
        var page: PageContext
        var items: [ClosetCard]
        var occasions: [String]
    }

    struct OutfitPage: WebPageContext {
        var page: PageContext
        var outfit: OutfitCard
        var pieces: [ClosetCard]
        var tomorrow: String
        var today: String
        var plans: [PlanRow]
    }

    struct PlanRow: Encodable { var id: String; var date: String; var note: String; var worn: Bool }

    struct ListPage: WebPageContext {
        var page: PageContext
        var outfits: [OutfitCard]
    }

    struct SuggestionRow: Encodable {
        var items: [ClosetCard]
        var ids: String
        var reasons: [String]
    }

    struct SuggestionsPage: WebPageContext {
        var page: PageContext
        var suggestions: [SuggestionRow]
        var temperature: String
    }

    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.get("outfits", use: listPage)
        signedIn.get("outfits", "new", use: builderPage)
        signedIn.get("outfits", "suggestions", use: suggestionsPage)
        OutfitLikeWebPages.register(signedIn)
        signedIn.post("outfits", use: create)
        signedIn.get("outfits", ":outfitID", use: outfitPage)
        signedIn.post("outfits", ":outfitID", "plan", use: plan)
        signedIn.post("outfits", ":outfitID", "worn", use: worn)
        signedIn.post("outfits", ":outfitID", "pin", use: pin)
        WardrobeCalendarPage.register(signedIn)
    }

    static func listPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let page = try await OutfitService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).list(of: user.requireID(), page: PageRequest(limit: 100, cursor: nil))
        return try await req.renderPage("wardrobe/outfits", ListPage(page: PageContext(req, title: "My outfits"), outfits: try await OutfitCard.cards(page.items, req: req)))
    }

    static func builderPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let items = try await ClosetList(db: req.db).items(of: user.requireID(), filters: .init(), sort: "type", limit: 100, cursor: nil).items
        return try await req.renderPage("wardrobe/builder", BuilderPage(
            page: PageContext(req, title: "New outfit"), items: try await ClosetCard.cards(items, req: req),
            occasions: Outfit.Occasion.allCases.map(\.rawValue)))
    }

    /// The builder posts its layout as JSON in one field; suggestions post item ids (placed by slot).
    static func create(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        struct Form: Content { var name: String?; var occasion: String?; var visibility: String?; var layout: String?; var itemIds: String? }
        struct LayoutPiece: Decodable { var closetItemId: String; var x: Double?; var y: Double?; var scale: Double?; var z: Int? }
        var created: Outfit?
        let response = try await req.formAction(redirectTo: "/outfits/new") {
            let form = try req.content.decode(Form.self)
            var draft = OutfitDraft()
            draft.name = (form.name ?? "").isEmpty ? "Outfit" : form.name
            draft.occasion = form.occasion.flatMap { $0.isEmpty ? nil : .some($0) }
            draft.visibility = form.visibility ?? "private"
            if let layout = form.layout, !layout.isEmpty {
                guard layout.utf8.count < 20_000, let pieces = try? JSONDecoder().decode([LayoutPiece].self, from: Data(layout.utf8)) else {
                    throw Problem.invalid("layout", "is not a layout")
                }
                draft.pieces = try pieces.map { piece in
                    guard let id = UUID(uuidString: piece.closetItemId) else { throw Problem.invalid("layout", "names an item that is not one") }
                    return .init(closetItemID: id, x: piece.x, y: piece.y, scale: piece.scale, z: piece.z)
                }
            } else {
                draft.pieces = (form.itemIds ?? "").split(separator: ",").compactMap { UUID(uuidString: String($0)) }.map { .init(closetItemID: $0) }
            }
            guard draft.pieces?.isEmpty == false else { throw Problem.invalid("pieces", "drag at least one item onto the canvas") }
            created = try await OutfitService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).create(draft, owner: user)
            return "Saved. Its picture is being drawn."
        }
        if let created { return req.redirect(to: "/outfits/\(created.id!.idString)") }
        return response
    }

    static func outfitPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        guard let id = req.parameters.get("outfitID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("outfit") }
        guard let outfit = try await Outfit.find(id, on: req.db), outfit.ownerID == user.id else {
            return try await OutfitLikeWebPages.sharedOutfitPage(req, outfitID: id, viewer: user)
        }
        let pieces = try await OutfitPieces(db: req.db).pieces(of: outfit.requireID())
        let itemIDs = pieces.compactMap(\.closetItemID)
        let items = itemIDs.isEmpty ? [] : try await ClosetItem.query(on: req.db).filter(\.$id ~~ itemIDs).all()
        let plans = try await OutfitPlan.query(on: req.db).filter(\.$outfitID == outfit.requireID()).sort(\.$day, .descending).limit(30).all()
        let today = try await ClosetService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).today(user)
        return try await req.renderPage("wardrobe/outfit", OutfitPage(
            page: PageContext(req, title: outfit.name), outfit: try await OutfitCard.cards([outfit], req: req)[0],
            pieces: try await ClosetCard.cards(items, req: req), tomorrow: today.next.description, today: today.description,
            plans: plans.map { PlanRow(id: $0.id!.idString, date: $0.day, note: $0.note, worn: $0.wornAt != nil) }))
    }

    static func plan(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let outfit = try await ownOutfit(req, user: user)
        var month: String?
        let response = try await req.formAction(redirectTo: "/outfits/\(outfit.id!.idString)") {
            guard let raw = try? req.content.get(String.self, at: "date"), let day = LocalDay(raw), day.year >= 1970 else {
                throw Problem.invalid("date", "is not a date that exists")
            }
            let planned = try await WardrobeCalendar(db: req.db, core: req.core).plan(outfit, on: day, note: try? req.content.get(String.self, at: "note"))
            month = String(day.description.prefix(7))
            return planned.warning.map { "Planned for \(day). Note: \($0)" } ?? "Planned for \(day)."
        }
        return month.map { req.redirect(to: "/calendar?month=\($0)") } ?? response
    }

    static func worn(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let outfit = try await ownOutfit(req, user: user)
        let back = (try? req.content.get(String.self, at: "back")).flatMap { $0.hasPrefix("/") && !$0.hasPrefix("//") ? $0 : nil }
        return try await req.formAction(redirectTo: back ?? "/outfits/\(outfit.id!.idString)") {
            let raw = (try? req.content.get(String.self, at: "date")).flatMap { $0.isEmpty ? nil : $0 }
            let day = try WearLog.checkWornDay(raw, owner: user, now: req.atelier.clock.now())
            _ = try await WardrobeCalendar(db: req.db, core: req.core).markWorn(outfit, on: day)
            return "Marked as worn on \(day)."
        }
    }

    static func pin(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let outfit = try await ownOutfit(req, user: user)
        return try await req.formAction(redirectTo: "/outfits/\(outfit.id!.idString)") {
            let pinned = try await OutfitService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).setPinned(outfit, outfit.pinnedPosition == nil)
            return pinned.pinnedPosition == nil ? "Unpinned from your profile." : "Pinned to your profile."
        }
    }

    static func suggestionsPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let temperature = req.query[String.self, at: "temperature"].flatMap(Double.init).flatMap { $0.isFinite && abs($0) <= 60 ? $0 : nil }
        let today = try await ClosetService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).today(user)
        let suggestions = try await OutfitSuggestions(db: req.db).suggest(for: user.requireID(), today: today, .init(
            temperature: temperature, season: OutfitSuggestions.season(of: today), occasion: nil, restDays: 3, limit: 6))
        var rows: [SuggestionRow] = []
        for suggestion in suggestions {
            rows.append(SuggestionRow(
                items: try await ClosetCard.cards(suggestion.items, req: req),
                ids: suggestion.items.map { $0.id!.idString }.joined(separator: ","), reasons: suggestion.reasons))
        }
        return try await req.renderPage("wardrobe/suggestions", SuggestionsPage(
            page: PageContext(req, title: "What to wear"), suggestions: rows, temperature: temperature.map { String(Int($0.rounded())) } ?? ""))
    }

    static func ownOutfit(_ req: Request, user: User) async throws -> Outfit {
        guard let id = req.parameters.get("outfitID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("outfit") }
        return try await OutfitService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).own(id, of: user.requireID())
    }
}

/// The calendar month: planned and worn outfits per day, with a worn button on each plan.
enum WardrobeCalendarPage {
    struct Entry: Encodable { var outfit: OutfitCard; var note: String; var worn: Bool; var date: String }
    struct Day: Encodable { var date: String; var number: Int; var isToday: Bool; var entries: [Entry]; var wornItems: Int }
    struct Page: WebPageContext {
        var page: PageContext
        var month: String
        var title: String
        var previous: String
        var next: String
        var leadingBlanks: [Int]
        var days: [Day]
    }

    static func register(_ signedIn: any RoutesBuilder) {
        signedIn.get("calendar", use: monthPage)
    }

    static func monthPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let today = LocalDay(req.atelier.clock.now(), in: LocalDay.zone(user.timeZone))
        let raw = req.query[String.self, at: "month"] ?? String(today.description.prefix(7))
        let (first, days) = try await WardrobeCalendar(db: req.db, core: req.core).month(raw, ownerID: user.requireID())
        let outfitIDs = Array(Set(days.flatMap { $0.plans.map(\.outfitID) }))
        let outfits = outfitIDs.isEmpty ? [] : try await Outfit.query(on: req.db).filter(\.$id ~~ outfitIDs).all()
        let cards = Dictionary(uniqueKeysWithValues: try await OutfitCard.cards(outfits, req: req).map { ($0.id, $0) })
        let byDate = Dictionary(uniqueKeysWithValues: days.map { ($0.date, $0) })
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = LocalDay.utc
        let start = first.start(in: LocalDay.utc)
        let count = calendar.range(of: .day, in: .month, for: start)?.count ?? 30
        // Weeks start on Monday.
        let weekday = (calendar.component(.weekday, from: start) + 5) % 7
        let month = String(first.description.prefix(7))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = LocalDay.utc
        formatter.dateFormat = "LLLL yyyy"
        return try await req.renderPage("wardrobe/calendar", Page(
            page: PageContext(req, title: "Calendar"), month: month, title: formatter.string(from: start),
            previous: String(first.adding(days: -1).description.prefix(7)), next: String(first.adding(days: count).description.prefix(7)),
            leadingBlanks: Array(0..<weekday),
            days: (0..<count).map { offset in
                let day = first.adding(days: offset).description
                let found = byDate[day]
                return Day(
                    date: day, number: offset + 1, isToday: day == today.description,
                    entries: (found?.plans ?? []).compactMap { plan in
                        cards[plan.outfitID.idString].map { Entry(outfit: $0, note: plan.note, worn: plan.wornAt != nil, date: day) }
                    },
                    wornItems: Set(found?.wornItemIDs ?? []).count)
            }))
    }
}
