import Fluent
import Foundation

/// Stores: created by admins, edited by their staff, suspended by admins.
struct StoreService {
    struct Creation: Sendable {
        var name: String
        var slug: String?
        var street: String
        var postalCode: String = ""
        var city: String
        var lat: Double
        var lng: Double
        var ownerEmail: String?
        var timeZone: String = "UTC"
        /// The owner by account, when there is no address to look them up by (an approved application).
        var ownerID: UUID? = nil
        /// What else comes with the new store, inside its transaction; a Problem it throws leaves no store.
        var joining: (@Sendable (Store, any Database) async throws -> Void)? = nil
    }

    /// Absent fields stay as they are.
    struct ProfileUpdate: Sendable {
        var name: String?
        var about: String?
        var phone: String?
        var email: String?
        var website: String?
        var street: String?
        var postalCode: String?
        var city: String?
        var location: (lat: Double, lng: Double)?
        var timeZone: String?
        var openingHours: [OpeningHours]?
        var logoID: UUID?
        var coverID: UUID?
    }

    let db: any Database
    let core: CoreServices
    let catalogChanges: CatalogChanges
    let catalogIndexing: any CatalogIndexing
    let mailOutbox: MailOutbox
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }

    /// Active stores the caller may see (`visibility`), newest first.
    func list(query: String?, page: PageRequest, visibility: StoreVisibility = .publicOnly) async throws -> Page<Store> {
        var builder = Store.query(on: db).filter(\.$status == Store.Status.active.rawValue)
        builder = visibility.isPublicOnly
            ? builder.filter(\.$membersOnly == false)
            : builder.group(.or) { $0.filter(\.$membersOnly == false).filter(\.$id ~~ visibility.membersOnlyStoreIDs) }
        if let words = query?.trimmingCharacters(in: .whitespaces).lowercased(), !words.isEmpty {
            builder = builder.filter(\.$slug ~~ Slug.make(words))
        }
        let rows = try await builder.newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    func create(_ input: Creation) async throws -> Store {
        var errors = FieldErrors()
        let name = input.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if !(1...120).contains(name.count) { errors.add("name", "must be 1 to 120 characters") }
        let slug = Slug.make(input.slug ?? name)
        if slug.isEmpty || slug.count > 80 { errors.add("slug", "must have 1 to 80 letters or digits") }
        if UUID(uuidString: slug) != nil { errors.add("slug", "must not look like an id") }
        if input.street.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("street", "is required") }
        if input.city.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("city", "is required") }
        _ = AccountRules.location(lat: input.lat, lng: input.lng, field: "location", into: &errors)
        _ = AccountRules.timeZone(input.timeZone, into: &errors)
        var owner: User?
        if let email = input.ownerEmail {
            owner = try await User.query(on: db).filter(\.$email == email.trimmingCharacters(in: .whitespaces).lowercased()).first()
            if owner == nil { errors.add("ownerEmail", "belongs to no account") }
        } else if let ownerID = input.ownerID {
            owner = try await User.find(ownerID, on: db)
            if owner == nil { errors.add("ownerId", "belongs to no account") }
        }
        try errors.throwIfAny()
        let newOwner = owner
        if try await Store.query(on: db).filter(\.$slug == slug).count() > 0 {
            throw Problem.conflict("Another store already uses the address name \(slug).", field: "slug")
        }
        let store = Store()
        store.id = .v7(at: now)
        store.name = name
        store.slug = slug
        store.about = ""
        store.phone = ""
        store.email = ""
        store.website = ""
        store.street = input.street.trimmingCharacters(in: .whitespaces)
        store.postalCode = input.postalCode.trimmingCharacters(in: .whitespaces)
        store.city = input.city.trimmingCharacters(in: .whitespaces)
        store.lat = input.lat
        store.lng = input.lng
        store.openingHours = []
        store.timeZone = input.timeZone
        store.status = Store.Status.active.rawValue
        store.membersOnly = false
        store.followerCount = 0
        store.activeProductCount = 0
        store.createdAt = now
        store.updatedAt = now
        try await db.transaction { tx in
            try await store.create(on: tx)
            if let newOwner { try await StaffService(db: tx, core: core, mailOutbox: mailOutbox).addMember(newOwner, to: store, role: .owner) }
            try await input.joining?(store, tx)
        }
        return store
    }

    func update(_ store: Store, with update: ProfileUpdate, by user: User) async throws -> Store {
        var errors = FieldErrors()
        func text(_ value: String?, _ field: String, max: Int, required: Bool = false) -> String? {
            guard let value else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.count > max { errors.add(field, "must be at most \(max) characters") }
            if required, trimmed.isEmpty { errors.add(field, "is required") }
            return trimmed
        }
        let name = text(update.name, "name", max: 120, required: true)
        let about = text(update.about, "about", max: 5000)
        let phone = text(update.phone, "phone", max: 40)
        let email = text(update.email, "email", max: 200)
        if let email, !email.isEmpty, !(email.contains("@") && email.contains(".")) { errors.add("email", "is not an email address") }
        let website = text(update.website, "website", max: 500)
        if let website, !website.isEmpty, URL(string: website)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            errors.add("website", "must start with http:// or https://")
        }
        let street = text(update.street, "street", max: 200, required: true)
        let postalCode = text(update.postalCode, "postalCode", max: 20)
        let city = text(update.city, "city", max: 100, required: true)
        if let location = update.location { _ = AccountRules.location(lat: location.lat, lng: location.lng, field: "location", into: &errors) }
        if let hours = update.openingHours { Self.validate(hours, into: &errors) }
        if let zone = update.timeZone { _ = AccountRules.timeZone(zone, into: &errors) }
        let media = MediaService(db: db, core: core, mediaLibrary: mediaLibrary)
        for (field, id) in [("logoId", update.logoID), ("coverId", update.coverID)] {
            guard let id else { continue }
            let found = try? await media.visible(id, to: user.id)
            let ownedHere = found.map { $0.ownerType == "store" && $0.ownerID == store.id } ?? false
            if found == nil || (found!.ownerType != nil && !ownedHere) || (!ownedHere && found!.$uploader.id != user.id) {
                errors.add(field, "is not an upload of yours")
            }
        }
        try errors.throwIfAny()
        let renamed = name.map { $0 != store.name } ?? false
        if let name { store.name = name }
        if let zone = update.timeZone { store.timeZone = zone }
        if let about { store.about = about }
        if let phone { store.phone = phone }
        if let email { store.email = email.lowercased() }
        if let website { store.website = website }
        if let street { store.street = street }
        if let postalCode { store.postalCode = postalCode }
        if let city { store.city = city }
        if let location = update.location { (store.lat, store.lng) = (location.lat, location.lng) }
        if let hours = update.openingHours { store.openingHours = hours.sorted { ($0.weekday, $0.opens) < ($1.weekday, $1.opens) } }
        let replaced = [update.logoID.flatMap { _ in store.logoMediaID }, update.coverID.flatMap { _ in store.coverMediaID }]
            .compactMap { $0 }.filter { $0 != update.logoID && $0 != update.coverID }
        if let logo = update.logoID { store.logoMediaID = logo }
        if let cover = update.coverID { store.coverMediaID = cover }
        store.updatedAt = now
        try await core.writeTransaction(on: db) { [store] tx in
            try await store.save(on: tx)
            if renamed { try await catalogIndexing.refresh(.store(store.requireID()), in: tx) }
            let ids = [update.logoID, update.coverID].compactMap { $0 }
            if !ids.isEmpty {
                try await Media.query(on: tx).filter(\.$id ~~ ids).set(\.$ownerType, to: "store").set(\.$ownerID, to: store.id)
                    .set(\.$attachedAt, to: now).set(\.$visibility, to: Media.Visibility.public.rawValue).update()
            }
        }
        await catalogChanges.announce()
        for id in replaced { if let old = try await Media.find(id, on: db) { try await media.delete(old) } }
        return store
    }

    func setStatus(_ store: Store, _ status: Store.Status) async throws -> Store {
        store.status = status.rawValue
        store.updatedAt = now
        try await store.save(on: db)
        await catalogChanges.announce()
        return store
    }

    static func validate(_ hours: [OpeningHours], into errors: inout FieldErrors) {
        let time = #"^([01][0-9]|2[0-3]):[0-5][0-9]$"#
        for (index, entry) in hours.enumerated() {
            if !(1...7).contains(entry.weekday) { errors.add("openingHours[\(index)].weekday", "must be 1 (Monday) to 7 (Sunday)") }
            let opensOK = entry.opens.range(of: time, options: .regularExpression) != nil
            let closesOK = entry.closes.range(of: time, options: .regularExpression) != nil
            if !opensOK { errors.add("openingHours[\(index)].opens", "must be a time like 10:00") }
            if !closesOK { errors.add("openingHours[\(index)].closes", "must be a time like 18:00") }
            if opensOK, closesOK, entry.closes <= entry.opens { errors.add("openingHours[\(index)].closes", "must be after the opening time") }
        }
        if hours.count > 21 { errors.add("openingHours", "may hold at most three periods a day") }
    }
}
