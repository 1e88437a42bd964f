import Fluent
import OpenAPIRuntime
import Vapor

/// Store portal pages besides products: the store profile, staff, and stats with open reports.
enum PortalStorePages {
    static func register(_ store: any RoutesBuilder) {
        store.get("profile", use: profile)
        store.on(.POST, "profile", body: .collect(maxSize: PortalProductForm.maxBodySize), use: saveProfile)
        store.post("brand-proposals", use: proposeBrand)
        store.get("staff", use: staff)
        store.post("staff", use: invite)
        store.post("staff", ":memberID", "remove", use: removeStaff)
        store.get("stats", use: stats)
        store.post("reports", ":reportID", "resolve", use: resolveReport)
    }

    struct ProfileForm: Content {
        var name: String?
        var about: String?
        var phone: String?
        var email: String?
        var website: String?
        var street: String?
        var postalCode: String?
        var city: String?
        var lat: String?
        var lng: String?
        var timeZone: String?
        var opens: [String]?
        var closes: [String]?
        var logo: File?
        var cover: File?
    }

    struct HoursRow: Encodable {
        var weekday: Int
        var day: String
        var opens: String
        var closes: String
    }

    struct ProfilePage: WebPageContext {
        var page: PageContext
        var store: PortalRoutes.StoreNav
        var values: [String: String]
        var errors: [String: String]
        var formError: String?
        var hours: [HoursRow]
        var logo: WebImage?
        var cover: WebImage?
        /// Opening hours are read in the store's time zone ("open now", pickup times).
        var timeZones = AccountRules.timeZoneIdentifiers
    }

