import Fluent
import Foundation
import SQLKit

/// Saved searches: named filter sets a user follows (discovery.md). Their new matches flow into
/// the following feed, and the discover feed leaves them out.
struct SavedSearchService {
    static let maxPerUser = 20
    static let nameLength = 1...60

    let db: any Database
    let core: CoreServices

    func list(of user: User) async throws -> [SavedSearch] {
        try await SavedSearch.query(on: db).filter(\.$userID == user.requireID()).sort(\.$id, .descending).all()
    }

    func create(named rawName: String, query rawQuery: ProductSearchQuery, by user: User) async throws -> SavedSearch {
        let userID = try user.requireID()
        let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
        var errors = FieldErrors()
        if !Self.nameLength.contains(name.count) { errors.add("name", "must be 1 to \(Self.nameLength.upperBound) characters") }
        try errors.throwIfAny()
        let query = try rawQuery.validated()
        // Without words or filters it would follow every product there is.
        guard !query.urlQueryItems.filter({ $0.name != "sort" }).isEmpty else {
            throw Problem.invalid("filters", "needs words or at least one filter")
        }
        if !query.categoryIDs.isEmpty {
            let found = try await Category.query(on: db).filter(\.$id ~~ query.categoryIDs).count()
            if found != query.categoryIDs.count { throw Problem.invalid("filters.categoryIds", "names a category that does not exist") }
        }
        let mine = try await SavedSearch.query(on: db).filter(\.$userID == userID).all()
        if mine.contains(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
            throw Problem.conflict("You already have a saved search called \(name).", field: "name")
        }
        if mine.count >= Self.maxPerUser { throw Problem.conflict("You can keep at most \(Self.maxPerUser) saved searches; remove one first.") }
        let saved = SavedSearch()
        saved.id = .v7(at: core.clock.now())
        saved.userID = userID
        saved.name = name
        saved.queryJSON = String(decoding: try JSONEncoder().encode(query), as: UTF8.self)
        saved.createdAt = core.clock.now()
        do {
            try await saved.create(on: db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw Problem.conflict("You already have a saved search called \(name).", field: "name")
        }
        return saved
    }

    func delete(_ id: UUID, of user: User) async throws {
        guard let saved = try await SavedSearch.query(on: db).filter(\.$id == id).filter(\.$userID == user.requireID()).first() else {
            throw Problem.notFound("saved search")
        }
        try await saved.delete(on: db)
    }

    /// One condition on products `p` per saved search of the user: true when it matches.
    func feedConditions(for userID: UUID) async throws -> [SQLQueryString] {
        let saved = try await SavedSearch.query(on: db).filter(\.$userID == userID).all()
        let search = ProductSearch(db: db)
        var conditions: [SQLQueryString] = []
        for entry in saved {
            if let condition = try await search.matchCondition(entry.query) { conditions.append(condition) }
        }
        return conditions
    }
}
