import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/stores/{storeId}/staff…`: owners manage who works in the store.
extension APIHandler {
    func listStoreStaff(_ input: Operations.ListStoreStaff.Input) async throws -> Operations.ListStoreStaff.Output {
        let req = try request()
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: try await req.requireCaller().user)
        let staff = try await StaffService(db: req.db, core: services.core, mailOutbox: services.mailOutbox).list(store)
        return .ok(.init(body: .json(.init(items: staff.map(Components.Schemas.StaffMember.init)))))
    }

    func inviteStoreStaff(_ input: Operations.InviteStoreStaff.Input) async throws -> Operations.InviteStoreStaff.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: user, ownerOnly: true)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let entry = try await StaffService(db: req.db, core: services.core, mailOutbox: services.mailOutbox)
            .invite(email: body.email, role: body.role == .owner ? .owner : .staff, to: store, by: user)
        return .created(.init(body: .json(.init(entry))))
    }

    func removeStoreStaff(_ input: Operations.RemoveStoreStaff.Input) async throws -> Operations.RemoveStoreStaff.Output {
        let req = try request()
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: try await req.requireCaller().user, ownerOnly: true)
        try await StaffService(db: req.db, core: services.core, mailOutbox: services.mailOutbox).remove(try PathID.parse(input.path.memberId, "member"), from: store)
        return .noContent(.init())
    }
}
