import Vapor

/// The settings page (profile, password, email), data export and account deletion.
enum SettingsWebRoutes {
    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.get("settings") { req in try await renderSettings(req) }
        signedIn.post("settings", use: saveProfile)
        signedIn.post("settings", "password", use: changePassword)
        signedIn.post("settings", "sign-out-everywhere", use: signOutEverywhere)
        signedIn.post("settings", "email", use: changeEmail)
        signedIn.get("settings", "export", use: export)
        signedIn.get("settings", "delete") { req in
            try await AccountsWebRoutes.render(req, "accounts/delete-account", title: "Delete account")
        }
        signedIn.post("settings", "delete", use: deleteAccount)
    }

    static let timeZones: FormValue = .list(AccountRules.timeZoneIdentifiers)

    static func currentValues(_ user: User) -> [String: String] {
        var values = [
            "displayName": user.displayName, "username": user.username, "about": user.about ?? "",
            "birthDate": user.birthDate ?? "", "genderPreference": user.genderPreference, "homeCity": user.homeCity ?? "",
            "radiusKm": String(user.radiusKm), "locale": user.locale, "timeZone": user.timeZone,
        ]
        if let pending = user.pendingEmail { values["pendingEmail"] = pending }
        return values
    }

    static func renderSettings(
        _ req: Request, status: HTTPStatus = .ok, values: [String: String]? = nil, errors: [String: String] = [:],
        formError: String? = nil, notificationValues: [String: FormValue] = [:]
    ) async throws -> Response {
        let user = try req.requireWebUser()
        var extra: [String: FormValue] = [:]
        for section in req.application.webAccountParts.settingsSections {
            extra.merge(try await section(req, user)) { $1 }
        }
        extra.merge(notificationValues) { $1 }
        extra["timeZones"] = timeZones
        return try await AccountsWebRoutes.render(
            req, "accounts/settings", title: "Settings", status: status, values: values ?? currentValues(user),
            errors: errors, formError: formError, extra: extra)
    }

    struct ProfileForm: Content {
        var displayName: String?
        var username: String?
        var about: String?
        var birthDate: String?
        var genderPreference: String?
        var homeCity: String?
        var radiusKm: String?
        var locale: String?
        var timeZone: String?
    }

    static func saveProfile(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let form = try req.content.decode(ProfileForm.self)
        var patch = ProfilePatch()
        func text(_ value: String?) -> Patch<String> { value.map { .value($0) } ?? .absent }
        func optionalText(_ value: String?) -> Patch<String> {
            guard let value else { return .absent }
            return value.trimmingCharacters(in: .whitespaces).isEmpty ? .null : .value(value)
        }
        patch.displayName = text(form.displayName)
        patch.username = text(form.username)
        patch.about = optionalText(form.about)
        patch.birthDate = optionalText(form.birthDate)
        patch.genderPreference = text(form.genderPreference)
        patch.homeCity = optionalText(form.homeCity)
        patch.locale = text(form.locale)
        patch.timeZone = text(form.timeZone)
        if let radius = form.radiusKm { patch.radiusKm = .value(Int(radius) ?? 0) }

        var submitted = currentValues(user)
        let formValues: [String: String?] = [
            "displayName": form.displayName, "username": form.username, "about": form.about, "birthDate": form.birthDate,
            "genderPreference": form.genderPreference, "homeCity": form.homeCity, "radiusKm": form.radiusKm,
            "locale": form.locale, "timeZone": form.timeZone,
        ]
        for case let (key, value?) in formValues { submitted[key] = value }
        return try await handle(req, values: submitted) {
            _ = try await ProfileService(db: req.db, core: req.core).update(user, with: patch)
            return AccountsWebRoutes.redirect(req, to: "/settings", flash: ("success", "Settings saved."))
        }
    }

    struct PasswordForm: Content {
        var currentPassword: String?
        var newPassword: String?
    }

    static func changePassword(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let form = try req.content.decode(PasswordForm.self)
        return try await handle(req, values: currentValues(user)) {
            _ = try await AccountService(db: req.db, core: req.core, accountParts: req.atelier.accountParts, mailOutbox: req.atelier.mailOutbox)
                .changePassword(for: user, current: form.currentPassword ?? "", new: form.newPassword ?? "")
            try await req.signInWebSession(user)
            return AccountsWebRoutes.redirect(req, to: "/settings", flash: ("success", "Password changed."))
        }
    }

    /// Every session of the account ends, this browser's too: back to the sign-in page.
    static func signOutEverywhere(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        try await AccountService(db: req.db, core: req.core, accountParts: req.atelier.accountParts, mailOutbox: req.atelier.mailOutbox).signOutEverywhere(user)
        req.signOutWebSession()
        return AccountsWebRoutes.redirect(req, to: "/signin", flash: ("success", "Signed out on every device and browser."))
    }

    struct EmailChangeForm: Content {
        var newEmail: String?
        var password: String?
    }

    static func changeEmail(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let form = try req.content.decode(EmailChangeForm.self)
        var values = currentValues(user)
        values["newEmail"] = form.newEmail ?? ""
        return try await handle(req, values: values) {
            let updated = try await AccountService(db: req.db, core: req.core, accountParts: req.atelier.accountParts, mailOutbox: req.atelier.mailOutbox)
                .changeEmail(for: user, newEmail: form.newEmail ?? "", password: form.password ?? "")
            return AccountsWebRoutes.redirect(
                req, to: "/settings", flash: ("success", "We sent a link to \(updated.pendingEmail ?? "the new address") to confirm the change."))
        }
    }

    static func export(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let url = try await AccountExport(db: req.db, core: req.core, accountParts: req.atelier.accountParts, fileWorkers: req.atelier.fileWorkers).write(for: user, profile: ExportProfile(user))
        let response = try await req.fileio.asyncStreamFile(at: url.path) { _ in
            try? FileManager.default.removeItem(at: url)
        }
        response.headers.contentType = HTTPMediaType(type: "application", subType: "zip")
        response.headers.replaceOrAdd(name: .contentDisposition, value: ContentDisposition.attachment(fileName: "atelier-export.zip"))
        return response
    }

    struct DeleteForm: Content {
        var password: String?
    }

    static func deleteAccount(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let form = try req.content.decode(DeleteForm.self)
        return try await AccountsWebRoutes.handleForm(req, "accounts/delete-account", title: "Delete account", values: [:]) {
            try await AccountService(db: req.db, core: req.core, accountParts: req.atelier.accountParts, mailOutbox: req.atelier.mailOutbox).deleteAccount(user, password: form.password ?? "")
            req.signOutWebSession()
            return AccountsWebRoutes.redirect(req, to: "/", flash: ("success", "Your account is deleted."))
        }
    }

    private static func handle(_ req: Request, values: [String: String], action: () async throws -> Response) async throws -> Response {
        do {
            return try await action()
        } catch let problem as Problem where problem.status.code < 500 {
            return try await renderSettings(
                req, status: problem.status, values: values, errors: problem.messagesByField,
                formError: problem.errors.isEmpty ? problem.detail : nil)
        }
    }
}

