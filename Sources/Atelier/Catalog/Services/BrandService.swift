import Fluent
import Foundation

/// Brands: admins create and approve; stores propose.
struct BrandService {
    let db: any Database
    let core: CoreServices
    let catalogChanges: CatalogChanges
    let catalogIndexing: any CatalogIndexing
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }

    func list(prefix: String?, status: Brand.Status, page: PageRequest) async throws -> Page<Brand> {
        var query = Brand.query(on: db).filter(\.$status == status.rawValue)
        if let prefix = prefix.map({ Slug.make($0) }), !prefix.isEmpty { query = query.filter(\.$slug =~ prefix) }
        // By name, paged by slug: the cursor carries the last slug's brand id.
        if let cursor = page.cursor, let last = try await Brand.find(cursor.id, on: db) { query = query.filter(\.$slug > last.slug) }
        let rows = try await query.sort(\.$slug).limit(page.limit + 1).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    func find(_ id: UUID) async throws -> Brand {
        guard let brand = try await Brand.find(id, on: db) else { throw Problem.notFound("brand") }
        return brand
    }

    func create(name: String, logoID: UUID?, status: Brand.Status, proposedBy storeID: UUID?, by user: User) async throws -> Brand {
        let (name, slug) = try Self.validName(name)
        if let existing = try await Brand.query(on: db).filter(\.$slug == slug).first() {
            throw Problem.conflict("\(existing.name) already exists\(existing.isApproved ? "" : " as a proposal").", field: "name")
        }
        let brand = Brand()
        brand.id = .v7(at: now)
        brand.name = name
        brand.slug = slug
        brand.status = status.rawValue
        brand.proposedByStoreID = storeID
        brand.followerCount = 0
        brand.createdAt = now
        try await setLogo(logoID, of: brand, by: user)
        try await brand.create(on: db)
        return brand
    }

    func update(_ brand: Brand, name: String?, logoID: UUID?, by user: User) async throws -> Brand {
        var renamed = false
        if let name {
            let (name, slug) = try Self.validName(name)
            if try await Brand.query(on: db).filter(\.$slug == slug).filter(\.$id != brand.requireID()).count() > 0 {
                throw Problem.conflict("Another brand is called \(name).", field: "name")
            }
            renamed = brand.name != name
            brand.name = name
            brand.slug = slug
        }
        try await setLogo(logoID, of: brand, by: user)
        try await core.writeTransaction(on: db) { [brand, renamed] tx in
            try await brand.save(on: tx)
            if renamed { try await catalogIndexing.refresh(.brand(brand.requireID()), in: tx) }
        }
        await catalogChanges.announce()
        return brand
    }

    func approve(_ brand: Brand) async throws -> Brand {
        brand.status = Brand.Status.approved.rawValue
        try await brand.save(on: db)
        await catalogChanges.announce()
        return brand
    }

    private func setLogo(_ id: UUID?, of brand: Brand, by user: User) async throws {
        guard let id else { return }
        guard let media = try? await MediaService(db: db, core: core, mediaLibrary: mediaLibrary).visible(id, to: user.id),
            media.ownerType == nil || (media.ownerType == "brand" && media.ownerID == brand.id)
        else { throw Problem.invalid("logoId", "is not an upload of yours") }
        media.ownerType = "brand"
        media.ownerID = brand.id
        media.attachedAt = now
        media.visibility = Media.Visibility.public.rawValue
        try await media.save(on: db)
        brand.logoMediaID = id
    }

    private static func validName(_ raw: String) throws -> (String, String) {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let slug = Slug.make(name)
        guard (1...80).contains(name.count), !slug.isEmpty else { throw Problem.invalid("name", "must be 1 to 80 characters with a letter or digit") }
        return (name, slug)
    }
}
