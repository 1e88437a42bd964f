import AtelierServerAPI
import Fluent
import Foundation

/// Catalog rows to API bodies. Images are looked up in batches by `CatalogImages`.
struct CatalogImages {
    let media: MediaService
    private var rows: [UUID: MediaLine] = [:]

    init(media: MediaService) {
        self.media = media
    }

    /// Loads the logo and cover of `stores`, the logos of `brands` and the pictures of `categories`.
    static func load(
        stores: [any StoreColumns] = [], brands: [any BrandColumns] = [], categories: [Category] = [], media: MediaService
    ) async throws -> CatalogImages {
        var images = CatalogImages(media: media)
        let ids = stores.flatMap { [$0.logoMediaID, $0.coverMediaID] } + brands.map(\.logoMediaID) + categories.map(\.imageMediaID)
        images.rows = try await ProductViewReader(db: media.db).media(ids: ids.compactMap { $0 })
        return images
    }

    func image(_ id: UUID?) -> Components.Schemas.Image? {
        id.flatMap { rows[$0] }.map { .init($0, service: media) }
    }
}

extension Components.Schemas.Store {
    init(_ store: Store, images: CatalogImages, baseURL: String) {
        self.init(
            id: store.id!.idString, name: store.name, slug: store.slug, about: store.about, phone: store.phone, email: store.email,
            website: store.website, street: store.street, postalCode: store.postalCode, city: store.city,
            location: .init(lat: store.lat, lng: store.lng), timeZone: store.timeZone,
            openingHours: store.openingHours.map { .init(weekday: $0.weekday, opens: $0.opens, closes: $0.closes) },
            logo: images.image(store.logoMediaID), cover: images.image(store.coverMediaID),
            status: .init(rawValue: store.status) ?? .active, followerCount: store.followerCount,
            activeProductCount: store.activeProductCount, webUrl: "\(baseURL)/stores/\(store.slug)", createdAt: store.createdAt)
    }
}

extension Components.Schemas.Brand {
    init(_ brand: some BrandColumns, images: CatalogImages) {
        self.init(
            id: brand.id!.idString, name: brand.name, slug: brand.slug, logo: images.image(brand.logoMediaID),
            status: .init(rawValue: brand.status) ?? .approved, followerCount: brand.followerCount)
    }
}

extension Components.Schemas.Category {
    init(_ node: CategoryService.Node, images: CatalogImages) {
        self.init(category: node.category, images: images, children: node.children.map { .init($0, images: images) })
    }

    init(category: Category, images: CatalogImages, children: [Components.Schemas.Category] = []) {
        self.init(
            id: category.id!.idString, parentId: category.parentID?.idString, name: category.name, slug: category.slug,
            gender: .init(rawValue: category.gender) ?? .unisex, depth: category.depth, description: category.description,
            image: images.image(category.imageMediaID), children: children)
    }
}

extension Components.Schemas.Product {
    init(_ view: ProductView, images: CatalogImages, baseURL: String) {
        let product = view.product
        let media = images.media
        self.init(
            id: product.id.idString,
            store: .init(id: view.store.id.idString, name: view.store.name, slug: view.store.slug, city: view.store.city,
                         logo: images.image(view.store.logoMediaID)),
            brand: view.brand.map { .init($0, images: images) },
            category: .init(id: view.category.id.idString, name: view.category.name,
                            gender: .init(rawValue: view.category.gender) ?? .unisex, trail: view.trail),
            title: product.title, description: product.description, gender: .init(rawValue: product.gender) ?? .unisex,
            price: .init(amount: Int64(product.priceMinor), currency: product.currency),
            originalPrice: product.originalPriceMinor.map { .init(amount: Int64($0), currency: product.currency) },
            colors: product.colors, colorName: product.colorName, fabric: product.fabric, styles: product.styles,
            variants: view.variants.map {
                .init(id: $0.id.idString, size: $0.size, color: $0.color, stock: $0.stock, available: $0.available, sku: $0.sku)
            },
            photos: view.photos.map { .init($0, service: media) },
            status: .init(rawValue: product.status) ?? .inactive, minAge: product.minAge, externalUrl: product.externalURL,
            rating: product.reviewCount > 0 ? .init(average: Double(product.ratingSum) / Double(product.reviewCount), count: product.reviewCount) : nil,
            likeCount: product.likeCount, webUrl: "\(baseURL)/products/\(product.id.idString)",
            createdAt: product.createdAt, updatedAt: product.updatedAt)
    }
}

extension Components.Schemas.UnavailableReport {
    init(_ report: UnavailableReport) {
        self.init(
            id: report.id!.idString, productId: report.$product.id.idString, productTitle: report.$product.value?.title ?? "",
            note: report.note, createdAt: report.createdAt, resolvedAt: report.resolvedAt)
    }
}

extension Components.Schemas.StaffMember {
    init(_ entry: StaffService.Entry) {
        self.init(
            id: entry.id.idString, userId: entry.userID?.idString, displayName: entry.displayName, email: entry.email,
            role: entry.role == .owner ? .owner : .staff, pending: entry.pending)
    }
}

extension Components.Schemas.AdminUser {
    init(_ user: User) {
        self.init(
            id: user.id!.idString, email: user.email, displayName: user.displayName, username: user.username, roles: user.roles,
            suspended: user.suspendedAt != nil, createdAt: user.createdAt)
    }
}

extension ProductDraft {
    init(_ input: Components.Schemas.ProductInput) throws {
        var errors = FieldErrors()
        func uuid(_ raw: String?, _ field: String) -> UUID? {
            guard let raw else { return nil }
            guard let id = UUID(uuidString: raw) else { errors.add(field, "is not an id"); return nil }
            return id
        }
        let brandID = uuid(input.brandId, "brandId")
        let categoryID = uuid(input.categoryId, "categoryId")
        let photoIDs = input.photoIds.enumerated().compactMap { uuid($1, "photoIds[\($0)]") }
        if let original = input.originalPrice, original.currency.uppercased() != input.price.currency.uppercased() {
            errors.add("originalPrice.currency", "must be the same currency as the price")
        }
        func int(_ value: Int64, _ field: String) -> Int {
            guard let result = Int(exactly: value), abs(result) < 1 << 50 else { errors.add(field, "is out of range"); return 0 }
            return result
        }
        let price = int(input.price.amount, "price.amount")
        let original = input.originalPrice.map { int($0.amount, "originalPrice.amount") }
        try errors.throwIfAny()
        self.init(
            title: input.title, description: input.description ?? "", brandID: brandID, categoryID: categoryID,
            gender: input.gender.rawValue, priceMinor: price, originalPriceMinor: original, currency: input.price.currency,
            colors: input.colors ?? [], colorName: input.colorName ?? "", fabric: input.fabric ?? "", styles: input.styles ?? [],
            variants: input.variants.map { .init(size: $0.size, color: $0.color, stock: $0.stock, sku: $0.sku, expectedStock: $0.expectedStock) },
            photoIDs: photoIDs, status: input.status == .active ? .active : .inactive, minAge: input.minAge,
            externalURL: input.externalUrl)
    }
}
