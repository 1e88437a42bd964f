import Foundation

/// `Content-Disposition: attachment` for a download (RFC 6266): `filename` with an ASCII stand-in
/// for old clients, and `filename*` (RFC 8187: UTF-8, percent-encoded) with the real name, which
/// browsers prefer, so "Ziua lui Ștefan" saves as `ziua-lui-ștefan-album.zip`.
enum ContentDisposition {
    static func attachment(fileName: String) -> String {
        let fallback = asciiStandIn(fileName)
        guard fallback != fileName else { return "attachment; filename=\"\(fileName)\"" }
        return "attachment; filename=\"\(fallback)\"; filename*=UTF-8''\(encoded(fileName))"
    }

    /// RFC 8187's attr-char kept, every other UTF-8 byte percent-encoded.
    static func encoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || Array("!#$&+-.^_`|~".utf8).contains(byte)
            {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Letters without their accents; anything else outside printable ASCII, and the quote and
    /// backslash a quoted-string would need escaped, become "_".
    private static func asciiStandIn(_ text: String) -> String {
        let folded = text.folding(options: .diacriticInsensitive, locale: Locale(identifier: "en"))
        return String(folded.unicodeScalars.map { scalar -> Character in
            (0x20...0x7E).contains(scalar.value) && scalar != "\"" && scalar != "\\" ? Character(scalar) : "_"
        })
    }
}
