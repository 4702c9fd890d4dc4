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

    /// A short, non-secret name for the key (the start of its SHA-256), carried inside the access
    /// tokens issued for it so that a token never contains the key itself.
    var identifier: String {
        MessageAuthentication.sha256(Array(key.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
    }
}

/// Short-lived access tokens, the self-hosted form of the Apple Maps Server API's `/v1/token`
/// exchange: a client trades its API key for a token and sends the token with every call, so the
/// long-lived key travels once per half hour instead of with every request.
///
/// A token is `omk1.<payload>.<signature>`: the payload names the key (by ``APIKey/identifier``)
/// and the expiry; the signature is an HMAC-SHA256 with a secret drawn at random when the process
/// starts. Nothing is stored per token, so checking one is a hash, and a restart revokes them all
/// (clients fetch a new one, as they must every 30 minutes anyway).
enum AccessTokens {
    /// How long a token is valid, as Apple's (30 minutes).
    static let lifetime: TimeInterval = 1800

    /// The process's signing secret; also signs `/v1/search` page tokens.
    static let secret = MessageAuthentication.randomKey()

    private static let prefix = "omk1"

    /// A token for the key named `keyIdentifier` that expires `lifetime` seconds after `now`.
    static func issue(for keyIdentifier: String, now: Date = Date(), lifetime: TimeInterval = lifetime) -> String {
        let expiry = Int((now.timeIntervalSince1970 + lifetime).rounded(.down))
        let payload = Base64URL.encode(Array("\(keyIdentifier).\(expiry)".utf8))
        return "\(prefix).\(payload).\(sign(payload))"
    }

    /// Whether `text` has a token's shape (it may still be forged or expired).
    static func looksLikeToken(_ text: String) -> Bool { text.hasPrefix(prefix + ".") }

    enum Verdict: Equatable {
        case valid(keyIdentifier: String, expires: Date)
        case expired(Date)
        case forged
    }

    static func verify(_ token: String, now: Date = Date()) -> Verdict {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == prefix, let signature = Base64URL.decode(String(parts[2])),
              MessageAuthentication.isValidHMAC(signature, for: Array(parts[1].utf8), key: secret),
              let payload = Base64URL.decode(String(parts[1])).flatMap({ String(bytes: $0, encoding: .utf8) }) else { return .forged }
        let fields = payload.split(separator: ".")
        guard fields.count == 2, let seconds = Int(fields[1]) else { return .forged }
        let expires = Date(timeIntervalSince1970: TimeInterval(seconds))
        return expires > now ? .valid(keyIdentifier: String(fields[0]), expires: expires) : .expired(expires)
    }

    /// The base64url HMAC of `text` with the process secret.
    static func sign(_ text: String) -> String {
        Base64URL.encode(MessageAuthentication.hmacSHA256(Array(text.utf8), key: secret))
    }

    /// Whether `signature` is `text`'s HMAC (compared in constant time).
    static func isValid(signature: String, for text: String) -> Bool {
        guard let bytes = Base64URL.decode(signature) else { return false }
        return MessageAuthentication.isValidHMAC(bytes, for: Array(text.utf8), key: secret)
    }
}

/// URL-safe base64 without padding, for tokens that travel in headers and query strings.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> [UInt8]? {
        guard text.count <= 4096, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}

/// Per-key token buckets: each key may make `requestsPerMinute` requests in a burst, refilled at
/// that rate; beyond it requests get 429 with `Retry-After` until a request's worth has refilled.
final class RateLimiter: @unchecked Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private let lock = NSLock()
    private var buckets: [String: Bucket] = [:]

    /// Takes one request from `key`'s bucket: nil when allowed, else the seconds until one is.
    func take(_ key: APIKey, now: Date = Date()) -> Int? {
        let capacity = Double(max(key.requestsPerMinute, 1))
        let perSecond = capacity / 60
        return lock.withLock {
            var bucket = buckets[key.key] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * perSecond)
            bucket.updated = now
            defer { buckets[key.key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
        }
    }
}