    static func profile(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "profile")
        let values = [
            "name": store.name, "about": store.about, "phone": store.phone, "email": store.email, "website": store.website,
            "street": store.street, "postalCode": store.postalCode, "city": store.city, "lat": String(store.lat), "lng": String(store.lng),
            "timeZone": store.timeZone,
        ]
        let hours = (1...7).map { day in
            let entry = store.openingHours.first { $0.weekday == day }
            return HoursRow(weekday: day, day: PublicCatalogPages.weekdays[day - 1], opens: entry?.opens ?? "", closes: entry?.closes ?? "")
        }
        let info = try await PublicCatalogPages.storeInfo(store, media: MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media))
        return try await req.renderPage("catalog/portal-profile", ProfilePage(
            page: PageContext(req, title: "\(store.name) · profile"), store: nav, values: values, errors: [:], formError: nil, hours: hours,
            logo: info.logo, cover: info.cover))
            .encodeResponse(for: req)
    }

    static func saveProfile(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "profile")
        let form = try req.content.decode(ProfileForm.self)
        var errors = FieldErrors()
        let lat = Double((form.lat ?? "").replacingOccurrences(of: ",", with: "."))
        let lng = Double((form.lng ?? "").replacingOccurrences(of: ",", with: "."))
        if lat == nil { errors.add("lat", "must be a number like 57.7072") }
        if lng == nil { errors.add("lng", "must be a number like 11.9668") }
        var hours: [OpeningHours] = []
        var rows: [HoursRow] = []
        for day in 1...7 {
            let opens = (form.opens?[safe: day - 1] ?? "").trimmingCharacters(in: .whitespaces)
            let closes = (form.closes?[safe: day - 1] ?? "").trimmingCharacters(in: .whitespaces)
            rows.append(HoursRow(weekday: day, day: PublicCatalogPages.weekdays[day - 1], opens: opens, closes: closes))
            if opens.isEmpty, closes.isEmpty { continue }
            hours.append(OpeningHours(weekday: day, opens: opens, closes: closes))
        }
        let values = [
            "name": form.name ?? "", "about": form.about ?? "", "phone": form.phone ?? "", "email": form.email ?? "",
            "website": form.website ?? "", "street": form.street ?? "", "postalCode": form.postalCode ?? "", "city": form.city ?? "",
            "lat": form.lat ?? "", "lng": form.lng ?? "", "timeZone": form.timeZone ?? store.timeZone,
        ]
        let user = try req.requireWebUser()
        var logoID: UUID?
        var coverID: UUID?
        for (field, file) in [("logo", form.logo), ("cover", form.cover)] {
            guard let file, file.data.readableBytes > 0 else { continue }
            do {
                let media = try await MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).ingest(
                    .init(uploaderID: try user.requireID(), claimed: ImageFormat.claimed(mediaType: file.contentType?.description, filename: file.filename),
                          edits: .init(), visibility: .public),
                    body: HTTPBody(Array(file.data.readableBytesView)))
                if field == "logo" { logoID = media.id } else { coverID = media.id }
            } catch let problem as Problem where problem.status.code < 500 {
                errors.add(field, problem.detail ?? problem.title)
            }
        }
        do {
            try errors.throwIfAny()
            let update = StoreService.ProfileUpdate(
                name: form.name, about: form.about, phone: form.phone, email: form.email, website: form.website, street: form.street,
                postalCode: form.postalCode, city: form.city, location: (lat!, lng!), timeZone: form.timeZone, openingHours: hours,
                logoID: logoID, coverID: coverID)
            _ = try await StoreService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mailOutbox: req.atelier.mailOutbox, mediaLibrary: req.atelier.media).update(store, with: update, by: user)
            Flash.set("success", "The store profile is saved.", on: req)
            return req.redirect(to: "/portal/stores/\(nav.id)/profile")
        } catch let problem as Problem where problem.status.code < 500 {
            var fields = problem.messagesByField
            for (field, message) in problem.messagesByField where field.hasPrefix("openingHours") {
                fields["hours"] = message
            }
            if let location = fields["location"] { fields["lat"] = location }
            let info = try await PublicCatalogPages.storeInfo(store, media: MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media))
            return try await req.renderPage("catalog/portal-profile", ProfilePage(
                page: PageContext(req, title: "\(store.name) · profile"), store: nav, values: values, errors: fields,
                formError: "Check the fields marked below.", hours: rows, logo: info.logo, cover: info.cover))
                .encodeResponse(status: problem.status, for: req)
        }
    }

    static func proposeBrand(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "products")
        let name = (try? req.content.get(String.self, at: "name")) ?? ""
        do {
            let brand = try await BrandService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges, catalogIndexing: req.atelier.catalogIndexing, mediaLibrary: req.atelier.media)
                .create(name: name, logoID: nil, status: .proposed, proposedBy: store.requireID(), by: try req.requireWebUser())
            Flash.set("success", "\(brand.name) can be used by \(store.name) now, and by everyone once an admin approves it.", on: req)
        } catch let problem as Problem where problem.status.code < 500 {
            Flash.set("error", problem.errors.first?.message ?? problem.detail ?? problem.title, on: req)
        }
        return req.redirect(to: "/portal/stores/\(nav.id)/products")
    }

    struct StaffPage: WebPageContext {
        var page: PageContext
        var store: PortalRoutes.StoreNav
        var members: [Member]
        var values: [String: String]
        var errors: [String: String]
    }

    struct Member: Encodable {
        var id: String
        var name: String
        var email: String
        var role: String
        var pending: Bool
    }

    static func staff(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "staff")
        return try await renderStaff(req, store: store, nav: nav)
    }

    static func renderStaff(
        _ req: Request, store: Store, nav: PortalRoutes.StoreNav, values: [String: String] = [:], errors: [String: String] = [:],
        status: HTTPStatus = .ok
    ) async throws -> Response {
        let entries = try await StaffService(db: req.db, core: req.core, mailOutbox: req.atelier.mailOutbox).list(store)
        let members = entries.map { Member(id: $0.id.idString, name: $0.displayName ?? $0.email, email: $0.email, role: $0.role.rawValue, pending: $0.pending) }
        return try await req.renderPage("catalog/portal-staff", StaffPage(
            page: PageContext(req, title: "\(store.name) · staff"), store: nav, members: members, values: values, errors: errors))
            .encodeResponse(status: status, for: req)
    }

    struct InviteForm: Content {
        var email: String?
        var role: String?
    }

    static func invite(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "staff", ownerOnly: true)
        let form = try req.content.decode(InviteForm.self)
        do {
            let entry = try await StaffService(db: req.db, core: req.core, mailOutbox: req.atelier.mailOutbox).invite(
                email: form.email ?? "", role: form.role == "owner" ? .owner : .staff, to: store, by: try req.requireWebUser())
            Flash.set("success", entry.pending ? "Invitation sent to \(entry.email)." : "\(entry.email) was added.", on: req)
            return req.redirect(to: "/portal/stores/\(nav.id)/staff")
        } catch let problem as Problem where problem.status.code < 500 {
            var errors = problem.messagesByField
            if errors.isEmpty { errors["email"] = problem.detail ?? problem.title }
            return try await renderStaff(req, store: store, nav: nav, values: ["email": form.email ?? ""], errors: errors, status: problem.status)
        }
    }

    static func removeStaff(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "staff", ownerOnly: true)
        guard let id = req.parameters.get("memberID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("member") }
        do {
            try await StaffService(db: req.db, core: req.core, mailOutbox: req.atelier.mailOutbox).remove(id, from: store)
            Flash.set("success", "Removed.", on: req)
        } catch let problem as Problem where problem.status == .conflict {
            Flash.set("error", problem.detail ?? problem.title, on: req)
        }
        return req.redirect(to: "/portal/stores/\(nav.id)/staff")
    }

    struct StatsPage: WebPageContext {
        var page: PageContext
        var store: PortalRoutes.StoreNav
        var charts: [StatsChart.Chart]
        var totals: [String: Int]
        var reports: [Report]
    }

    struct Report: Encodable {
        var id: String
        var productTitle: String
        var productURL: String
        var note: String
        var date: String
    }

    static func stats(_ req: Request) async throws -> View {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "stats")
        try await req.atelier.catalogCounters.flush(on: req.db)
        let series = try await StoreStatsService(db: req.db, core: req.core).series(storeID: store.requireID(), days: 90)
        let reports = try await UnavailableReportService(db: req.db, core: req.core).open(for: store.requireID(), page: PageRequest(limit: 100, cursor: nil))
        let currency = try await Product.query(on: req.db).filter(\.$store.$id == store.requireID()).first()?.currency ?? "SEK"
        let charts = StatsChart.charts(series, currency: currency)
        return try await req.renderPage("catalog/portal-stats", StatsPage(
            page: PageContext(req, title: "\(store.name) · stats"), store: nav, charts: charts,
            totals: Dictionary(uniqueKeysWithValues: charts.map { ($0.key, $0.total) }),
            reports: reports.items.map {
                Report(id: $0.id!.idString, productTitle: $0.product.title, productURL: "/products/\($0.$product.id.idString)",
                       note: $0.note, date: StatsDay.string($0.createdAt))
            }))
    }

    static func resolveReport(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "stats")
        guard let id = req.parameters.get("reportID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("report") }
        _ = try await UnavailableReportService(db: req.db, core: req.core).resolve(id, in: store.requireID())
        Flash.set("success", "Marked as handled.", on: req)
        return req.redirect(to: "/portal/stores/\(nav.id)/stats")
    }
}
