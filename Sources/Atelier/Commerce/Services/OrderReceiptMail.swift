import Foundation

/// The receipt mailed when an order is placed: what was ordered, what it costs, how to get it.
/// Queued in the checkout's transaction (the outbox sends it after the commit, and never for a
/// checkout that rolled back).
enum OrderReceiptMail {
    static func mail(for order: Order, lines: [CartContents.Line], store: Store, to address: String, baseURL: String) -> Mail {
        let money = { (minor: Int) in MoneyText.format(minor, order.currency) }
        var text = "Thank you for your order at \(store.name).\n\n"
        text += "Order \(order.number), \(OrderWebPages.fulfilments[order.fulfilment] ?? order.fulfilment), "
        text += "\(OrderWebPages.payments[order.paymentMethod] ?? order.paymentMethod)\n\n"
        for line in lines {
            text += "\(line.line.quantity) × \(line.product.title), size \(line.variant.size)    \(money(line.lineTotalMinor))\n"
        }
        text += "\nSubtotal    \(money(order.subtotalMinor))\n"
        if order.discountMinor > 0 { text += "Discount (\(order.discountCode ?? ""))    −\(money(order.discountMinor))\n" }
        if order.deliveryFeeMinor > 0 { text += "Delivery    \(money(order.deliveryFeeMinor))\n" }
        text += "Total    \(money(order.totalMinor))\n\n"
        if let until = order.holdUntil, order.fulfilment == Order.Fulfilment.reserve.rawValue {
            text += "We hold it for you until \(OrderWebPages.format(until, timeZone: store.timeZone)).\n"
        }
        text += "\(store.name), \(store.street), \(store.city)\n"
        text += "Your receipt and the order's progress: \(baseURL)/orders/\(order.id!.idString)\n"
        return Mail(to: address, subject: "Your order \(order.number) at \(store.name)", text: text)
    }
}
