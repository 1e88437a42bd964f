import Fluent
import Foundation

/// Sign-up, sign-in and the password and email flows. Takes plain inputs; the API handlers
/// and the web routes both call it.
struct AccountService {
    struct SignUp: Sendable {
        var email: String
        var password: String
        var displayName: String
        var username: String?
        var timeZone: String?
        var locale: String?
        /// What else comes with the new account, inside its transaction (an invite link's
        /// connection, from the domain that owns it); a Problem it throws leaves no account.
        var joining: (@Sendable (User, any Database) async throws -> Void)? = nil
    }

    let db: any Database
    let core: CoreServices
    let accountParts: AccountParts
    let mailOutbox: MailOutbox

    private var now: Date { core.clock.now() }
    private var limiter: RateLimiter { core.rateLimiter }

    func signUp(_ input: SignUp, clientAddress: String) async throws -> (User, SessionService.Issued) {
        var errors = FieldErrors()
        let email = AccountRules.email(input.email, into: &errors)
        AccountRules.password(input.password, into: &errors)
        let displayName = AccountRules.displayName(input.displayName, into: &errors)
        let username = input.username.flatMap { AccountRules.username($0, into: &errors) }
        let timeZone = input.timeZone.flatMap { AccountRules.timeZone($0, into: &errors) }
        let locale = input.locale.flatMap { AccountRules.locale($0, into: &errors) }
        try errors.throwIfAny()
        try await limiter.hit("signup:ip:\(clientAddress)", AccountRateLimits.signUpsPerAddress)

        guard let email, let displayName else { throw Problem(.internalServerError) }
        try await ensureEmailFree(email)
        if let username, try await User.query(on: db).filter(\.$username == username).count() > 0 {
            throw Problem.conflict("The username \(username) is taken.", field: "username")
        }
        let hash = try await core.passwordHasher.hash(input.password)
        // A generated username can be taken by a concurrent sign-up between the check and the
        // insert; then a new one is drawn. A chosen one that is taken is the caller's to change.
        for attempt in 1...5 {
            var chosenUsername = username ?? ""
            if username == nil { chosenUsername = try await UsernameGenerator(db: db).make(from: displayName, email: email) }
            let user = User(
                id: .v7(at: now), email: email, passwordHash: hash, displayName: displayName,
                username: chosenUsername, now: now)
            if let timeZone { user.timeZone = timeZone }
            if let locale { user.locale = locale }
            do {
                return try await db.transaction { tx in
                    try await user.create(on: tx)
                    try await input.joining?(user, tx)
                    try await AccountMailer(db: tx, core: core, mailOutbox: mailOutbox).sendVerification(to: user, email: email)
                    let session = try await SessionService(db: tx, core: core).issue(for: user)
                    return (user, session)
                }
            } catch let error as any DatabaseError where error.isConstraintFailure {
                try await ensureEmailFree(email)
                if username != nil {
                    throw Problem.conflict("The username \(chosenUsername) is taken.", field: "username")
                }
                if attempt == 5 { throw Problem.conflict("Could not find a free username; choose one.", field: "username") }
            }
        }
        throw Problem(.internalServerError)
    }

    func logIn(email rawEmail: String, password: String, clientAddress: String) async throws -> (User, SessionService.Issued) {
        let user = try await checkPassword(email: rawEmail, password: password, clientAddress: clientAddress)
        return (user, try await SessionService(db: db, core: core).issue(for: user))
    }

    /// The user whose email and password these are, with the sign-in rate limits applied.
    func checkPassword(email rawEmail: String, password: String, clientAddress: String) async throws -> User {
        var errors = FieldErrors()
        if rawEmail.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("email", "is required") }
        if password.isEmpty { errors.add("password", "is required") }
        try errors.throwIfAny()