/// Checks API keys and access tokens when keys are configured.
///
/// What needs a key: the `/v1` Maps Server API and everything under `/api` (snapshots), which
/// search, route and render on request; and raster tiles (`/styles/{style}/{z}/{x}/{y}.png`),
/// which render too. What stays open: `/`, the page's files, `/healthz` and `/metrics`, and the
/// map's static resources — TileJSON, vector tiles, style documents, sprites and glyphs — which
/// are read from the bundle without rendering, are cached by browsers and CDNs, and are fetched
/// by map libraries that cannot easily attach an `Authorization` header to every resource.
///
/// A request authenticates with `Authorization: Bearer <key or token>`. The image endpoints
/// (snapshots and raster tiles), which pages put in `<img>` tags that cannot send headers, also
/// accept `?key=<key or token>`; the other endpoints do not, so keys are not copied into URLs,
/// logs and referrers where a header would do. `/v1/token` takes a key only: a token cannot be
/// traded for a fresh one, or a leaked token would live forever.
///
/// With ``MapsKey``s registered, Apple's own flow works too: `/v1/token` also takes a Maps token
/// (an ES256 JWT the team signed, see ``MapsJWT``) and answers an access token, and snapshot URLs
/// may be signed with the team's key instead of carrying one (``SignedSnapshotURL``).
struct APIKeyMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let keys: [APIKey]
    /// Each key with its SHA-256 digest: a credential is matched by comparing digests in constant
    /// time against every key, so how long a refusal takes says nothing about how close a guess was.
    private let keyDigests: [(digest: [UInt8], key: APIKey)]
    private let byIdentifier: [String: APIKey]
    /// Registered Maps keys by key id.
    private let mapsKeys: [String: MapsKey]
    private let limiter = RateLimiter()

    init(keys: [APIKey], mapsKeys: [MapsKey] = []) {
        self.keys = keys
        keyDigests = keys.map { (MessageAuthentication.sha256(Array($0.key.utf8)), $0) }
        byIdentifier = Dictionary((keys + mapsKeys.map(\.apiKey)).map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        self.mapsKeys = Dictionary(mapsKeys.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether a path needs a key.
    static func isProtected(_ path: String) -> Bool {
        path == "/v1" || path.hasPrefix("/v1/") || path == "/api" || path.hasPrefix("/api/") || isRasterTile(path)
    }

    /// Whether a path is an image a page may load with `<img src>`, so may carry `?key=`.
    static func acceptsKeyInQuery(_ path: String) -> Bool {
        path.hasPrefix("/api/") || isRasterTile(path)
    }

    /// `/styles/{style}/{z}/{x}/{y}.png` (and `@2x`); not sprites, which are static.
    static func isRasterTile(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].isEmpty, parts[1] == "styles", parts[5].hasSuffix(".png") else { return false }
        var last = parts[5].dropLast(4)
        if last.hasSuffix("@2x") || last.hasSuffix("@3x") { last = last.dropLast(3) }
        return [parts[3], parts[4], last].allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard request.method != .options, Self.isProtected(path) else { return try await next(request, context) }
        let origin = request.headers[.origin]
        let key: APIKey
        if !mapsKeys.isEmpty, Self.acceptsKeyInQuery(path), let query = try? QueryParameters(request), SignedSnapshotURL.isSigned(query) {
            key = try SignedSnapshotURL.verify(path: path, rawQuery: request.uri.query ?? "", query: query, keys: mapsKeys, origin: origin).apiKey
        } else {
            key = try authorise(try credential(of: request, path: path), path: path, origin: origin)
        }
        if let wait = limiter.take(key) {
            var headers = HTTPFields()
            headers[.retryAfter] = String(wait)
            throw APIError(.tooManyRequests, "rate limit exceeded: this key allows \(key.requestsPerMinute) requests per minute",
                           details: ["retry in \(wait) s"], headers: headers)
        }
        var context = context
        context.apiKey = key.key
        return try await next(request, context)
    }

    private func credential(of request: Request, path: String) throws -> String {
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0].caseInsensitiveCompare("Bearer") == .orderedSame, !parts[1].isEmpty else {
                throw Self.unauthorised("the Authorization header must be \"Bearer <API key or access token>\"")
            }
            return parts[1]
        }
        if Self.acceptsKeyInQuery(path), let key = try? QueryParameters(request)["key"] { return key }
        let hint = Self.acceptsKeyInQuery(path) ? " (or ?key=<key or token> on image URLs)" : ""
        throw Self.unauthorised("this server requires an API key: send Authorization: Bearer <API key or access token from /v1/token>\(hint)")
    }

    private func authorise(_ credential: String, path: String, origin: String?) throws -> APIKey {
        let digest = MessageAuthentication.sha256(Array(credential.utf8))
        var match: APIKey?
        for entry in keyDigests where MessageAuthentication.digestsEqual(entry.digest, digest) && match == nil { match = entry.key }
        if let match { return match }
        if !mapsKeys.isEmpty, MapsJWT.looksLikeJWT(credential) {
            guard path == "/v1/token" else {
                throw Self.unauthorised("a Maps token (JWT) is traded at /v1/token for an access token, which the other endpoints take")
            }
            return try MapsJWT.verify(credential, keys: mapsKeys, origin: origin).apiKey
        }
        guard AccessTokens.looksLikeToken(credential) else { throw Self.unauthorised("the API key is not known to this server") }
        if path == "/v1/token" {
            throw Self.unauthorised("/v1/token exchanges an API key or a Maps token (JWT) for an access token; send one of those, not an access token")
        }
        switch AccessTokens.verify(credential) {
        case .valid(let identifier, _):
            guard let key = byIdentifier[identifier] else {
                throw Self.unauthorised("the access token was issued for an API key this server no longer accepts")
            }
            return key
        case .expired(let date):
            throw Self.unauthorised("the access token expired at \(ISO8601DateFormatter().string(from: date)); get a new one from /v1/token")
        case .forged:
            throw Self.unauthorised("the access token is not valid: its signature does not match (altered, or issued before the server restarted)")
        }
    }

    static func unauthorised(_ message: String) -> APIError {
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = "Bearer realm=\"openmapkit\""
        return APIError(.unauthorized, message, headers: headers)
    }
}
