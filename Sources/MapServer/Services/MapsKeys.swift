import Foundation
import Hummingbird

/// A Maps key a team registered with the server, as with Apple: the team's id, the key's id, the
/// public half of the key (the team keeps the private half and signs with it), the web origins
/// the key may be used from, and its rate limit.
///
/// With Maps keys registered, a client follows Apple's flow unchanged: it signs a JWT with its
/// private key (ES256; `kid` the key id; `iss` the team id, `iat`, `exp`, optionally `origin`)
/// and trades it at `/v1/token` for an access token, which the other endpoints take; snapshot
/// URLs carry `teamId`, `keyId` and an ES256 `signature` of their path and query instead.
public struct MapsKey: Sendable {
    public let teamID: String
    public let keyID: String
    let publicKey: ES256PublicKey
    /// Origins (`https://example.com`) the key may be used from; empty for any.
    public let origins: [String]
    /// Requests allowed per minute with this key (and with tokens issued for it).
    public let requestsPerMinute: Int

    /// Why a Maps key file could not be read.
    public struct FileError: Error, CustomStringConvertible {
        public var description: String
    }

    public init(teamID: String, keyID: String, publicKeyPEM: String, origins: [String] = [], requestsPerMinute: Int = 600) throws {
        guard !teamID.isEmpty, !keyID.isEmpty else { throw FileError(description: "a Maps key needs a teamId and a keyId") }
        do { publicKey = try ES256PublicKey(pem: publicKeyPEM) } catch { throw FileError(description: "key \(keyID): \(error)") }
        self.teamID = teamID
        self.keyID = keyID
        self.origins = origins
        self.requestsPerMinute = requestsPerMinute
    }

    /// The key as the rate limiter and the access tokens know it (nothing secret: a public name).
    var apiKey: APIKey { APIKey(key: "maps-key:\(teamID).\(keyID)", requestsPerMinute: requestsPerMinute) }

    /// Reads the operator's key file: a JSON array of
    /// `{"teamId", "keyId", "publicKey", "origins"?, "requestsPerMinute"?}`, where `publicKey` is
    /// the PEM text or the path of a PEM file (relative to the key file's folder).
    public static func load(from url: URL) throws -> [MapsKey] {
        struct Entry: Decodable {
            var teamId: String
            var keyId: String
            var publicKey: String
            var origins: [String]?
            var requestsPerMinute: Int?
        }
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: url))
        } catch {
            throw FileError(description: "\(url.path): not a JSON array of {teamId, keyId, publicKey, origins?, requestsPerMinute?}: \(error)")
        }
        var seen = Set<String>()
        return try entries.map { entry in
            guard seen.insert(entry.keyId).inserted else { throw FileError(description: "\(url.path): key \(entry.keyId) is listed twice") }
            if let limit = entry.requestsPerMinute, limit <= 0 {
                throw FileError(description: "\(url.path): key \(entry.keyId): requestsPerMinute must be positive")
            }
            var pem = entry.publicKey
            if !pem.contains("-----BEGIN") {
                let file = URL(fileURLWithPath: pem, relativeTo: url.deletingLastPathComponent())
                guard let text = try? String(contentsOf: file, encoding: .utf8) else {
                    throw FileError(description: "\(url.path): key \(entry.keyId): publicKey is neither PEM text nor a readable file (\(file.path))")
                }
                pem = text
            }
            return try MapsKey(teamID: entry.teamId, keyID: entry.keyId, publicKeyPEM: pem, origins: entry.origins ?? [],
                               requestsPerMinute: entry.requestsPerMinute ?? 600)
        }
    }

    /// Whether a request from `origin` (its `Origin` header, nil when it sent none) may use the key.
    func allows(origin: String?) -> Bool {
        guard let origin, !origins.isEmpty else { return true }
        return origins.contains { $0.caseInsensitiveCompare(origin) == .orderedSame }
    }
}

/// Apple's Maps authorization token: a JWT a team signs with its Maps private key. The server
/// checks it against the registered ``MapsKey`` before `/v1/token` trades it for an access token.
enum MapsJWT {
    /// How far ahead of the server's clock a token's `iat` may be (clocks drift).
    static let clockSkew: TimeInterval = 60