        let login = Self.signInName(rawEmail)
        let addressKey = "login-failure:ip:\(clientAddress)"
        try await limiter.check(addressKey, AccountRateLimits.loginFailuresPerAddress(core.config))
        let user = try await login.query(User.query(on: db)).first()
        // One limit per account, whichever of its names is typed; unknown names count by their text.
        let accountKey = "login-failure:account:\(user?.id?.idString ?? login.key)"
        try await limiter.check(accountKey, AccountRateLimits.loginFailuresPerAccount)
        guard try await core.passwordHasher.verify(password, against: user?.passwordHash), let user else {
            try await limiter.record(addressKey)
            try await limiter.record(accountKey)
            throw AccountProblems.wrongCredentials
        }
        if user.suspendedAt != nil { throw AccountProblems.suspended }
        return user
    }

    /// What a person typed to sign in: an email address (it has an @ past the first character) or a
    /// username, with or without a leading @.
    struct SignInName {
        var email: String?
        var username: String?
        var key: String { email.map { "email:\($0)" } ?? "username:\(username ?? "")" }

        func query(_ users: QueryBuilder<User>) -> QueryBuilder<User> {
            if let email { return users.filter(\.$email == email) }
            return users.filter(\.$username == username ?? "")
        }
    }

    static func signInName(_ raw: String) -> SignInName {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if text.dropFirst().contains("@") { return SignInName(email: text) }
        return SignInName(username: text.hasPrefix("@") ? String(text.dropFirst()) : text)
    }

    func verifyEmail(token: String) async throws -> User {
        let mailer = AccountMailer(db: db, core: core, mailOutbox: mailOutbox)
        guard let spent = try await mailer.consume(token, purpose: .verifyEmail),
            let user = try await User.find(spent.$user.id, on: db)
        else { throw Problem.invalid("token", "is invalid, used or expired; ask for a new link") }
        if spent.email == user.pendingEmail {
            try await ensureEmailFree(spent.email, except: user.id)
            user.email = spent.email
            user.pendingEmail = nil
        } else if spent.email != user.email {
            throw Problem.invalid("token", "belongs to an address this account no longer uses")
        }
        user.emailVerifiedAt = now
        user.updatedAt = now
        try await user.save(on: db)
        return user
    }

    func resendVerification(for user: User) async throws {
        guard let email = user.pendingEmail ?? (user.emailVerifiedAt == nil ? user.email : nil) else { return }
        try await limiter.hit("verify-mail:account:\(try user.requireID())", AccountRateLimits.verificationMailsPerAccount)
        try await AccountMailer(db: db, core: core, mailOutbox: mailOutbox).sendVerification(to: user, email: email)
    }

    /// Always succeeds from the caller's point of view, so it does not reveal which emails exist.
    func requestPasswordReset(email rawEmail: String, clientAddress: String) async throws {
        var errors = FieldErrors()
        guard let email = AccountRules.email(rawEmail, into: &errors) else { return try errors.throwIfAny() }
        try await limiter.hit("reset:ip:\(clientAddress)", AccountRateLimits.resetsPerAddress)
        guard try await limiter.retryAfter("reset:account:\(email)", AccountRateLimits.resetsPerAccount) == nil else { return }
        try await limiter.record("reset:account:\(email)")
        guard let user = try await User.query(on: db).filter(\.$email == email).first(), user.suspendedAt == nil else {
            return
        }
        try await AccountMailer(db: db, core: core, mailOutbox: mailOutbox).sendPasswordReset(to: user, email: email)
    }

    func confirmPasswordReset(token: String, newPassword: String) async throws {
        var errors = FieldErrors()
        AccountRules.password(newPassword, into: &errors)
        try errors.throwIfAny()
        let hash = try await core.passwordHasher.hash(newPassword)
        try await db.transaction { tx in
            guard let spent = try await AccountMailer(db: tx, core: core, mailOutbox: mailOutbox).consume(token, purpose: .resetPassword),
                let user = try await User.find(spent.$user.id, on: tx)
            else { throw Problem.invalid("token", "is invalid, used or expired; ask for a new link") }
            try await setPassword(hash: hash, for: user, on: tx)
            if user.email == spent.email, user.emailVerifiedAt == nil { user.emailVerifiedAt = now }
            try await user.save(on: tx)
        }
    }

    func changePassword(
        for user: User, current: String, new: String
    ) async throws -> SessionService.Issued {
        try await requirePassword(current, of: user, field: "currentPassword")
        var errors = FieldErrors()
        AccountRules.password(new, field: "newPassword", into: &errors)
        try errors.throwIfAny()
        let hash = try await core.passwordHasher.hash(new)
        return try await db.transaction { tx in
            try await setPassword(hash: hash, for: user, on: tx)
            try await user.save(on: tx)
            return try await SessionService(db: tx, core: core).issue(for: user)
        }
    }

    func changeEmail(for user: User, newEmail: String, password: String) async throws -> User {
        var errors = FieldErrors()
        let email = AccountRules.email(newEmail, field: "newEmail", into: &errors)
        try errors.throwIfAny()
        try await requirePassword(password, of: user, field: "password")
        guard let email else { throw Problem(.internalServerError) }
        if email == user.email { throw Problem.invalid("newEmail", "is already this account's address") }
        try await ensureEmailFree(email, except: user.id, field: "newEmail")
        return try await db.transaction { tx in
            user.pendingEmail = email
            user.updatedAt = now
            try await user.save(on: tx)
            try await AccountMailer(db: tx, core: core, mailOutbox: mailOutbox).sendVerification(to: user, email: email)
            return user
        }
    }

    func deleteAccount(_ user: User, password: String) async throws {
        try await requirePassword(password, of: user, field: "password")
        try await AccountDeletion(db: db, core: core, accountParts: accountParts).delete(user)
    }

    func requirePassword(_ password: String, of user: User, field: String) async throws {
        guard user.passwordHash != nil else {
            throw Problem.invalid(field, "this account signs in with a provider and has no password; reset it to set one")
        }
        let key = "password-check:account:\(try user.requireID())"
        try await limiter.check(key, AccountRateLimits.passwordChecksPerAccount)
        guard try await core.passwordHasher.verify(password, against: user.passwordHash) else {
            try await limiter.record(key)
            throw Problem.invalid(field, "is not the current password")
        }
    }

    /// Ends every session of the account at once: apps' refresh tokens, access tokens issued before
    /// now, and web sign-ins (all compared with `sessionsValidAfter`).
    func signOutEverywhere(_ user: User) async throws {
        try await core.writeTransaction(on: db) { tx in
            user.sessionsValidAfter = now
            user.updatedAt = now
            try await user.save(on: tx)
            try await SessionService(db: tx, core: core).revokeAll(userID: try user.requireID(), reason: "signed out everywhere")
        }
    }

    private func setPassword(hash: String, for user: User, on tx: any Database) async throws {
        user.passwordHash = hash
        user.sessionsValidAfter = now
        user.updatedAt = now
        try await SessionService(db: tx, core: core).revokeAll(userID: try user.requireID(), reason: "password changed")
    }

    private func ensureEmailFree(_ email: String, except userID: UUID? = nil, field: String = "email") async throws {
        var query = User.query(on: db).filter(\.$email == email)
        if let userID { query = query.filter(\.$id != userID) }
        if try await query.count() > 0 {
            throw Problem.conflict("An account with this email already exists.", field: field)
        }
    }
}
