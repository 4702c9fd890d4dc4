import Foundation
import Hummingbird

/// An API key the server accepts, with its rate limit.
public struct APIKey: Sendable, Hashable {
    public let key: String
    /// Requests allowed per minute with this key (and with tokens issued for it).
    public let requestsPerMinute: Int

    public init(key: String, requestsPerMinute: Int = 600) {
        self.key = key
        self.requestsPerMinute = requestsPerMinute
    }
}

/// Checks API keys and tokens when keys are configured (placeholder: lets every request through
/// until the `/v1/token` exchange and per-key limits land).
struct APIKeyMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let keys: [APIKey]

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        try await next(request, context)
    }
}
