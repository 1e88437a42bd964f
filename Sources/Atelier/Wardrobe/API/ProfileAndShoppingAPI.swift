import AtelierServerAPI
import Foundation
import OpenAPIRuntime
import Vapor

/// `/me/try-on`, `/me/size-profile` and `/me/recommendations`.
extension APIHandler {
    func tryOn(_ input: Operations.TryOn.Input) async throws -> Operations.TryOn.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        var errors = FieldErrors()
        let itemIDs = SearchParameters.ids(body.closetItemIds, "closetItemIds", into: &errors)
        let productIDs = SearchParameters.ids(body.productIds, "productIds", into: &errors)
        try errors.throwIfAny()
        let png = try await TryOn(db: req.db, core: services.core, mediaLibrary: services.media).render(ownerID: user.requireID(), closetItemIDs: itemIDs, productIDs: productIDs)
        return .ok(.init(body: .png(HTTPBody(png))))
    }

    func getSizeProfile(_ input: Operations.GetSizeProfile.Input) async throws -> Operations.GetSizeProfile.Output {
        let (req, user) = try await socialCaller()
        let profile = try await SizeProfileService(db: req.db, core: services.core).profile(of: user.requireID())
        return .ok(.init(body: .json(Self.sizeProfileBody(profile))))
    }

    func putSizeProfile(_ input: Operations.PutSizeProfile.Input) async throws -> Operations.PutSizeProfile.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        func money(_ value: Components.Schemas.Money?, _ field: String) throws -> (amount: Int, currency: String)? {
            guard let value else { return nil }
            // Compared, not abs(): abs(Int64.min) traps.
            guard value.amount <= Int64(ClosetItemDraft.maxPriceMinor), value.amount >= -Int64(ClosetItemDraft.maxPriceMinor) else {
                throw Problem.invalid("\(field).amount", "is out of range")
            }
            return (Int(value.amount), value.currency)
        }
        let saved = try await SizeProfileService(db: req.db, core: services.core).replace(for: user.requireID(), with: .init(
            units: body.units?.rawValue, heightCm: body.heightCm, chestCm: body.chestCm, waistCm: body.waistCm, hipsCm: body.hipsCm,
            inseamCm: body.inseamCm, shoeSizeEU: body.shoeSizeEu, preferredSizes: body.preferredSizes?.additionalProperties ?? [:],
            styles: body.styles ?? [], colours: body.colours ?? [],
            brandIDs: try (body.brandIds ?? []).map { raw in
                guard let id = UUID(uuidString: raw) else { throw Problem.invalid("brandIds", "'\(raw.prefix(40))' is not an id") }
                return id
            },
            priceMin: try money(body.priceMin, "priceMin"), priceMax: try money(body.priceMax, "priceMax"),
            defaultToPreferences: body.defaultToPreferences ?? false))
        return .ok(.init(body: .json(Self.sizeProfileBody(saved))))
    }

    func getRecommendations(_ input: Operations.GetRecommendations.Input) async throws -> Operations.GetRecommendations.Output {
        let (req, user) = try await socialCaller()
        let limit = input.query.limit ?? 20
        guard (1...50).contains(limit) else {
            throw Problem(.badRequest, detail: "limit must be between 1 and 50.", errors: [.init(field: "limit", message: "must be between 1 and 50")])
        }
        let found = try await ClosetRecommendations(db: req.db).recommend(for: user, limit: limit)
        let origin = user.homeLat.flatMap { lat in user.homeLng.map { Components.Schemas.ProductCard.Origin(lat: lat, lng: $0) } }
        let cards = try await productCards(found.map(\.product), req, from: origin)
        return .ok(.init(body: .json(.init(items: zip(found, cards).map { recommendation, card in
            .init(product: card, size: recommendation.size, kind: recommendation.completesTheLook ? .completeTheLook : .forYou, reasons: recommendation.reasons)
        }))))
    }

    static func sizeProfileBody(_ profile: SizeProfile?) -> Components.Schemas.SizeProfile {
        guard let profile else { return .init(units: .metric, preferredSizes: .init(additionalProperties: [:]), styles: [], colours: [], brandIds: []) }
        return .init(
            units: .init(rawValue: profile.units) ?? .metric, heightCm: profile.heightCm, chestCm: profile.chestCm, waistCm: profile.waistCm,
            hipsCm: profile.hipsCm, inseamCm: profile.inseamCm, shoeSizeEu: profile.shoeSizeEU,
            preferredSizes: .init(additionalProperties: profile.preferredSizes), styles: profile.styles, colours: profile.colours.map(\.rawValue),
            brandIds: profile.brandIDs.map { $0.idString },
            priceMin: profile.priceMinMinor.flatMap { amount in profile.currency.map { CommerceMapping.money(amount, $0) } },
            priceMax: profile.priceMaxMinor.flatMap { amount in profile.currency.map { CommerceMapping.money(amount, $0) } },
            defaultToPreferences: profile.defaultToPreferences)
    }
}
