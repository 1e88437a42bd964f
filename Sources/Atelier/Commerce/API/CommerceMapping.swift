import AtelierServerAPI
import Fluent
import Foundation

/// Commerce values as the API shows them.
enum CommerceMapping {
    static func money(_ minor: Int, _ currency: String) -> Components.Schemas.Money {
        .init(amount: Int64(minor), currency: currency)
    }

    static func cart(_ contents: CartContents) -> Components.Schemas.Cart {
        .init(
            stores: contents.groups.map { group in
                .init(
                    store: storeSummary(group.store),
                    lines: group.lines.map(line),
                    subtotal: money(group.subtotalMinor, group.currency),
                    orderingEnabled: group.orderingEnabled)
            },
            totals: contents.totals.map { money($0.minor, $0.currency) },
            itemCount: contents.itemCount)
    }

    static func line(_ line: CartContents.Line) -> Components.Schemas.CartLine {
        let currency = line.product.currency
        return .init(
            variantId: line.variant.id!.idString, productId: line.product.id!.idString,
            title: line.product.title, size: line.variant.size, color: line.variant.color, quantity: line.line.quantity,
            unitPrice: money(line.unitPriceMinor, currency), lineTotal: money(line.lineTotalMinor, currency),
            available: line.variant.available,
            issues: line.issues.map { issue in
                .init(
                    kind: .init(rawValue: issue.kind.rawValue)!, message: issue.message,
                    previousPrice: issue.previousPriceMinor.map { money($0, currency) })
            })
    }

    static func storeSummary(_ store: Store) -> Components.Schemas.StoreSummary {
        .init(id: store.id!.idString, name: store.name, slug: store.slug, city: store.city)
    }

    /// Orders with their lines, history, store and (for staff) customer, read in a few queries.
    /// `payment` is filled for the customer's own view (`stripe`: the provider's settings).
    static func orders(
        _ orders: [Order], withCustomers: Bool, payment stripe: AppConfig.Stripe? = nil, on db: any Database
    ) async throws -> [Components.Schemas.Order] {
        guard !orders.isEmpty else { return [] }
        let ids = orders.map { $0.id! }
        let lines = Dictionary(grouping: try await OrderLine.query(on: db).filter(\.$orderID ~~ ids).sort(\.$position).all(), by: \.orderID)
        let events = Dictionary(grouping: try await OrderEvent.query(on: db).filter(\.$orderID ~~ ids).sort(\.$position).all(), by: \.orderID)
        let stores = Dictionary(
            uniqueKeysWithValues: try await Store.query(on: db).filter(\.$id ~~ Set(orders.map(\.storeID))).all().map { ($0.id!, $0) })
        let staffIDs = try await Set(StoreMember.query(on: db).filter(\.$store.$id ~~ Set(orders.map(\.storeID))).all().map { $0.$user.id })
        var customers: [UUID: User] = [:]
        if withCustomers {
            for user in try await User.query(on: db).filter(\.$id ~~ Set(orders.compactMap(\.userID))).all() { customers[user.id!] = user }
        }
        return orders.map { order in
            let currency = order.currency
            let address = order.deliveryAddress.flatMap { try? JSONDecoder().decode(CheckoutRequest.Address.self, from: Data($0.utf8)) }
            return .init(
                id: order.id!.idString, number: order.number, pickupCode: PickupCode.of(order),
                store: stores[order.storeID].map(storeSummary) ?? .init(id: order.storeID.idString, name: "", slug: "", city: ""),
                customer: order.userID.flatMap { customers[$0] }.map {
                    .init(id: $0.id!.idString, displayName: $0.displayName, username: $0.username, email: $0.email)
                },
                status: .init(rawValue: order.status)!, fulfilment: .init(rawValue: order.fulfilment)!,
                paymentMethod: .init(rawValue: order.paymentMethod)!,
                lines: (lines[order.id!] ?? []).map { line in
                    .init(
                        id: line.id!.idString, productId: line.productID?.idString, variantId: line.variantID?.idString,
                        title: line.title, size: line.size, quantity: line.quantity,
                        unitPrice: money(line.unitPriceMinor, currency), lineTotal: money(line.unitPriceMinor * line.quantity, currency))
                },
                subtotal: money(order.subtotalMinor, currency), discount: money(order.discountMinor, currency),
                deliveryFee: money(order.deliveryFeeMinor, currency), total: money(order.totalMinor, currency),
                discountCode: order.discountCode, holdUntil: order.holdUntil,
                deliveryAddress: address.map {
                    .init(name: $0.name, street: $0.street, postalCode: $0.postalCode, city: $0.city, phone: $0.phone, lat: $0.lat, lng: $0.lng)
                },
                cancelReason: order.cancelReason, idChecked: order.idChecked,
                payment: payment(order, stripe),
                vat: vat(order, lines: lines[order.id!] ?? []),
                history: (events[order.id!] ?? []).map { event in
                    .init(
                        from: event.fromStatus.flatMap { .init(rawValue: $0) }, to: .init(rawValue: event.toStatus)!, at: event.createdAt,
                        reason: event.reason, byStaff: event.actorID.map { staffIDs.contains($0) && $0 != order.userID })
                },
                createdAt: order.createdAt, updatedAt: order.updatedAt)
        }
    }

