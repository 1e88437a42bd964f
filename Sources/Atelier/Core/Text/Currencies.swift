/// The currencies Atelier handles money in.
enum Currencies {
    /// ISO 4217 codes of the currencies a store may price in, with their minor-unit digits.
    static let minorDigits: [String: Int] = [
        "SEK": 2, "NOK": 2, "DKK": 2, "EUR": 2, "USD": 2, "GBP": 2, "CHF": 2, "PLN": 2, "CZK": 2, "HUF": 2,
        "RON": 2, "BGN": 2, "ISK": 0, "CAD": 2, "AUD": 2, "NZD": 2, "JPY": 0, "CNY": 2, "KRW": 0, "INR": 2,
        "TRY": 2, "UAH": 2, "BRL": 2, "MXN": 2, "ZAR": 2, "AED": 2, "SGD": 2, "HKD": 2,
    ]
}
