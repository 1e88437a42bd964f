import Foundation
import HTTPTypes
import OpenAPIRuntime
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the generated client's requests with a `URLSession`, whole bodies each way. The SDK's
/// own, so that an app adding AtelierKit resolves no transport package (issue 52); big files go
/// through `FileUpload`, which streams from disk.
public struct URLSessionAPITransport: ClientTransport {
    public let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var urlRequest = URLRequest(url: try Self.url(of: request, on: baseURL))
        urlRequest.httpMethod = request.method.rawValue
        for name in Set(request.headerFields.map(\.name)) {
            // Repeated fields travel as one, comma-separated (cookies with "; "), as HTTP/1.1 allows.
            urlRequest.setValue(request.headerFields[values: name].joined(separator: name == .cookie ? "; " : ", "), forHTTPHeaderField: name.rawName)
        }
        if let body { urlRequest.httpBody = try await Data(collecting: body, upTo: .max) }
        let (data, response) = try await Self.data(for: urlRequest, in: session)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields = HTTPFields()
        for (key, value) in http.allHeaderFields {
            guard let key = key as? String, let name = HTTPField.Name(key) else { continue }
            fields.append(HTTPField(name: name, value: "\(value)"))
        }
        let answer = HTTPResponse(status: .init(code: http.statusCode), headerFields: fields)
        return (answer, request.method == .head ? nil : HTTPBody(data))
    }

    /// The base URL with the request's path and query after it (the base keeps its own path, `/api/v1`).
    static func url(of request: HTTPRequest, on baseURL: URL) throws -> URL {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard let url = URL(string: base + (request.path ?? "")) else { throw URLError(.badURL) }
        return url
    }

    /// `URLSession.data(for:)`, cancelled with the task that waits for it.
    static func data(for request: URLRequest, in session: URLSession) async throws -> (Data, URLResponse) {
        let running = TaskHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error { continuation.resume(throwing: error); return }
                    guard let response else { continuation.resume(throwing: URLError(.badServerResponse)); return }
                    continuation.resume(returning: (data ?? Data(), response))
                }
                running.start(task)
            }
        } onCancel: {
            running.cancel()
        }
    }
}

/// A data task that may be cancelled before or after it starts.
final class TaskHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false

    func start(_ task: URLSessionTask) {
        let go = lock.withLock { () -> Bool in
            self.task = task
            return !cancelled
        }
        if go { task.resume() } else { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock { () -> URLSessionTask? in
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}
