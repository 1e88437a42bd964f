import Foundation
import NIOCore
import Vapor
import VaporTesting

@testable import Atelier

/// A multipart/form-data body as a browser sends it, for the web tests' forms with files.
struct MultipartForm {
    let boundary = "atelier-\(UUID().uuidString)"
    private var body = Data()

    mutating func add(_ name: String, filename: String? = nil, _ value: Data) {
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\(filename.map { "; filename=\"\($0)\"" } ?? "")\r\n\r\n".utf8))
        body.append(value)
        body.append(Data("\r\n".utf8))
    }

    mutating func add(_ name: String, _ value: String) {
        add(name, Data(value.utf8))
    }

    /// Posts the form to a web page with the session `cookie`, as a browser asking for HTML.
    func post(_ t: TestApp, _ path: String, cookie: String) async throws -> TestingHTTPResponse {
        var closed = body
        closed.append(Data("--\(boundary)--\r\n".utf8))
        var headers = HTTPHeaders()
        headers.add(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
        headers.add(name: "Cookie", value: cookie)
        headers.add(name: "Accept", value: "text/html")
        return try await t.app.testing().sendRequest(.POST, path, headers: headers, body: ByteBuffer(data: closed))
    }
}
