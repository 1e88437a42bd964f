import Fluent
import OpenAPIRuntime
import Vapor

/// The closet on the web: the grid with bulk upload (cut-outs appear as they are made), and the
/// item page with its wears and details.
enum ClosetWebPages {
    struct ClosetPage: WebPageContext {
        var page: PageContext
        var items: [ClosetCard]
        var types: [String]
        var selectedType: String?
        var pendingIDs: String
    }

    struct ItemPage: WebPageContext {
        var page: PageContext
        var item: ClosetCard
        var typeGuessed: Bool
        var favourite: Bool
        var types: [String]
        var size: String
        var price: String
        var currency: String
        var costPerWear: String?
        var notes: String
        var wornOn: [String]
        var archived: Bool
        var today: String
    }

    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.get("closet", use: closetPage)
        signedIn.on(.POST, "closet", "photos", body: .collect(maxSize: "200mb"), use: addPhotos)
        signedIn.get("closet", "status", use: status)
        signedIn.get("closet", "items", ":itemID", use: itemPage)
        signedIn.post("closet", "items", ":itemID", "worn", use: worn)
        signedIn.post("closet", "items", ":itemID", "favourite", use: favourite)
        signedIn.post("closet", "items", ":itemID", "edit", use: edit)
        signedIn.post("closet", "items", ":itemID", "archive", use: archive)
        signedIn.post("closet", "order-lines", ":lineID", use: addOrderLine)
    }

    /// "Add to my closet" on a receipt: the piece as bought, then its page; a piece already added
    /// opens its page again.
    static func addOrderLine(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let lineID = try req.pathID("lineID", "order line")
        let service = ClosetService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages)
        if let item = try await service.itemFrom(orderLine: lineID, owner: user.requireID()) {
            Flash.set("success", "This piece is in your closet already.", on: req)
            return req.redirect(to: "/closet/items/\(item.id!.idString)")
        }
        do {
            let item = try await service.addOrderLine(lineID, draft: ClosetItemDraft(), owner: user)
            Flash.set("success", "Added to your closet.", on: req)
            return req.redirect(to: "/closet/items/\(item.id!.idString)")
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", problem.detail ?? problem.title, on: req)
            return req.redirect(to: req.headers.first(name: .referer).flatMap(URL.init(string:))?.path ?? "/orders")
        }
    }

    static func closetPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let type = req.query[String.self, at: "type"].flatMap { ClosetItem.Kind(rawValue: $0) }?.rawValue
        let page = try await ClosetList(db: req.db).items(
            of: user.requireID(), filters: .init(types: type.map { [$0] } ?? []), sort: "newest", limit: 100, cursor: nil)
        let cards = try await ClosetCard.cards(page.items, req: req)
        return try await req.renderPage("wardrobe/closet", ClosetPage(
            page: PageContext(req, title: "My closet"), items: cards, types: ClosetItem.Kind.allCases.map(\.rawValue), selectedType: type,
            pendingIDs: cards.filter { $0.status == "pending" }.map(\.id).joined(separator: ",")))
    }

    /// Several photos at once: each is stored, then all become items in one transaction.
    static func addPhotos(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        struct Form: Content { var photos: [File]? }
        return try await req.formAction(redirectTo: "/closet") {
            let files = (try req.content.decode(Form.self).photos ?? []).filter { $0.data.readableBytes > 0 }
            guard !files.isEmpty else { throw Problem.invalid("photos", "choose one or more photos of garments") }
            guard files.count <= ClosetService.maxPhotosAtOnce else { throw Problem.invalid("photos", "at most \(ClosetService.maxPhotosAtOnce) at once") }
            let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
            var stored: [Media] = []
            do {
                for file in files {
                    let upload = MediaService.Upload(
                        uploaderID: try user.requireID(), claimed: ImageFormat.claimed(mediaType: file.contentType?.description, filename: file.filename),
                        edits: ImageEdits(), visibility: .private)
                    stored.append(try await media.ingest(upload, body: HTTPBody(Array(file.data.readableBytesView))))
                }
                _ = try await ClosetService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages)
                    .addPhotos(stored.map { .init(mediaID: $0.id!, maskMediaID: nil) }, draft: ClosetItemDraft(), owner: user)
            } catch {
                for media in stored { try? await MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).delete(media) }
                throw error
            }
            return files.count == 1 ? "Added. The cut-out is on its way." : "Added \(files.count) items. Their cut-outs are on their way."
        }
    }

    /// The cut-out state of some of the caller's items, for the grid to swap pictures in.
    static func status(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let ids = (req.query[String.self, at: "ids"] ?? "").split(separator: ",").prefix(100).compactMap { UUID(uuidString: String($0)) }
        let items = ids.isEmpty ? [] : try await ClosetItem.query(on: req.db).filter(\.$id ~~ ids).filter(\.$ownerID == user.requireID()).all()
        struct Row: Content { var id: String; var status: String; var src: String?; var type: String; var colours: String }
        struct Body: Content { var items: [Row] }
        let cards = try await ClosetCard.cards(items, req: req)
        let response = Response(status: .ok)
        try response.content.encode(Body(items: cards.map { Row(id: $0.id, status: $0.status, src: $0.src, type: $0.type, colours: $0.colours) }))
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    static func itemPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let item = try await ownItem(req, user: user)
        let card = try await ClosetCard.cards([item], req: req)[0]
        let wornOn = try await WearLog(db: req.db, core: req.core).days(of: item.requireID())
        let today = try await ClosetService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).today(user)
        func money(_ minor: Int?) -> String? {
            guard let minor, let currency = item.currency else { return nil }
            return String(format: "%.2f %@", Double(minor) / 100, currency)
        }
        return try await req.renderPage("wardrobe/item", ItemPage(
            page: PageContext(req, title: "\(item.colours.first?.label.capitalized ?? "") \(item.type)"), item: card, typeGuessed: item.typeGuessed,
            favourite: item.favourite, types: ClosetItem.Kind.allCases.map(\.rawValue), size: item.size ?? "",
            price: item.priceMinor.map { String(format: "%.2f", Double($0) / 100) } ?? "", currency: item.currency ?? "SEK",
            costPerWear: money(item.costPerWearMinor), notes: item.notes, wornOn: wornOn, archived: item.isArchived, today: today.description))
    }

    static func worn(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let item = try await ownItem(req, user: user)
        return try await req.formAction(redirectTo: "/closet/items/\(item.id!.idString)") {
            let raw = (try? req.content.get(String.self, at: "date")).flatMap { $0.isEmpty ? nil : $0 }
            let day = try WearLog.checkWornDay(raw, owner: user, now: req.atelier.clock.now())
            let added = try await WearLog(db: req.db, core: req.core).log([item.requireID()], on: day, outfitID: nil, ownerID: item.ownerID)
            return added.isEmpty ? "Already logged as worn on \(day)." : "Logged as worn on \(day)."
        }
    }

    /// Stars or unstars an item. The form says which (`favourite=true|false`), not "toggle", so a
    /// star queued offline and sent twice still means what was tapped.
    static func favourite(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let item = try await ownItem(req, user: user)
        return try await req.formAction(redirectTo: "/closet/items/\(item.id!.idString)") {
            guard let raw = try? req.content.get(String.self, at: "favourite"), let favourite = Bool(raw) else {
                throw Problem.invalid("favourite", "must be true or false")
            }
            var draft = ClosetItemDraft()
            draft.favourite = favourite
            _ = try await ClosetService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).update(item, draft: draft, owner: user)
            return favourite ? "Added to your favourites." : "Taken out of your favourites."
        }
    }

    static func edit(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let item = try await ownItem(req, user: user)
        struct Form: Content { var type: String?; var size: String?; var price: String?; var currency: String?; var notes: String?; var favourite: String? }
        return try await req.formAction(redirectTo: "/closet/items/\(item.id!.idString)") {
            let form = try req.content.decode(Form.self)
            var draft = ClosetItemDraft()
            draft.type = form.type
            draft.size = ClosetItemDraft.clearable(form.size)
            if let raw = form.price?.replacingOccurrences(of: ",", with: ".").trimmingCharacters(in: .whitespaces) {
                if raw.isEmpty {
                    draft.priceMinor = .some(nil)
                    draft.currency = .some(nil)
                } else {
                    guard let value = Double(raw), value.isFinite, abs(value) < 1e9 else { throw Problem.invalid("price", "is not an amount") }
                    draft.priceMinor = .some(Int((value * 100).rounded()))
                    draft.currency = .some(form.currency ?? "SEK")
                }
            }
            draft.notes = form.notes
            _ = try await ClosetService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).update(item, draft: draft, owner: user)
            return "Saved."
        }
    }

    static func archive(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let item = try await ownItem(req, user: user)
        return try await req.formAction(redirectTo: "/closet") {
            let reason = (try? req.content.get(String.self, at: "reason")).flatMap(ClosetItem.ArchiveReason.init(rawValue:))
            _ = try await ClosetService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).archive(item, reason: reason)
            return "Archived; it no longer counts in your closet."
        }
    }

    static func ownItem(_ req: Request, user: User) async throws -> ClosetItem {
        guard let id = req.parameters.get("itemID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("closet item") }
        return try await ClosetService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).own(id, of: user.requireID())
    }
}
