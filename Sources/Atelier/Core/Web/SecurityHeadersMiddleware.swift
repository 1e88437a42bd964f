import Vapor

/// Security headers on every response, and the request id echoed back for support.
struct SecurityHeadersMiddleware: Middleware {
    let httpsOnly: Bool
    let contentSecurityPolicy: String

    /// `publicBaseURL`'s origin may serve images too: media URLs are absolute on it, and a page
    /// reached under another name (127.0.0.1, a LAN address) must still show its photos.
    init(httpsOnly: Bool, publicBaseURL: String) {
        self.httpsOnly = httpsOnly
        let mediaOrigin = URL(string: publicBaseURL).flatMap { url in
            url.scheme.flatMap { scheme in url.host.map { "\(scheme)://\($0)" + (url.port.map { ":\($0)" } ?? "") } }
        }
        contentSecurityPolicy = [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:" + (mediaOrigin.map { " " + $0 } ?? ""),
            "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    // On futures, not async: it runs for every request, and an async middleware costs a task each (AsyncMiddlewareChain).
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let requestID = Self.requestID(of: request)
        return next.respond(to: request).map { response in
            let headers = [
                ("Content-Security-Policy", contentSecurityPolicy),
                ("X-Content-Type-Options", "nosniff"),
                ("Referrer-Policy", "strict-origin-when-cross-origin"),
                ("X-Frame-Options", "DENY"),
                ("Permissions-Policy", "camera=(), microphone=(), geolocation=(self)"),
            ]
            for (name, value) in headers where !response.headers.contains(name: name) {
                response.headers.replaceOrAdd(name: name, value: value)
            }
            if httpsOnly {
                response.headers.replaceOrAdd(name: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains")
            }
            if let requestID {
                response.headers.replaceOrAdd(name: "X-Request-Id", value: requestID)
            }
            return response
        }
    }

    /// The request id of the logs and the answer. One the client sent stays as sent; the one Vapor
    /// makes up is a UUID in upper case, written in lower case like every id (issue 23).
    private static func requestID(of request: Request) -> String? {
        guard case .string(let id)? = request.logger[metadataKey: "request-id"] else { return nil }
        guard request.headers.first(name: .xRequestId) == nil else { return id }
        let lowered = id.lowercased()
        request.logger[metadataKey: "request-id"] = .string(lowered)
        return lowered
    }
}
