import Foundation

/// What the shopper chose at checkout, validated.
struct CheckoutRequest: Sendable, Equatable {
    struct Address: Codable, Sendable, Equatable {
        var name: String
        var street: String
        var postalCode: String
        var city: String
        var phone: String?
        /// Absent for an address a person typed; filled by the address search when a store needs them.
        var lat: Double?
        var lng: Double?
    }

    var fulfilment: Order.Fulfilment
    var payment: Order.Payment
    var discountCode: String?
    var address: Address?

    init(fulfilment: Order.Fulfilment, payment: Order.Payment, discountCode: String?, address: Address?) throws {
        var errors = FieldErrors()
        let code = discountCode?.trimmingCharacters(in: .whitespaces).uppercased()
        self.discountCode = code?.isEmpty == true ? nil : code
        if fulfilment == .delivery {
            if let address {
                if address.name.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("deliveryAddress.name", "is required") }
                if address.street.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("deliveryAddress.street", "is required") }
                if address.city.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("deliveryAddress.city", "is required") }
                var geo = FieldErrors()
                Geo.check(lat: address.lat, lng: address.lng, into: &geo)
                for error in geo.errors { errors.add("deliveryAddress.\(error.field)", error.message) }
            } else {
                errors.add("deliveryAddress", "is required for delivery")
            }
        }
        if fulfilment == .reserve, payment != .payAtStore {
            errors.add("paymentMethod", "a reservation is paid in the shop, if you keep it")
        }
        if fulfilment == .delivery, payment == .payAtStore {
            errors.add("paymentMethod", "payAtStore is for reservations and pickups; choose card or invoice for delivery")
        }
        try errors.throwIfAny()
        self.fulfilment = fulfilment
        self.payment = payment
        self.address = fulfilment == .delivery ? address : nil
    }
}
