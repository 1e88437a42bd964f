import AtelierServerAPI
import Foundation
import OpenAPIRuntime
import Vapor

/// `/me…`: the signed-in user's profile, settings, devices, export and deletion.
extension APIHandler {
    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let caller = try await request().requireCaller()
        return .ok(.init(body: .json(.init(caller.user))))
    }

    func updateMe(_ input: Operations.UpdateMe.Input) async throws -> Operations.UpdateMe.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        // The generated type cannot tell a missing field from `null`; read the body again for that.
        guard let raw = req.body.data else { throw Problem(.badRequest, detail: "The body is missing.") }
        let patch = try JSONDecoder().decode(ProfilePatch.self, from: Data(buffer: raw))
        let user = try await ProfileService(db: req.db, core: services.core).update(caller.user, with: patch)
        return .ok(.init(body: .json(.init(user))))
    }

    func deleteMe(_ input: Operations.DeleteMe.Input) async throws -> Operations.DeleteMe.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        try await AccountService(db: req.db, core: services.core, accountParts: services.accountParts, mailOutbox: services.mailOutbox).deleteAccount(caller.user, password: body.password)
        return .noContent(.init())
    }

    func changeEmail(_ input: Operations.ChangeEmail.Input) async throws -> Operations.ChangeEmail.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let user = try await AccountService(db: req.db, core: services.core, accountParts: services.accountParts, mailOutbox: services.mailOutbox)
            .changeEmail(for: caller.user, newEmail: body.newEmail, password: body.password)
        return .accepted(.init(body: .json(.init(user))))
    }

    func resendEmailVerification(_ input: Operations.ResendEmailVerification.Input) async throws -> Operations.ResendEmailVerification.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        try await AccountService(db: req.db, core: services.core, accountParts: services.accountParts, mailOutbox: services.mailOutbox).resendVerification(for: caller.user)
        return .accepted(.init())
    }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let session = try await AccountService(db: req.db, core: services.core, accountParts: services.accountParts, mailOutbox: services.mailOutbox)
            .changePassword(for: caller.user, current: body.currentPassword, new: body.newPassword)
        return .ok(.init(body: .json(.init(caller.user, session))))
    }

    func listMyDevices(_ input: Operations.ListMyDevices.Input) async throws -> Operations.ListMyDevices.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let devices = try await DeviceService(db: req.db, core: services.core).list(for: caller.user.id!, page: page)
        return .ok(.init(body: .json(.init(items: devices.items.map(Components.Schemas.Device.init), nextCursor: devices.nextCursor))))
    }

    func registerDevice(_ input: Operations.RegisterDevice.Input) async throws -> Operations.RegisterDevice.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let device = try await DeviceService(db: req.db, core: services.core).register(
            token: input.path.token, platform: body.platform.rawValue, appVersion: body.appVersion, locale: body.locale,
            apnsEnvironment: body.apnsEnvironment?.rawValue, bundleID: body.bundleId, session: caller.familyID, for: caller.user)
        return .ok(.init(body: .json(.init(device))))
    }

    func unregisterDevice(_ input: Operations.UnregisterDevice.Input) async throws -> Operations.UnregisterDevice.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        guard try await DeviceService(db: req.db, core: services.core).unregister(token: input.path.token, for: caller.user.id!) else {
            throw Problem.notFound("device")
        }
        return .noContent(.init())
    }

    func exportMyData(_ input: Operations.ExportMyData.Input) async throws -> Operations.ExportMyData.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        let url = try await AccountExport(db: req.db, core: services.core, accountParts: services.accountParts, fileWorkers: services.fileWorkers)
            .write(for: caller.user, profile: Components.Schemas.Me(caller.user))
        defer { try? FileManager.default.removeItem(at: url) }
        let data = try Data(contentsOf: url)
        return .ok(.init(body: .applicationZip(HTTPBody(data))))
    }
}
