import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Vapor

/// An S3-compatible bucket (path-style URLs, SigV4), for running several instances.
struct S3MediaStore: MediaStore {
    let settings: AppConfig.S3
    private var signer: SigV4 {
        SigV4(accessKeyID: settings.accessKeyID, secretAccessKey: settings.secretAccessKey, region: settings.region)
    }

    private func url(_ key: String?) -> URL {
        URL(string: "\(settings.endpoint)/\(settings.bucket)" + (key.map { "/\(settings.keyPrefix)\($0)" } ?? ""))!
    }

    private func request(_ method: HTTPMethod, key: String?, headers: [String: String] = [:]) -> HTTPClientRequest {
        let target = url(key)
        var request = HTTPClientRequest(url: target.absoluteString)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        for (name, value) in signer.sign(method: method.rawValue, url: target, headers: headers, date: Date()) {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        return request
    }

    /// A bucket that cannot be reached is a temporary failure (503), not a bug.
    private func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        do {
            return try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        } catch {
            throw MediaStoreUnavailable(cause: "S3 \(request.method.rawValue) \(request.url): \(error)")
        }
    }

    /// Creates the bucket when it does not exist yet (a local S3 stand-in starts empty).
    func createBucketIfMissing() async throws {
        let head = try await send(request(.HEAD, key: nil))
        guard head.status == .notFound else { return }
        let created = try await send(request(.PUT, key: nil))
        guard created.status == .ok else { throw S3Error(operation: "create bucket", status: created.status.code) }
    }

    func put(key: String, file: URL, contentType: String) async throws {
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        // Keys are content-addressed: an object already under the key holds these bytes. Where the
        // bucket supports conditional writes it answers 412 instead of storing them again; where it
        // does not, the same bytes replace themselves. Either way a PUT is atomic.
        var request = request(.PUT, key: key, headers: ["content-type": contentType, "content-length": String(size), "if-none-match": "*"])
        request.body = .stream(FileChunks(url: file), length: .known(Int64(size)))
        let response = try await send(request)
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok || response.status == .preconditionFailed else {
            throw MediaStoreUnavailable(cause: "S3 put \(key) answered \(response.status.code)")
        }
    }

    func delete(key: String) async throws {
        let response = try await send(request(.DELETE, key: key))
        guard response.status == .noContent || response.status == .ok || response.status == .notFound else {
            throw S3Error(operation: "delete \(key)", status: response.status.code)
        }
    }

    func exists(key: String) async throws -> Bool {
        let response = try await send(request(.HEAD, key: key))
        return response.status == .ok
    }

    func contents(key: String) async throws -> ByteStream {
        let response = try await send(request(.GET, key: key))
        guard response.status == .ok else {
            if response.status == .notFound { throw Problem.notFound("media") }
            throw S3Error(operation: "get \(key)", status: response.status.code)
        }
        return ByteStream(response.body)
    }

    func response(for key: String, contentType: String, request incoming: Request) async throws -> Response {
        var forwarded: [String: String] = [:]
        for name in ["range", "if-none-match", "if-modified-since"] {
            if let value = incoming.headers.first(name: name) { forwarded[name] = value }
        }
        let upstream = try await send(request(.GET, key: key, headers: forwarded))
        guard [.ok, .partialContent, .notModified].contains(upstream.status) else {
            if upstream.status == .notFound { throw Problem.notFound("media") }
            if upstream.status.code == 416 { throw Problem(.rangeNotSatisfiable) }
            throw S3Error(operation: "get \(key)", status: upstream.status.code)
        }
        var headers = HTTPHeaders()
        for name in ["content-length", "content-range", "etag", "last-modified", "accept-ranges"] {
            if let value = upstream.headers.first(name: name) { headers.add(name: name, value: value) }
        }
        headers.replaceOrAdd(name: .contentType, value: contentType)
        let body = upstream.body
        return Response(
            status: HTTPResponseStatus(statusCode: Int(upstream.status.code)), headers: headers,
            body: .init(asyncStream: { writer in
                for try await chunk in body { try await writer.writeBuffer(chunk) }
                try await writer.write(.end)
            }))
    }
}

struct S3Error: Error, CustomStringConvertible {
    var operation: String
    var status: UInt
    var description: String { "S3 \(operation) answered \(status)" }
}

/// A file read in 256 KiB chunks, for streaming uploads without loading the file.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let url: URL

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?

        mutating func next() async throws -> ByteBuffer? {
            guard let handle, let data = try handle.read(upToCount: 256 * 1024), !data.isEmpty else {
                try? handle?.close()
                return nil
            }
            return ByteBuffer(data: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: try? FileHandle(forReadingFrom: url))
    }
}

