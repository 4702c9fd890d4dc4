import Foundation
import Hummingbird
@testable import MapServer
import XCTest

final class OperationsTests: XCTestCase {
    func testHealthzNamesTheRegions() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let response = try await client.execute(uri: "/healthz", method: .get)
            XCTAssertEqual(response.status, .ok)
            let body = try response.json()
            XCTAssertEqual(body["status"] as? String, "ok")
            XCTAssertEqual(body["regions"] as? [String], ["monaco"])
        }
    }

    func testUnknownPathIsAJSONErrorNotAnHTMLPage() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let response = try await client.execute(uri: "/no/such/thing", method: .get)
            XCTAssertEqual(response.status, .notFound)
            XCTAssertEqual(response.headers[.contentType], "application/json; charset=utf-8")
            XCTAssertNotNil(response.errorMessage)
        }
    }

    func testHeadAnswersLikeGetWithoutTheBody() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let get = try await client.execute(uri: "/healthz", method: .get)
            let head = try await client.execute(uri: "/healthz", method: .head)
            XCTAssertEqual(head.status, .ok)
            XCTAssertEqual(head.body.readableBytes, 0)
            XCTAssertEqual(head.headers[.contentLength], String(get.body.readableBytes))
            XCTAssertEqual(head.headers[.contentType], get.headers[.contentType])
            let missing = try await client.execute(uri: "/no/such/thing", method: .head)
            XCTAssertEqual(missing.status, .notFound)
        }
    }

    func testMetricsCountRequestsByRoutePattern() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            for _ in 0..<3 { _ = try await client.execute(uri: "/healthz", method: .get) }
            _ = try await client.execute(uri: "/nothing-here-\(UUID())", method: .get)
            let response = try await client.execute(uri: "/metrics", method: .get)
            XCTAssertEqual(response.status, .ok)
            let text = response.text
            XCTAssertTrue(text.contains(#"openmapkit_http_requests_total{method="GET",route="/healthz",status="200"} 3"#), text)
            // Unmatched paths share one series, so scanning random URLs cannot grow /metrics.
            XCTAssertTrue(text.contains(#"route="unmatched",status="404"} 1"#), text)
            XCTAssertTrue(text.contains("openmapkit_resident_memory_bytes "), text)
            XCTAssertTrue(text.contains(#"openmapkit_http_request_duration_seconds_bucket{route="/healthz",le="+Inf"} 3"#), text)
        }
    }

    func testCORSAnswersPreflightForAllowedOriginsOnly() async throws {
        let server = try TestServer.make { $0.corsAllowedOrigins = ["https://maps.example"] }
        try await TestServer.withClient(server) { client in
            let allowed = try await client.execute(uri: "/healthz", method: .options,
                                                   headers: [.origin: "https://maps.example", .accessControlRequestMethod: "GET"])
            XCTAssertEqual(allowed.status, .noContent)
            XCTAssertEqual(allowed.headers[.accessControlAllowOrigin], "https://maps.example")
            let refused = try await client.execute(uri: "/healthz", method: .options,
                                                   headers: [.origin: "https://evil.example", .accessControlRequestMethod: "GET"])
            XCTAssertEqual(refused.status, .forbidden)
            let simple = try await client.execute(uri: "/healthz", method: .get, headers: [.origin: "https://evil.example"])
            XCTAssertEqual(simple.status, .ok)
            XCTAssertNil(simple.headers[.accessControlAllowOrigin])
        }
    }

    func testRegionSwapKeepsServingAndBumpsTheGeneration() throws {
        let server = try TestServer.make()
        let before = server.regions.snapshot
        try server.regions.reload()
        let after = server.regions.snapshot
        XCTAssertEqual(after.generation, before.generation + 1)
        XCTAssertEqual(after.regions.map(\.name), ["monaco"])
        // A bad bundle is refused and the region keeps serving the old one.
        let bogus = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-bundle-\(UUID())")
        try FileManager.default.createDirectory(at: bogus, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bogus) }
        XCTAssertThrowsError(try server.regions.replace("monaco", with: bogus))
        XCTAssertEqual(server.regions.snapshot.generation, after.generation)
        XCTAssertThrowsError(try server.regions.snapshot.source(named: "atlantis")) { error in
            XCTAssertEqual((error as? APIError)?.status, .notFound)
        }
    }
}

final class QueryParametersTests: XCTestCase {
    func testDecodesPercentAndPlus() throws {
        let query = try QueryParameters(query: "q=caf%C3%A9+de+Paris&loc=43.73%2C7.42&empty=")
        XCTAssertEqual(query["q"], "café de Paris")
        XCTAssertEqual(try query.coordinate("loc")?.latitude, 43.73)
        XCTAssertNil(query["empty"])
        XCTAssertThrowsError(try query.required("empty"))
    }

    func testRejectsHostileValuesWithA400() throws {
        let cases: [(String, (QueryParameters) throws -> Any?)] = [
            ("z=NaN", { try $0.double("z", in: 0...22) }),
            ("z=inf", { try $0.double("z", in: 0...22) }),
            ("z=23", { try $0.double("z", in: 0...22) }),
            ("n=1e400", { try $0.int("n", in: 0...10) }),
            ("loc=91,0", { try $0.coordinate("loc") }),
            ("loc=1;2", { try $0.coordinate("loc") }),
            ("loc=nan,nan", { try $0.coordinate("loc") }),
            ("r=1,2,3,4", { try $0.region("r") }),       // north below south
            ("r=10,5,0,5", { try $0.region("r") }),      // no width
            ("b=maybe", { try $0.bool("b") }),
            ("d=yesterday", { try $0.date("d") }),
        ]
        for (text, read) in cases {
            let query = try QueryParameters(query: text)
            XCTAssertThrowsError(try read(query), text) { error in
                XCTAssertEqual((error as? APIError)?.status, .badRequest, text)
            }
        }
        XCTAssertThrowsError(try QueryParameters(query: "q=%E0%A4%A")) // broken percent-encoding
        XCTAssertThrowsError(try QueryParameters(query: "q=" + String(repeating: "a", count: QueryParameters.maximumValueLength + 1)))
    }

    func testRegionCrossingTheAntimeridian() throws {
        let region = try XCTUnwrap(try QueryParameters(query: "r=10,-170,0,170").region("r"))
        XCTAssertEqual(region.span.longitudeDelta, 20, accuracy: 1e-9)
        XCTAssertEqual(abs(region.center.longitude), 180, accuracy: 1e-9)
    }
}

final class ResponseCacheTests: XCTestCase {
    private func entry(_ size: Int) -> CachedResponse { CachedResponse(body: [UInt8](repeating: 1, count: size), contentType: "x", etag: "e") }

    func testEvictsLeastRecentlyUsedWithinTheBudget() {
        let cache = ResponseCache(budget: 4000)
        cache.insert(entry(800), for: "a")
        cache.insert(entry(800), for: "b")
        cache.insert(entry(800), for: "c")
        XCTAssertNotNil(cache.value(for: "a")) // a is now the newest
        cache.insert(entry(800), for: "d")
        cache.insert(entry(800), for: "e")     // over budget: b (the oldest) goes first
        XCTAssertNil(cache.value(for: "b"))
        XCTAssertNotNil(cache.value(for: "a"))
        XCTAssertNotNil(cache.value(for: "e"))
        XCTAssertLessThanOrEqual(cache.statistics.bytes, 4000)
        cache.insert(entry(2000), for: "huge") // more than a quarter of the budget: not kept
        XCTAssertNil(cache.value(for: "huge"))
        cache.removeAll()
        XCTAssertEqual(cache.statistics.entries, 0)
        XCTAssertEqual(cache.statistics.bytes, 0)
    }
}

final class RenderPoolTests: XCTestCase {
    func testRefusesWorkBeyondTheQueueWithA503() async throws {
        let pool = RenderPool(workers: 1, queueLimit: 1)
        let gate = DispatchSemaphore(value: 0)
        let first = Task { try await pool.run { gate.wait(); return 1 } }
        try await waitUntil("the first job runs") { pool.statistics.running >= 1 }
        let second = Task { try await pool.run { 2 } }
        try await waitUntil("the second job is queued") { pool.statistics.queued >= 1 }
        do {
            _ = try await pool.run { 3 }
            XCTFail("a full queue must refuse work")
        } catch let error as APIError {
            XCTAssertEqual(error.status, .serviceUnavailable)
            XCTAssertEqual(error.headers[.retryAfter], "1")
        }
        gate.signal()
        let a = try await first.value, b = try await second.value
        XCTAssertEqual(a + b, 3)
        XCTAssertEqual(pool.statistics.rejected, 1)
        XCTAssertEqual(pool.statistics.completed, 2)
        XCTAssertEqual(pool.statistics.running, 0)
    }

    /// Polls the pool's statistics until another task has brought it to a state (the pool has no
    /// hook that signals it), failing after 60 s instead of hanging.
    private struct NeverHappened: Error { var what: String }

    private func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            guard Date() < deadline else { throw NeverHappened(what: what) }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}
