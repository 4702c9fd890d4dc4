import Foundation
import Hummingbird
@testable import MapServer
import TestSupport
import XCTest

/// API keys, the `/v1/token` exchange and per-key rate limits.
final class MapsAPIKeyTests: XCTestCase {
    static func bearer(_ credential: String) -> HTTPFields { [.authorization: "Bearer \(credential)"] }

    func testKeysGuardTheAPIButNotThePageOrHealth() async throws {
        let server = try TestServer.make { $0.apiKeys = [APIKey(key: "secret-one"), APIKey(key: "secret-two")] }
        try await TestServer.withClient(server) { client in
            let uri = "/v1/reverseGeocode?loc=43.7396,7.4281"
            let missing = try await client.execute(uri: uri, method: .get)
            XCTAssertEqual(missing.status, .unauthorized)
            XCTAssertTrue(missing.errorMessage?.contains("requires an API key") == true, missing.text)
            XCTAssertNotNil(missing.headers[.wwwAuthenticate])

            let unknown = try await client.execute(uri: uri, method: .get, headers: Self.bearer("nope"))
            XCTAssertEqual(unknown.status, .unauthorized)
            XCTAssertTrue(unknown.errorMessage?.contains("not known") == true, unknown.text)

            let malformed = try await client.execute(uri: uri, method: .get, headers: [.authorization: "Basic c2VjcmV0"])
            XCTAssertEqual(malformed.status, .unauthorized)

            let allowed = try await client.execute(uri: uri, method: .get, headers: Self.bearer("secret-two"))
            XCTAssertEqual(allowed.status, .ok, allowed.text)

            // ?key= is for image URLs only; the JSON API wants the header.
            let inQuery = try await client.execute(uri: uri + "&key=secret-one", method: .get)
            XCTAssertEqual(inQuery.status, .unauthorized)

            let health = try await client.execute(uri: "/healthz", method: .get)
            XCTAssertEqual(health.status, .ok)
            for open in ["/tiles.json", "/tiles/14/8529/5974.mvt", "/styles/standard.json", "/"] {
                let response = try await client.execute(uri: open, method: .get)
                XCTAssertNotEqual(response.status, .unauthorized, open)
            }
            // Raster tiles and snapshots render, so they need a key — in the query for <img> tags.
            let raster = try await client.execute(uri: "/styles/standard/14/8529/5974.png", method: .get)
            XCTAssertEqual(raster.status, .unauthorized)
            let rasterWithKey = try await client.execute(uri: "/styles/standard/14/8529/5974.png?key=secret-one", method: .get)
            XCTAssertNotEqual(rasterWithKey.status, .unauthorized)
            let snapshot = try await client.execute(uri: "/api/v1/snapshot?center=43.7396,7.4279", method: .get)
            XCTAssertEqual(snapshot.status, .unauthorized)
            let snapshotWithKey = try await client.execute(uri: "/api/v1/snapshot?center=43.7396,7.4279&key=secret-one", method: .get)
            XCTAssertNotEqual(snapshotWithKey.status, .unauthorized)
        }
    }

    /// Keys and tokens never reach the request log: it records paths without their queries, and
    /// no header; a line per request still says what was asked and how it went.
    func testKeysAndTokensAreNeverLogged() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("omk-key-log-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let output = RequestLogOutput(handle: try FileHandle(forWritingTo: log))
        var configuration = ServerConfiguration()
        configuration.apiKeys = [APIKey(key: "key-that-must-not-leak")]
        for format in [RequestLogFormat.text, .json] {
            configuration.requestLog = format
            let server = MapServer(configuration: configuration, regions: try RegionRegistry(bundleURLs: [try SampleBundle.monaco()]),
                                   logOutput: output)
            try await TestServer.withClient(server) { client in
                let exchange = try await client.execute(uri: "/v1/token", method: .get, headers: Self.bearer("key-that-must-not-leak"))
                let token = try XCTUnwrap(try exchange.json()["accessToken"] as? String)
                _ = try await client.execute(uri: "/v1/search?q=Casino", method: .get, headers: Self.bearer(token))
                _ = try await client.execute(uri: "/styles/standard/14/8529/5974.png?key=key-that-must-not-leak", method: .get)
                _ = try await client.execute(uri: "/api/v1/snapshot?center=43.7396,7.4279&key=key-that-must-not-leak", method: .get)
                _ = try await client.execute(uri: "/v1/search?q=Casino", method: .get, headers: Self.bearer("wrong-key-also-secret"))
                let text = try String(contentsOf: log, encoding: .utf8)
                XCTAssertFalse(text.contains("key-that-must-not-leak") || text.contains(token) || text.contains("wrong-key-also-secret"),
                               "a key or token in the \(format) log: \(text)")
                XCTAssertTrue(text.contains("/v1/search") && text.contains("/api/v1/snapshot"), text)
            }
        }
    }