    static func vat(_ order: Order, lines: [OrderLine]) -> Components.Schemas.OrderVat {
        let breakdown = VATBreakdown(order, lines: lines)
        let percent = { (bp: Int) in Double(bp) / 100 }
        return .init(
            pricesIncludeVat: breakdown.pricesIncludeVAT,
            rates: breakdown.rates.map {
                .init(rate: percent($0.basisPoints), net: money($0.netMinor, order.currency), vat: money($0.vatMinor, order.currency),
                      gross: money($0.grossMinor, order.currency))
            },
            net: money(breakdown.netMinor, order.currency), vat: money(breakdown.vatMinor, order.currency),
            gross: money(breakdown.grossMinor, order.currency))
    }

    static func payment(_ order: Order, _ stripe: AppConfig.Stripe?) -> Components.Schemas.OrderPayment? {
        guard let stripe, order.state == .pendingPayment, let secret = order.paymentClientSecret else { return nil }
        return .init(provider: .stripe, clientSecret: secret, publishableKey: stripe.publishableKey, payBefore: order.holdUntil)
    }

    static func settings(_ s: CommerceSettings, currency: String) -> Components.Schemas.CommerceSettings {
        .init(
            orderingEnabled: s.orderingEnabled, reserveEnabled: s.reserveEnabled, reserveHours: s.reserveHours,
            reserveMaxItems: s.reserveMaxItems, pickupEnabled: s.pickupEnabled, pickupPreparationMinutes: s.pickupPreparationMinutes,
            deliveryEnabled: s.deliveryEnabled, deliveryRadiusKm: s.deliveryRadiusKm, deliveryFee: money(s.deliveryFeeMinor, currency),
            deliveryFreeOver: s.deliveryFreeOverMinor.map { money($0, currency) }, payAtStore: s.payAtStore, payByCard: s.payByCard,
            payByInvoice: s.payByInvoice, minimumOrder: money(s.minimumOrderMinor, currency), legalAge: s.legalAge,
            restrictedCategoryIds: s.restrictedCategoryIDs.map { $0.idString }, requireIdCheck: s.requireIDCheck,
            signInToBrowse: s.signInToBrowse, deliveryPostcodes: s.deliveryPostcodes, pricesIncludeVat: s.pricesIncludeVAT,
            vatRate: Double(s.vatRateBasisPoints) / 100,
            categoryVatRates: s.categoryVATRates.sorted { $0.key.uuidString < $1.key.uuidString }
                .map { .init(categoryId: $0.key.idString, rate: Double($0.value) / 100) })
    }

    static func stock(_ v: ProductVariant) -> Components.Schemas.VariantStock {
        .init(
            variantId: v.id!.idString, productId: v.$product.id.idString, size: v.size, onHand: v.stock,
            held: v.held, allocated: v.allocated, available: v.available, lowStockThreshold: v.lowStockThreshold, gtin: v.gtin)
    }

    static func discountCode(_ c: DiscountCode) -> Components.Schemas.DiscountCode {
        .init(
            id: c.id!.idString, code: c.code, kind: .init(rawValue: c.kind)!, value: c.value, minimumOrder: c.minimumOrderMinor,
            startsAt: c.startsAt, endsAt: c.endsAt, totalLimit: c.totalLimit, perCustomerLimit: c.perCustomerLimit, usedCount: c.usedCount,
            createdAt: c.createdAt)
    }
}
