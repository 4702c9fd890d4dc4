import Hummingbird

/// Cross-origin access for browsers on other sites: `Access-Control-Allow-Origin` for the
/// configured origins (or `*`) and answers to preflight `OPTIONS` requests.
///
/// Hummingbird's CORS middleware takes its list of origins as a variadic argument only, which a
/// list read from the command line cannot feed; this one takes an array.
struct CORSPolicy: RouterMiddleware {
    typealias Context = ServerContext
    let allowedOrigins: [String]

    private var allowsAny: Bool { allowedOrigins.contains("*") }

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        let allowed = allowsAny || allowedOrigins.contains(origin)
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            guard allowed else { throw APIError(.forbidden, "origin \(origin) may not call this server", details: ["allowed: \(allowedOrigins.joined(separator: ", "))"]) }
            var headers = HTTPFields()
            apply(origin: origin, to: &headers)
            headers[.accessControlAllowMethods] = "GET, HEAD, OPTIONS"
            headers[.accessControlAllowHeaders] = "Accept, Authorization, Content-Type, If-None-Match"
            headers[.accessControlMaxAge] = "3600"
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        if allowed { apply(origin: origin, to: &response.headers) }
        return response
    }

    private func apply(origin: String, to headers: inout HTTPFields) {
        headers[.accessControlAllowOrigin] = allowsAny ? "*" : origin
        headers[.accessControlExposeHeaders] = "ETag, Retry-After, Content-Encoding"
        if !allowsAny { headers[.vary] = "Origin" }
    }
}
