import AtelierAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An upload in progress: `progress` yields the bytes sent so far (only growing, ending at the
/// file's size), `value` the server's answer.
public struct FileUpload<Value: Sendable>: Sendable {
    public let progress: AsyncStream<Int64>
    public let task: Task<Value, any Error>

    public var value: Value {
        get async throws { try await task.value }
    }

    public func cancel() { task.cancel() }
}

/// Sends a file as a request's raw body, read from disk as it goes out (never whole in memory),
/// through URLSession's file upload. The session's token goes with it (refreshed once on a 401),
/// and a lost connection or a busy answer starts it again with the same `Idempotency-Key`, as
/// `RetryPolicy` says.
struct FileUploader {
    let session: AtelierSession

    func upload<Value: Decodable & Sendable>(
        _ file: URL, method: String, path: String, query: [URLQueryItem] = [], contentType: String, as: Value.Type
    ) -> FileUpload<Value> {
        let (progress, report) = AsyncStream<Int64>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let key = UUID().uuidString.lowercased()
        let task = Task<Value, any Error> {
            defer { report.finish() }
            let total = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
            let meter = ProgressMeter(report)
            var attempt = 1
            var refreshed = false
            while true {
                var request = URLRequest(url: try url(path: path, query: query))
                request.httpMethod = method
                request.setValue(contentType, forHTTPHeaderField: "Content-Type")
                request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
                request.setValue("application/json, application/problem+json", forHTTPHeaderField: "Accept")
                let token = try await session.tokens.accessTokenForRequest()
                if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
                let last = attempt >= session.retryPolicy.maxAttempts
                let answer: UploadTask.Answer
                do {
                    answer = try await UploadTask.run(request, file: file, onSent: meter.sent)
                } catch let error where !last && RetryMiddleware.isConnectionFailure(error) {
                    try await Task.sleep(for: session.retryPolicy.backoff(after: attempt))
                    attempt += 1
                    continue
                }
                if answer.status == 401, let token, !refreshed {
                    refreshed = true
                    _ = try await session.tokens.accessToken(replacing: token)
                    continue
                }
                if !last, RetryPolicy.retriedStatuses.contains(answer.status) {
                    let asked = RetryPolicy.retryAfter(answer.retryAfter)
                    if asked.map({ $0 <= session.retryPolicy.maxRetryAfter }) ?? true {
                        try await Task.sleep(for: max(asked ?? .zero, session.retryPolicy.backoff(after: attempt)))
                        attempt += 1
                        continue
                    }
                }
                guard (200..<300).contains(answer.status) else { throw Self.failure(answer.status, answer.body) }
                meter.sent(total)
                return try GeneratedJSON.decoder.decode(Value.self, from: answer.body)
            }
        }
        return FileUpload(progress: progress, task: task)
    }

    private func url(path: String, query: [URLQueryItem]) throws -> URL {
        var components = URLComponents(url: session.baseURL.appendingPathComponent("api/v1" + path), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query }
        guard let url = components?.url else { throw AtelierError.unexpectedResponse("not a URL: \(path)") }
        return url
    }

    static func failure(_ status: Int, _ body: Data) -> AtelierError {
        switch status {
        case 401: return .signedOut
        case 429: return .rateLimited(retryAfter: nil)
        default: return AtelierError(try? GeneratedJSON.decoder.decode(Components.Schemas.Problem.self, from: body), status: status)
        }
    }
}

/// Bytes sent, told only when more than before: a retried upload starts again from nothing, and
/// a progress bar must not go back.
final class ProgressMeter: @unchecked Sendable {
    private let lock = NSLock()
    private var highest: Int64 = 0
    private let report: AsyncStream<Int64>.Continuation

    init(_ report: AsyncStream<Int64>.Continuation) {
        self.report = report
    }

    func sent(_ bytes: Int64) {
        let grew = lock.withLock { () -> Bool in
            guard bytes > highest else { return false }
            highest = bytes
            return true
        }
        if grew { report.yield(bytes) }
    }
}

/// One URLSession upload from a file, with its delegate: progress as bytes go out, the answer
/// collected when it comes back.
final class UploadTask: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Answer: Sendable {
        var status: Int
        var retryAfter: String?
        var body: Data
    }

    private let lock = NSLock()
    private var body = Data()
    private var continuation: CheckedContinuation<Answer, any Error>?
    private let onSent: @Sendable (Int64) -> Void

    private init(onSent: @escaping @Sendable (Int64) -> Void) {
        self.onSent = onSent
    }

    static func run(_ request: URLRequest, file: URL, onSent: @escaping @Sendable (Int64) -> Void) async throws -> Answer {
        let delegate = UploadTask(onSent: onSent)
        let configuration = BackgroundUploads.configuration()
        let urlSession = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        BackgroundUploads.opened(configuration.identifier)
        defer {
            urlSession.finishTasksAndInvalidate()
            BackgroundUploads.closed(configuration.identifier)
        }
        let task = urlSession.uploadTask(with: request, fromFile: file)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.lock.withLock { delegate.continuation = continuation }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        BackgroundUploads.finishedEvents(forIdentifier: session.configuration.identifier)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        onSent(totalBytesSent)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, body) = lock.withLock { () -> (CheckedContinuation<Answer, any Error>?, Data) in
            defer { self.continuation = nil }
            return (self.continuation, self.body)
        }
        if let error {
            continuation?.resume(throwing: error)
        } else if let response = task.response as? HTTPURLResponse {
            continuation?.resume(returning: Answer(status: response.statusCode, retryAfter: response.value(forHTTPHeaderField: "Retry-After"), body: body))
        } else {
            continuation?.resume(throwing: URLError(.badServerResponse))
        }
    }
}

