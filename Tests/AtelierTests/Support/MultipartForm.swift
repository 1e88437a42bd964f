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

    /// Posts the form to a web page with the session `cookie`, as a browser asking for HTML. With
    /// `overHTTP` it goes through a real server on loopback, so body limits that apply while the
    /// body streams in (which the in-process tester skips) apply too.
    func post(_ t: TestApp, _ path: String, cookie: String, overHTTP: Bool = false) async throws -> TestingHTTPResponse {
        var closed = body
        closed.append(Data("--\(boundary)--\r\n".utf8))
        var headers = HTTPHeaders()
        headers.add(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
        headers.add(name: "Cookie", value: cookie)
        headers.add(name: "Accept", value: "text/html")
        let tester = overHTTP ? try t.app.testing(method: .running(port: Int.random(in: 20_000...40_000))) : try t.app.testing()
        return try await tester.sendRequest(.POST, path, headers: headers, body: ByteBuffer(data: closed))
    }
}