    func testTokenExchangeAndItsFailures() async throws {
        let server = try TestServer.make { $0.apiKeys = [APIKey(key: "the-key")] }
        try await TestServer.withClient(server) { client in
            let exchange = try await client.execute(uri: "/v1/token", method: .get, headers: Self.bearer("the-key"))
            XCTAssertEqual(exchange.status, .ok, exchange.text)
            let body = try exchange.json()
            XCTAssertEqual(body["expiresInSeconds"] as? Int, 1800)
            let token = try XCTUnwrap(body["accessToken"] as? String)
            XCTAssertFalse(token.contains("the-key"), "a token must not carry the key")

            let uri = "/v1/reverseGeocode?loc=43.7396,7.4281"
            let withToken = try await client.execute(uri: uri, method: .get, headers: Self.bearer(token))
            XCTAssertEqual(withToken.status, .ok, withToken.text)

            let again = try await client.execute(uri: "/v1/token", method: .get, headers: Self.bearer(token))
            XCTAssertEqual(again.status, .unauthorized)
            XCTAssertTrue(again.errorMessage?.contains("not an access token") == true, again.text)

            var bytes = Array(token)
            let index = bytes.count - 3
            bytes[index] = bytes[index] == "A" ? "B" : "A"
            let forged = try await client.execute(uri: uri, method: .get, headers: Self.bearer(String(bytes)))
            XCTAssertEqual(forged.status, .unauthorized)
            XCTAssertTrue(forged.errorMessage?.contains("signature") == true, forged.text)

            let stale = AccessTokens.issue(for: APIKey(key: "the-key").identifier, lifetime: -5)
            let expired = try await client.execute(uri: uri, method: .get, headers: Self.bearer(stale))
            XCTAssertEqual(expired.status, .unauthorized)
            XCTAssertTrue(expired.errorMessage?.contains("expired") == true, expired.text)

            let foreign = AccessTokens.issue(for: APIKey(key: "another-key").identifier)
            let revoked = try await client.execute(uri: uri, method: .get, headers: Self.bearer(foreign))
            XCTAssertEqual(revoked.status, .unauthorized)
        }
    }

    func testRateLimitAnswers429WithRetryAfterPerKey() async throws {
        let server = try TestServer.make { $0.apiKeys = [APIKey(key: "slow", requestsPerMinute: 3), APIKey(key: "fast", requestsPerMinute: 100)] }
        try await TestServer.withClient(server) { client in
            let uri = "/v1/token"
            for attempt in 1...3 {
                let response = try await client.execute(uri: uri, method: .get, headers: Self.bearer("slow"))
                XCTAssertEqual(response.status, .ok, "request \(attempt)")
            }
            let limited = try await client.execute(uri: uri, method: .get, headers: Self.bearer("slow"))
            XCTAssertEqual(limited.status, .tooManyRequests)
            let wait = try XCTUnwrap(limited.headers[.retryAfter].flatMap(Int.init))
            XCTAssertTrue((1...20).contains(wait), "Retry-After \(wait)")
            XCTAssertNotNil(limited.errorMessage)
            // Another key has its own bucket.
            let other = try await client.execute(uri: uri, method: .get, headers: Self.bearer("fast"))
            XCTAssertEqual(other.status, .ok)
        }
    }

    func testBucketRefillsAtTheKeysRate() {
        let limiter = RateLimiter()
        let key = APIKey(key: "k", requestsPerMinute: 60)
        let start = Date(timeIntervalSince1970: 1_000_000)
        for _ in 0..<60 { XCTAssertNil(limiter.take(key, now: start)) }
        XCTAssertEqual(limiter.take(key, now: start), 1)
        XCTAssertNil(limiter.take(key, now: start.addingTimeInterval(1.01)), "one request refills per second")
        XCTAssertNotNil(limiter.take(key, now: start.addingTimeInterval(1.02)))
        XCTAssertNil(limiter.take(key, now: start.addingTimeInterval(3600)))
    }

    func testRasterTilePathsAreToldFromSprites() {
        XCTAssertTrue(APIKeyMiddleware.isRasterTile("/styles/standard/14/8529/5974.png"))
        XCTAssertTrue(APIKeyMiddleware.isRasterTile("/styles/dark/3/4/2@2x.png"))
        XCTAssertFalse(APIKeyMiddleware.isRasterTile("/styles/standard/sprite.png"))
        XCTAssertFalse(APIKeyMiddleware.isRasterTile("/styles/standard/sprite@2x.png"))
        XCTAssertFalse(APIKeyMiddleware.isRasterTile("/styles/standard.json"))
        XCTAssertTrue(APIKeyMiddleware.isProtected("/v1/geocode"))
        XCTAssertTrue(APIKeyMiddleware.isProtected("/api/v1/snapshot"))
        XCTAssertFalse(APIKeyMiddleware.isProtected("/v1geocode"))
        XCTAssertFalse(APIKeyMiddleware.isProtected("/fonts/Noto%20Sans/0-255.pbf"))
    }
}
