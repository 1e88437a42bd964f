import AtelierServerAPI
import Fluent
import Vapor

/// `/auth/…`: signing up, in and out, tokens, email verification and password reset.
extension APIHandler {
    func signUp(_ input: Operations.SignUp.Input) async throws -> Operations.SignUp.Output {
        let req = try request()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let (user, session) = try await AccountService(db: req.db, core: services.core, accountParts: services.accountParts, mailOutbox: services.mailOutbox).signUp(
            .init(
                email: body.email, password: body.password, displayName: body.displayName, username: body.username,
                timeZone: body.timeZone, locale: body.locale,
                joining: body.inviteToken.map { services.accountParts.joining(invite: $0) }),
            clientAddress: req.clientAddress)
        return .created(.init(body: .json(.init(user, session))))
    }

    func logIn(_ input: Operations.LogIn.Input) async throws -> Operations.LogIn.Output {
        let req = try request()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let (user, session) = try await AccountService(db: req.db, core: services.core, accountParts: services.accountParts, mailOutbox: services.mailOutbox)
            .logIn(email: body.email, password: body.password, clientAddress: req.clientAddress)
        return .ok(.init(body: .json(.init(user, session))))
    }

    func refreshSession(_ input: Operations.RefreshSession.Input) async throws -> Operations.RefreshSession.Output {
        let req = try request()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        try await services.rateLimiter.hit("refresh:ip:\(req.clientAddress)", AccountRateLimits.refreshesPerAddress)
        let (user, session) = try await SessionService(db: req.db, core: services.core).refresh(body.refreshToken)
        return .ok(.init(body: .json(.init(user, session))))
    }

    func logOut(_ input: Operations.LogOut.Input) async throws -> Operations.LogOut.Output {
        let req = try request()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let db = req.db
        let token = try await RefreshToken.query(on: db).filter(\.$tokenHash == TokenHash.sha256(body.refreshToken))
            .with(\.$family).first()
        try await SessionService(db: db, core: services.core).revoke(refreshToken: body.refreshToken)
        if let deviceToken = body.deviceToken, let userID = token?.family.$user.id {
            _ = try await DeviceService(db: db, core: services.core).unregister(token: deviceToken, for: userID)
        }
        return .noContent(.init())
    }

    func logOutEverywhere(_ input: Operations.LogOutEverywhere.Input) async throws -> Operations.LogOutEverywhere.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        try await AccountService(db: req.db, core: services.core, accountParts: services.accountParts, mailOutbox: services.mailOutbox).signOutEverywhere(caller.user)
        return .noContent(.init())
    }

    func socialSignIn(_ input: Operations.SocialSignIn.Input) async throws -> Operations.SocialSignIn.Output {
        let req = try request()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        try await services.rateLimiter.hit("social:ip:\(req.clientAddress)", AccountRateLimits.signUpsPerAddress)
        let provider = SocialTokenVerifier.Provider(rawValue: body.provider.rawValue)!
        let result = try await SocialSignInService(db: req.db, core: services.core, socialVerifier: services.socialVerifier)
            .signIn(provider: provider, idToken: body.idToken, nonce: body.nonce, displayName: body.displayName)
        if let picture = result.providerPicture {
            await services.accountParts.importProviderPicture(from: picture, for: result.user, on: req.db, logger: req.logger)
        }
        let session = Components.Schemas.AuthSession(result.user, result.session)
        return result.created ? .created(.init(body: .json(session))) : .ok(.init(body: .json(session)))
    }

    func verifyEmail(_ input: Operations.VerifyEmail.Input) async throws -> Operations.VerifyEmail.Output {
        let req = try request()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        _ = try await AccountService(db: req.db, core: services.core, accountParts: services.accountParts, mailOutbox: services.mailOutbox).verifyEmail(token: body.token)
        return .noContent(.init())
    }

    func requestPasswordReset(_ input: Operations.RequestPasswordReset.Input) async throws -> Operations.RequestPasswordReset.Output {
        let req = try request()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        try await AccountService(db: req.db, core: services.core, accountParts: services.accountParts, mailOutbox: services.mailOutbox)
            .requestPasswordReset(email: body.email, clientAddress: req.clientAddress)
        return .accepted(.init())
    }

    func confirmPasswordReset(_ input: Operations.ConfirmPasswordReset.Input) async throws -> Operations.ConfirmPasswordReset.Output {
        let req = try request()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        try await services.rateLimiter.hit("reset-confirm:ip:\(req.clientAddress)", AccountRateLimits.resetsPerAddress)
        try await AccountService(db: req.db, core: services.core, accountParts: services.accountParts, mailOutbox: services.mailOutbox).confirmPasswordReset(token: body.token, newPassword: body.password)
        return .noContent(.init())
    }
}