    /// Whether `text` has a JWT's shape: three base64url parts, the first a JSON header with `alg`.
    static func looksLikeJWT(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(String(parts[0])),
              let object = try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any] else { return false }
        return object["alg"] != nil
    }

    /// The registered key that signed `token`, or the 401 (403 for a wrong origin) saying what is
    /// wrong with it. `origin` is the request's `Origin` header.
    static func verify(_ token: String, keys: [String: MapsKey], origin: String?, now: Date = Date()) throws -> MapsKey {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]),
              let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
              let claims = try? JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any] else {
            throw APIKeyMiddleware.unauthorised("the Maps token is not a valid JWT")
        }
        guard header["alg"] as? String == "ES256" else {
            throw APIKeyMiddleware.unauthorised("the Maps token must be signed with ES256 (alg is \(header["alg"].map { "\($0)" } ?? "missing"))")
        }
        guard let keyID = header["kid"] as? String else { throw APIKeyMiddleware.unauthorised("the Maps token's header names no key (kid)") }
        guard let key = keys[keyID] else { throw APIKeyMiddleware.unauthorised("the Maps key \(keyID) is not registered with this server") }
        guard key.publicKey.isValid(signature: signature, for: Array("\(parts[0]).\(parts[1])".utf8)) else {
            throw APIKeyMiddleware.unauthorised("the Maps token's signature does not match key \(keyID)")
        }
        guard claims["iss"] as? String == key.teamID else {
            throw APIKeyMiddleware.unauthorised("the Maps token's issuer (iss) is not the team of key \(keyID)")
        }
        guard let expiry = (claims["exp"] as? NSNumber)?.doubleValue, let issued = (claims["iat"] as? NSNumber)?.doubleValue else {
            throw APIKeyMiddleware.unauthorised("the Maps token needs iat and exp (seconds since 1970)")
        }
        guard expiry > now.timeIntervalSince1970 else {
            throw APIKeyMiddleware.unauthorised("the Maps token expired at \(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: expiry)))")
        }
        guard issued <= now.timeIntervalSince1970 + clockSkew else {
            throw APIKeyMiddleware.unauthorised("the Maps token is issued in the future (iat \(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: issued))))")
        }
        if let claimed = claims["origin"] as? String {
            // A token made for one site is not for another, nor for a key that site is not allowed.
            if let origin, claimed.caseInsensitiveCompare(origin) != .orderedSame {
                throw forbidden("the Maps token is for \(claimed), not \(origin)")
            }
            guard key.allows(origin: claimed) else { throw forbidden("key \(keyID) is not allowed for \(claimed)") }
        }
        guard key.allows(origin: origin) else { throw forbidden("key \(keyID) is not allowed for \(origin ?? "")") }
        return key
    }

    static func forbidden(_ message: String) -> APIError { APIError(.forbidden, message) }
}

/// Maps Web Snapshots URLs signed as Apple signs them: `teamId` and `keyId` among the parameters,
/// and `signature`, the base64url ES256 signature of the path and query without it (raw r‖s or
/// DER). An `expires` parameter (seconds since 1970) ends the URL's life.
enum SignedSnapshotURL {
    /// Whether the request carries a signature (then it must be valid).
    static func isSigned(_ query: QueryParameters) -> Bool { query["signature"] != nil }

    /// The registered key that signed the URL, or the 401/403 saying what is wrong with it.
    static func verify(path: String, rawQuery: String, query: QueryParameters, keys: [String: MapsKey], origin: String?,
                       now: Date = Date()) throws -> MapsKey {
        guard let keyID = query["keyId"], let teamID = query["teamId"] else {
            throw APIKeyMiddleware.unauthorised("a signed snapshot URL names its teamId and keyId")
        }
        guard let key = keys[keyID], key.teamID == teamID else {
            throw APIKeyMiddleware.unauthorised("the Maps key \(keyID) of team \(teamID) is not registered with this server")
        }
        // What was signed: the path and the query as sent, the signature taken out.
        let signed = rawQuery.split(separator: "&", omittingEmptySubsequences: false).filter { !$0.hasPrefix("signature=") }
        let message = path + "?" + signed.joined(separator: "&")
        guard let signature = query["signature"].flatMap(Base64URL.decode), key.publicKey.isValid(signature: signature, for: Array(message.utf8)) else {
            throw APIKeyMiddleware.unauthorised("the snapshot URL's signature does not match key \(keyID) (sign the path and query, then append &signature=)")
        }
        if let expires = query["expires"] {
            guard let seconds = Double(expires) else { throw APIError.badRequest("parameter expires is not a number of seconds since 1970") }
            guard seconds > now.timeIntervalSince1970 else { throw APIKeyMiddleware.unauthorised("the signed snapshot URL has expired") }
        }
        guard key.allows(origin: origin) else { throw MapsJWT.forbidden("key \(keyID) is not allowed for \(origin ?? "")") }
        return key
    }
}
