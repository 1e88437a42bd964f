import Fluent
import Vapor

/// Sign-up, sign-in, sign-out, forgot/reset password and email verification pages.
enum AccountsWebRoutes {
    static func register(_ web: any RoutesBuilder) {
        web.get("signup") { req in try await render(req, "accounts/signup", title: "Create an account") }
        web.post("signup", use: signUp)
        web.get("signin") { req in
            try await render(req, "accounts/signin", title: "Sign in", values: ["next": safeNext(req.query["next"]) ?? ""])
        }
        web.post("signin", use: signIn)
        web.post("signout") { req -> Response in
            for step in req.application.webAccountParts.signOutSteps { try await step(req) }
            req.signOutWebSession()
            return redirect(req, to: "/", flash: ("success", "You are signed out."))
        }
        web.get("forgot-password") { req in try await render(req, "accounts/forgot-password", title: "Forgot password") }
        web.post("forgot-password", use: forgotPassword)
        web.get("reset-password") { req in
            try await render(req, "accounts/reset-password", title: "Choose a new password", values: ["token": req.query["token"] ?? ""])
        }
        web.post("reset-password", use: resetPassword)
        web.get("verify-email", use: verifyEmail)
        SettingsWebRoutes.register(web)
    }

    struct SignUpForm: Content {
        var displayName: String?
        var email: String?
        var password: String?
        /// From an invite link's page (`/invite/{token}`).
        var inviteToken: String?
    }

    static func signUp(_ req: Request) async throws -> Response {
        let form = try req.content.decode(SignUpForm.self)
        let inviteToken = form.inviteToken.flatMap { $0.isEmpty ? nil : $0 }
        let values = ["displayName": form.displayName ?? "", "email": form.email ?? "", "inviteToken": inviteToken ?? ""]
        return try await handleForm(req, "accounts/signup", title: "Create an account", values: values) {
            let (user, _) = try await AccountService(db: req.db, core: req.core, accountParts: req.atelier.accountParts, mailOutbox: req.atelier.mailOutbox).signUp(
                .init(
                    email: form.email ?? "", password: form.password ?? "", displayName: form.displayName ?? "",
                    joining: inviteToken.map { req.atelier.accountParts.joining(invite: $0) }),
                clientAddress: req.clientAddress)
            try await req.signInWebSession(user)
            return redirect(req, to: "/", flash: ("success", "Welcome to Atelier, \(user.displayName)."))
        }
    }

    struct SignInForm: Content {
        var email: String?
        var password: String?
        var next: String?
    }

    static func signIn(_ req: Request) async throws -> Response {
        let form = try req.content.decode(SignInForm.self)
        let next = safeNext(form.next)
        return try await handleForm(req, "accounts/signin", title: "Sign in", values: ["email": form.email ?? "", "next": next ?? ""]) {
            let user = try await AccountService(db: req.db, core: req.core, accountParts: req.atelier.accountParts, mailOutbox: req.atelier.mailOutbox)
                .checkPassword(email: form.email ?? "", password: form.password ?? "", clientAddress: req.clientAddress)
            try await req.signInWebSession(user)
            return req.redirect(to: next ?? "/", redirectType: .normal)
        }
    }

    struct EmailForm: Content {
        var email: String?
    }

    static func forgotPassword(_ req: Request) async throws -> Response {
        let form = try req.content.decode(EmailForm.self)
        return try await handleForm(req, "accounts/forgot-password", title: "Forgot password", values: ["email": form.email ?? ""]) {
            try await AccountService(db: req.db, core: req.core, accountParts: req.atelier.accountParts, mailOutbox: req.atelier.mailOutbox)
                .requestPasswordReset(email: form.email ?? "", clientAddress: req.clientAddress)
            return try await render(req, "accounts/forgot-password", title: "Forgot password", extra: ["sent": true])
        }
    }

    struct ResetForm: Content {
        var token: String?
        var password: String?
    }