/// The profile as it goes into the web export (the API export uses the API's `Me` shape).
struct ExportProfile: Encodable {
    var id: String?
    var email: String?
    var displayName: String
    var username: String
    var about: String?
    var birthDate: String?
    var genderPreference: String
    var homeCity: String?
    var homeLat: Double?
    var homeLng: Double?
    var radiusKm: Int
    var locale: String
    var timeZone: String
    var createdAt: Date

    init(_ user: User) {
        id = user.id?.idString
        email = user.email
        displayName = user.displayName
        username = user.username
        about = user.about
        birthDate = user.birthDate
        genderPreference = user.genderPreference
        homeCity = user.homeCity
        homeLat = user.homeLat
        homeLng = user.homeLng
        radiusKm = user.radiusKm
        locale = user.locale
        timeZone = user.timeZone
        createdAt = user.createdAt
    }
}

/// Pages behind sign-in send signed-out visitors to the sign-in page and back afterwards.
struct RequireWebUser: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.webSessionUser != nil else {
            let next = request.url.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/"
            return request.redirect(to: "/signin?next=\(next)", redirectType: .normal)
        }
        return try await next.respond(to: request)
    }
}

extension Request {
    func requireWebUser() throws -> User {
        guard let user = webSessionUser else { throw Problem.unauthorized("Sign in first.") }
        return user
    }
}
