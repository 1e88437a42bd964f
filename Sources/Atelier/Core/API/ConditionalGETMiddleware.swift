import Crypto
import Vapor

/// Cacheable GETs (spec: API conventions): a 200 JSON answer gets a weak `ETag` made from its
/// body, and a request presenting that tag in `If-None-Match` gets `304 Not Modified` without the
/// body. Only JSON is tagged (files and archives have their own validators or none).
/// Having the body at hand, it also marks a large one for gzip (`GZIP_MIN_BYTES`; the server's
/// compressor then compresses it when the client sends `Accept-Encoding: gzip`): a list page shrinks
/// to about a fifth on a phone's network.
struct ConditionalGETMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let written = WrittenAnswer()
        let response = try await WrittenAnswer.$current.withValue(written) { try await next.respond(to: request) }
        guard request.method == .GET || request.method == .HEAD, response.status == .ok,
            response.headers.first(name: .eTag) == nil, response.headers.isJSONAnswer
        else { return response }
        let body: ByteBuffer
        // The layers inside pass a GET's answer through as the handler made it: still OpenAPIVapor's
        // stream (a layer that wrote other bytes would leave a buffer), of the written length.
        if let whole = written.body, response.body.buffer == nil, response.body.count == whole.readableBytes {
            #if DEBUG
            // Debug builds (the tests) read the stream anyway: it must be the bytes taken.
            let streamed = try await response.body.collect(on: request.eventLoop).get()
            assert(streamed == whole, "\(request.url.path): the answer sent is not the one JSONBytesTransport wrote")
            #endif
            body = whole
            request.core.writtenAnswers.count(taken: true)
        } else {
            // The generated handlers stream even small JSON bodies; read it to hash it.
            guard let collected = try await response.body.collect(on: request.eventLoop).get() else { return response }
            body = collected
            request.core.writtenAnswers.count(taken: false)
        }
        response.body = .init(buffer: body)
        let digest = SHA256.hash(data: Data(body.readableBytesView))
        let tag = "W/\"" + Hex.lowercase(digest.prefix(16)) + "\""
        response.headers.replaceOrAdd(name: .eTag, value: tag)
        let gzipFrom = request.core.config.gzipMinimumBytes
        if gzipFrom > 0, body.readableBytes >= gzipFrom {
            response.headers.responseCompression = .enable
            response.headers.replaceOrAdd(name: .vary, value: "Accept-Encoding")
        }
        if response.headers.first(name: .cacheControl) == nil {
            // Answers may depend on who asks; caches must check before reusing one.
            response.headers.replaceOrAdd(name: .cacheControl, value: request.headers.bearerAuthorization == nil ? "no-cache" : "private, no-cache")
        }
        let presented = request.headers[.ifNoneMatch].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        if presented.contains(tag) || presented.contains("*") {
            let notModified = Response(status: .notModified, headers: response.headers)
            notModified.headers.remove(name: .contentLength)
            return notModified
        }
        return response
    }
}