    static func resetPassword(_ req: Request) async throws -> Response {
        let form = try req.content.decode(ResetForm.self)
        return try await handleForm(req, "accounts/reset-password", title: "Choose a new password", values: ["token": form.token ?? ""]) {
            try await AccountService(db: req.db, core: req.core, accountParts: req.atelier.accountParts, mailOutbox: req.atelier.mailOutbox)
                .confirmPasswordReset(token: form.token ?? "", newPassword: form.password ?? "")
            req.signOutWebSession()
            return redirect(req, to: "/signin", flash: ("success", "Password changed. Sign in with the new one."))
        }
    }

    static func verifyEmail(_ req: Request) async throws -> Response {
        var verified = false
        var message = "This link is invalid, used or expired. Ask for a new one from your settings."
        if let token = req.query[String.self, at: "token"], !token.isEmpty,
            let user = try? await AccountService(db: req.db, core: req.core, accountParts: req.atelier.accountParts, mailOutbox: req.atelier.mailOutbox).verifyEmail(token: token)
        {
            verified = true
            message = "Thanks, \(user.email ?? "your address") is confirmed."
        }
        return try await render(
            req, "accounts/verify-email", title: "Confirm email", status: verified ? .ok : .badRequest,
            extra: ["verified": .bool(verified), "message": .string(message)])
    }
}

// MARK: - Rendering helpers shared by the account pages

extension AccountsWebRoutes {
    /// Runs a form action; a `Problem` re-renders the page with the messages next to the fields.
    static func handleForm(
        _ req: Request, _ template: String, title: String, values: [String: String],
        extra: [String: FormValue] = [:], action: () async throws -> Response
    ) async throws -> Response {
        do {
            return try await action()
        } catch let problem as Problem where problem.status.code < 500 {
            let formError = problem.errors.isEmpty ? problem.detail ?? problem.title : nil
            let response = try await render(
                req, template, title: title, status: problem.status, values: values, errors: problem.messagesByField, formError: formError,
                extra: extra)
            for (name, value) in problem.headers { response.headers.replaceOrAdd(name: name, value: value) }
            return response
        }
    }

    static func render(
        _ req: Request, _ template: String, title: String, status: HTTPStatus = .ok, values: [String: String] = [:],
        errors: [String: String] = [:], formError: String? = nil, extra: [String: FormValue] = [:]
    ) async throws -> Response {
        let context = FormPage(page: PageContext(req, title: title), values: values, errors: errors, formError: formError, extra: extra)
        return try await req.view.render(template, context).encodeResponse(status: status, for: req)
    }

    static func redirect(_ req: Request, to path: String, flash: (String, String)) -> Response {
        Flash.set(flash.0, flash.1, on: req)
        return req.redirect(to: path, redirectType: .normal)
    }

    /// Only local paths, so a crafted link cannot send the user elsewhere after signing in.
    static func safeNext(_ next: String?) -> String? {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\") else { return nil }
        return next
    }
}

/// A value a page template may need besides strings (flags, lists).
enum FormValue: Encodable, ExpressibleByBooleanLiteral, ExpressibleByStringLiteral {
    case bool(Bool)
    case string(String)
    case list([String])
    /// Rows of a table (each a record of strings).
    case table([[String: String]])

    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(stringLiteral value: String) { self = .string(value) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        case .table(let value): try container.encode(value)
        }
    }
}

/// The context of a form page: the common page fields plus values, errors and page extras, flat.
struct FormPage: Encodable {
    var page: PageContext
    var values: [String: String]
    var errors: [String: String]
    var formError: String?
    var extra: [String: FormValue]

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        try page.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(values, forKey: Key("values"))
        try container.encode(errors, forKey: Key("errors"))
        try container.encodeIfPresent(formError, forKey: Key("formError"))
        for (key, value) in extra { try container.encode(value, forKey: Key(key)) }
    }
}
