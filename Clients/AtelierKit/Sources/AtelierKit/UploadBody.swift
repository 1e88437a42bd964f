import AtelierAPI
import Foundation
import OpenAPIRuntime

/// The body of `POST /media` for some image bytes, typed by what the bytes are (JPEG, PNG, WebP,
/// HEIC), not by what the app believes they are; anything else goes as octet-stream and the
/// server names what is wrong with it.
enum UploadBody {
    static func image(_ data: Data) -> Operations.UploadMedia.Input.Body {
        let body = HTTPBody(data)
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg(body) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png(body) }
        if bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x45, 0x42, 0x50] { return .imageWebp(body) }
        if bytes.count >= 12, bytes[4..<8] == [0x66, 0x74, 0x79, 0x70] { return .imageHeic(body) }
        return .binary(body)
    }
}
