import Foundation
import MapFormats
import MapGeometry
@testable import MapServer
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Cached vector and raster tiles answered on the event loop (`CachedTileHandler`) against the same
/// requests through the router, over real sockets: byte for byte the same answers, log lines and
/// metrics; answers in request order on a pipelined connection; hostile and unusual requests left
/// to the router.
final class CachedTileHandlerTests: XCTestCase {
    /// A tile with data by the harbour, and one in the open sea (no data: 204).
    static let harbour = "/tiles/14/8530/5974", sea = "/tiles/14/0/0"

    func testAnswersBeforeTheRouterAreTheRoutersAnswers() async throws {
        let logs = try TemporaryLogs()
        let fast = try Self.server(log: logs.fast) { _ in }
        let routed = try Self.server(log: logs.routed) { $0.answersCachedTilesBeforeRouter = false }
        try await TestServer.withRunningServer(fast) { fastPort in
            try await TestServer.withRunningServer(routed) { routedPort in
                let first = try RawHTTP.exchange(port: fastPort, RawHTTP.get(Self.harbour + ".mvt", ["Accept-Encoding: gzip"]))
                _ = try RawHTTP.exchange(port: routedPort, RawHTTP.get(Self.harbour + ".mvt", ["Accept-Encoding: gzip"]))
                let etag = try XCTUnwrap(first.header("ETag"))
                // (request, whether the event loop may answer it once the tile is cached)
                let cases: [(String, Bool)] = [
                    (RawHTTP.get(Self.harbour + ".mvt", ["Accept-Encoding: gzip"]), true),
                    (RawHTTP.get(Self.harbour + ".pbf", ["Accept-Encoding: gzip, deflate, br"]), true),
                    (RawHTTP.get(Self.harbour + ".mvt", ["Accept-Encoding: deflate, GZIP;q=0.8"]), true),
                    (RawHTTP.get(Self.harbour + ".mvt", ["Accept-Encoding: deflate", "Accept-Encoding: gzip"]), true),
                    (RawHTTP.get(Self.harbour + ".mvt?region=monaco", ["Accept-Encoding: gzip"]), true),
                    (RawHTTP.get(Self.harbour + ".mvt", ["Accept-Encoding: gzip", "If-None-Match: \(etag)"]), true),
                    (RawHTTP.get(Self.harbour + ".mvt", ["Accept-Encoding: gzip", "If-None-Match: \"other\", W/\(etag)"]), true),
                    (RawHTTP.get(Self.harbour + ".mvt", ["Accept-Encoding: gzip", "If-None-Match: \"other\""]), true),
                    (RawHTTP.get(Self.sea + ".mvt", []), true),
                    (RawHTTP.get("/styles/standard/15/17060/11948.png", []), true),
                    (RawHTTP.get("/styles/dark/15/17060/11948@2x.png?region=monaco", ["Accept-Encoding: gzip"]), true),
                    (RawHTTP.get("/styles/muted/15/17060/11948.png", ["If-None-Match: *"]), true),
                    // Left to the router: the inflated representation, other methods and
                    // versions, loose addresses, unknown regions, queries, bodies.
                    (RawHTTP.get(Self.harbour + ".mvt", []), false),
                    (RawHTTP.get(Self.harbour + ".mvt", ["Accept-Encoding: gzip;q=0"]), false),
                    ("HEAD \(Self.harbour).mvt HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\r\n", false),
                    ("GET \(Self.harbour).mvt HTTP/1.0\r\nAccept-Encoding: gzip\r\n\r\n", false),
                    (RawHTTP.get("/tiles/014/8529/5974.mvt", ["Accept-Encoding: gzip"]), false),
                    (RawHTTP.get(Self.harbour + ".mvt?region=atlantis", ["Accept-Encoding: gzip"]), false),
                    (RawHTTP.get(Self.harbour + ".mvt?region=monaco&x=1", ["Accept-Encoding: gzip"]), false),
                    (RawHTTP.get("/tiles/15/99999/0.mvt", ["Accept-Encoding: gzip"]), false),
                    (RawHTTP.get(Self.harbour + ".png", ["Accept-Encoding: gzip"]), false),
                    (RawHTTP.get("/styles/standard/15/17060/11948@1x.png", []), false),
                    (RawHTTP.get("/styles/nope/15/17060/11948.png", []), false),
                    (RawHTTP.get(Self.harbour + ".mvt", ["Accept-Encoding: gzip", "Content-Length: 2"]) + "{}", false),
                ]
                for (request, answeredEarly) in cases {
                    let label = request.split(separator: "\r\n").joined(separator: " | ")
                    // Twice: the first answer may fill the cache, the second may come from it.
                    for round in 0..<2 {
                        let before = fast.metrics.answeredBeforeRouter
                        let ours = try RawHTTP.exchange(port: fastPort, request)
                        let theirs = try RawHTTP.exchange(port: routedPort, request)
                        XCTAssertEqual(ours.comparable, theirs.comparable, "\(label), round \(round)")
                        if round == 1 {
                            XCTAssertEqual(fast.metrics.answeredBeforeRouter - before, answeredEarly ? 1 : 0, label)
                        }
                    }
                }
                XCTAssertEqual(routed.metrics.answeredBeforeRouter, 0)
                XCTAssertGreaterThanOrEqual(fast.metrics.answeredBeforeRouter, 12)

                // The same metrics series and request log lines, whoever answered.
                let series = { (port: Int) throws -> [String] in
                    try RawHTTP.exchange(port: port, RawHTTP.get("/metrics", [])).text
                        .split(separator: "\n").filter { $0.hasPrefix("openmapkit_http_requests_total") }.map(String.init)
                }
                XCTAssertEqual(try series(fastPort), try series(routedPort))
            }
        }
        // (The last line is /metrics, whose length differs with the uptime and memory figures.)
        XCTAssertEqual(try logs.lines(logs.fast).dropLast(), try logs.lines(logs.routed).dropLast())
        XCTAssertGreaterThan(try logs.lines(logs.fast).count, 46)
    }

    func testPipelinedAnswersLeaveInRequestOrder() async throws {
        let server = try Self.server(log: nil) { _ in }
        try await TestServer.withRunningServer(server) { port in
            let tiles = try Self.storedTilePaths(count: 40)
            for path in tiles { _ = try RawHTTP.exchange(port: port, RawHTTP.get(path, ["Accept-Encoding: gzip"])) }
            let expected = try tiles.map { try RawHTTP.exchange(port: port, RawHTTP.get($0, ["Accept-Encoding: gzip"])).comparable }

            // Cached tiles between requests only the router answers, all written at once.
            var requests: [String] = []
            for (index, path) in tiles.enumerated() {
                if index % 10 == 3 { requests.append(RawHTTP.get("/v1/search?q=casino&searchLocation=43.7384,7.4246", [])) }
                if index % 10 == 7 { requests.append(RawHTTP.get("/healthz", [])) }
                requests.append(RawHTTP.get(path, ["Accept-Encoding: gzip"]))
            }
            let connection = try RawHTTP.Connection(port: port)
            try connection.send(requests.joined())
            var tileAnswers: [RawHTTP.Response] = []
            for request in requests {
                let answer = try XCTUnwrap(try connection.readResponse(method: "GET"))
                XCTAssertEqual(answer.status, 200, request)
                if request.contains("/tiles/") {
                    tileAnswers.append(answer)
                } else {
                    XCTAssertTrue(answer.header("Content-Type")?.hasPrefix("application/json") == true, "answer to \(request.prefix(40)) out of order")
                }
            }
            XCTAssertEqual(tileAnswers.map(\.comparable), expected)
            XCTAssertGreaterThan(server.metrics.answeredBeforeRouter, tiles.count, "some pipelined tiles were answered early")
        }
    }

    func testRouterStillDecidesCORSConnectionCloseAndRegionSwaps() async throws {
        let server = try Self.server(log: nil) { $0.corsAllowedOrigins = ["https://maps.example"] }
        try await TestServer.withRunningServer(server) { port in
            let path = Self.harbour + ".mvt"
            let plain = try RawHTTP.exchange(port: port, RawHTTP.get(path, ["Accept-Encoding: gzip"]))
            XCTAssertEqual(plain.status, 200)
            let before = server.metrics.answeredBeforeRouter
            let cors = try RawHTTP.exchange(port: port, RawHTTP.get(path, ["Accept-Encoding: gzip", "Origin: https://maps.example"]))
            XCTAssertEqual(cors.header("Access-Control-Allow-Origin"), "https://maps.example")
            XCTAssertEqual(cors.body, plain.body)
            XCTAssertEqual(server.metrics.answeredBeforeRouter, before, "a request with an Origin goes to the router")

            // Connection: close is honoured: the answer, then the end of the stream.
            let connection = try RawHTTP.Connection(port: port)
            try connection.send(RawHTTP.get(path, ["Accept-Encoding: gzip", "Connection: close"]))
            let closing = try XCTUnwrap(try connection.readResponse(method: "GET"))
            XCTAssertEqual(closing.body, plain.body)
            XCTAssertNil(try connection.readResponse(method: "GET"), "the server closes the connection")

            // After a region swap the cached answer is stale: the router answers from the new
            // generation's data (the same tile, so the same content tag), then that answer is
            // served early.
            try server.regions.reload()
            let beforeSwap = server.metrics.answeredBeforeRouter
            let swapped = try RawHTTP.exchange(port: port, RawHTTP.get(path, ["Accept-Encoding: gzip"]))
            XCTAssertEqual(server.metrics.answeredBeforeRouter, beforeSwap, "the first answer after a swap comes from the router")
            XCTAssertEqual(swapped.header("ETag"), plain.header("ETag"), "a tile whose content is the same keeps its tag")
            XCTAssertEqual(swapped.body, plain.body)
            let early = server.metrics.answeredBeforeRouter
            let again = try RawHTTP.exchange(port: port, RawHTTP.get(path, ["Accept-Encoding: gzip"]))
            XCTAssertEqual(again.comparable, swapped.comparable)
            XCTAssertEqual(server.metrics.answeredBeforeRouter, early + 1)
        }
    }

    func testRasterTilesStillNeedAKeyWhenKeysAreConfigured() async throws {
        let server = try Self.server(log: nil) { $0.apiKeys = [APIKey(key: "the-key")] }
        try await TestServer.withRunningServer(server) { port in
            let raster = "/styles/standard/15/17060/11948.png"
            let drawn = try RawHTTP.exchange(port: port, RawHTTP.get(raster, ["Authorization: Bearer the-key"]))
            XCTAssertEqual(drawn.status, 200)
            let cachedWithKey = try RawHTTP.exchange(port: port, RawHTTP.get(raster + "?key=the-key", []))
            XCTAssertEqual(cachedWithKey.body, drawn.body)
            let without = try RawHTTP.exchange(port: port, RawHTTP.get(raster, []))
            XCTAssertEqual(without.status, 401, "a cached raster tile is not a way around the key")
            // Vector tiles are open with keys too, so the cached ones are answered early.
            let vector = Self.harbour + ".mvt"
            _ = try RawHTTP.exchange(port: port, RawHTTP.get(vector, ["Accept-Encoding: gzip"]))
            let before = server.metrics.answeredBeforeRouter
            XCTAssertEqual(try RawHTTP.exchange(port: port, RawHTTP.get(vector, ["Accept-Encoding: gzip"])).status, 200)
            XCTAssertEqual(server.metrics.answeredBeforeRouter, before + 1)
        }
    }

    func testStrictTileAddressReading() {
        let tile = CachedTileURI("/tiles/14/8529/5974.mvt?region=monaco")
        XCTAssertEqual(tile?.kind, .vector)
        XCTAssertEqual(tile?.z, 14)
        XCTAssertEqual(tile?.x, 8529)
        XCTAssertEqual(tile?.y, 5974)
        XCTAssertEqual(tile?.region, "monaco")
        XCTAssertEqual(tile?.path, "/tiles/14/8529/5974.mvt")
        XCTAssertEqual(CachedTileURI("/tiles/0/0/0.pbf")?.z, 0)
        let raster = CachedTileURI("/styles/dark/15/17060/11948@2x.png?region=monaco")
        XCTAssertEqual(raster?.kind, .raster(style: "dark", scale: 2))
        XCTAssertEqual(raster?.y, 11948)
        XCTAssertEqual(raster?.path, "/styles/dark/15/17060/11948@2x.png")
        XCTAssertEqual(CachedTileURI("/styles/standard/0/0/0.png")?.kind, .raster(style: "standard", scale: 1))
        XCTAssertEqual(CachedTileURI("/styles/standard/0/0/0@3x.png")?.kind, .raster(style: "standard", scale: 3))
        for loose in ["/styles/standard/1/1/1@1x.png", "/styles/standard/1/1/1@4x.png", "/styles/standard/1/1/1@2x.jpg",
                      "/styles/stan%64ard/1/1/1.png", "/styles//1/1/1.png", "/styles/standard/1/1.png", "/styles/standard.json",
                      "/styles/standard/1/1/1.png?key=abc", "/styles/a/b/1/1/1.png", "/styles/standard/01/1/1.png",
                      "/styles/standard/1/1/1.pngx", "/styles/standard/1/1/1@2x", "/tiles/14/8529/5974.png", "/tiles/14/8529/5974", "/tiles/14/8529/5974.mvt?", "/tiles/14/8529/5974.mvt?region=",
                      "/tiles/14/8529/5974.mvt?region=a%20b", "/tiles/14/8529/5974.mvt?foo=1", "/tiles/014/8529/5974.mvt",
                      "/tiles/1/2/0.mvt", "/tiles/25/0/0.mvt", "/tiles//1/1.mvt", "/tiles/1/1/1/1.mvt", "/tiles/1/-1/0.mvt",
                      "/tiles/9999999999/0/0.mvt", "/tiles/14/8529/5974.mvt#x", "/Tiles/1/1/1.mvt", "/tiles/1/1/1.MVT", ""] {
            XCTAssertNil(CachedTileURI(loose), loose)
        }
    }

    func testAcceptEncodingReadAsTheRouterDoes() {
        for (header, expected) in [("gzip", true), ("GZIP", true), (" deflate , gzip ;q=0.5", true), ("*", true), ("gzip;q=0", false),
                                   ("gzip; Q=0.000", false), ("gzip;q=0, *", true), ("deflate, br", false), ("", false),
                                   ("gzipx", false), ("x-gzip", false), ("gzip;level=1", true), ("\tgzip\t", true), ("gzip;q=", true)] {
            XCTAssertEqual(TileRequest.acceptsGzip(header), expected, header)
        }
    }

    // MARK: Helpers

    static func server(log: URL?, _ configure: (inout ServerConfiguration) -> Void) throws -> MapServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.requestLog = log == nil ? .none : .text
        configure(&configuration)
        let output = try log.map { url in
            FileManager.default.createFile(atPath: url.path, contents: nil)
            return RequestLogOutput(handle: try FileHandle(forWritingTo: url))
        } ?? RequestLogOutput()
        return MapServer(configuration: configuration, regions: try RegionRegistry(bundleURLs: [try SampleBundle.monaco()]),
                         logOutput: output)
    }

    /// Paths of `count` tiles the sample bundle holds (with data), from its deepest zoom.
    static func storedTilePaths(count: Int) throws -> [String] {
        let archive = try MBTilesArchive(url: try SampleBundle.monaco().appendingPathComponent("tiles.mbtiles"))
        var paths: [String] = []
        for x in 8525...8535 {
            for y in 5968...5980 where paths.count < count {
                if let bytes = try TileID(z: 14, x: x, y: y).flatMap({ try archive.tile($0) }), !bytes.isEmpty {
                    paths.append("/tiles/14/\(x)/\(y).mvt")
                }
            }
        }
        return paths
    }

    struct TemporaryLogs {
        let folder: URL
        var fast: URL { folder.appendingPathComponent("fast.log") }
        var routed: URL { folder.appendingPathComponent("routed.log") }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("cached-tile-logs-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        /// The log lines without their timings.
        func lines(_ url: URL) throws -> [String] {
            try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { line in
                line.split(separator: " ").dropLast(2).joined(separator: " ")
            }
        }
    }
}

/// A blocking HTTP/1.1 client over a plain socket: what the handler sees from wrk or a browser,
/// including pipelined requests, which URLSession does not send.
enum RawHTTP {
    struct Response {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var text: String { String(decoding: body, as: UTF8.self) }

        /// Status, headers in order but `Date` (which ticks), and body.
        var comparable: String {
            let fields = headers.filter { $0.name.lowercased() != "date" }.map { "\($0.name): \($0.value)" }
            return "\(status)\n" + fields.joined(separator: "\n") + "\n\n" + body.map { String($0, radix: 16) }.joined(separator: " ")
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func get(_ path: String, _ headers: [String]) -> String {
        "GET \(path) HTTP/1.1\r\nHost: localhost\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n"
    }

    /// One request on a new connection.
    static func exchange(port: Int, _ request: String) throws -> Response {
        let connection = try Connection(port: port)
        try connection.send(request)
        let method = String(request.prefix { $0 != " " })
        guard let response = try connection.readResponse(method: method) else { throw Failure(description: "no answer to \(request)") }
        return response
    }

    final class Connection {
        private let socket: Int32
        private var pending: [UInt8] = []

        init(port: Int) throws {
            do { socket = try loopbackSocket(port: port, receiveTimeout: 20) } catch {
                throw Failure(description: "connect to port \(port): \(error)")
            }
        }

        deinit { close(socket) }

        func send(_ text: String) throws {
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard sent > 0 else { throw Failure(description: "send: \(errno)") }
                bytes = bytes.dropFirst(sent)
            }
        }

        /// The next answer, or nil when the server closed the connection before one began.
        func readResponse(method: String) throws -> Response? {
            let separator: [UInt8] = Array("\r\n\r\n".utf8)
            var headEnd: Int?
            while headEnd == nil {
                headEnd = pending.indices.dropLast(3).first { pending[$0..<$0 + 4].elementsEqual(separator) }
                if headEnd == nil, !(try fill()) {
                    if pending.isEmpty { return nil }
                    throw Failure(description: "the connection closed inside an answer's head")
                }
            }
            let head = String(decoding: pending[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
            pending.removeFirst(headEnd! + 4)
            let statusParts = head[0].split(separator: " ")
            guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "status line \(head[0])") }
            let headers = head.dropFirst().map { line -> (name: String, value: String) in
                let colon = line.firstIndex(of: ":") ?? line.endIndex
                return (String(line[..<colon]), line[colon...].dropFirst().trimmingCharacters(in: .whitespaces))
            }
            let response = Response(status: status, headers: headers, body: [])
            if method == "HEAD" || status == 204 || status == 304 { return response }
            var body: [UInt8] = []
            if let length = response.header("Content-Length").flatMap(Int.init) {
                try need(length)
                body = Array(pending[..<length])
                pending.removeFirst(length)
            } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
                while true {
                    var found = pending.firstIndex(of: UInt8(ascii: "\n"))
                    while found == nil {
                        guard try fill() else { throw Failure(description: "the connection closed inside a chunk size") }
                        found = pending.firstIndex(of: UInt8(ascii: "\n"))
                    }
                    let newline = found!
                    let sizeText = String(decoding: pending[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else { throw Failure(description: "chunk size \(sizeText)") }
                    pending.removeFirst(newline + 1)
                    try need(size + 2)
                    body += pending[..<size]
                    pending.removeFirst(size + 2)
                    if size == 0 { break }
                }
            } else {
                while try fill() {}
                body = pending
                pending = []
            }
            return Response(status: status, headers: headers, body: body)
        }

        private func need(_ count: Int) throws {
            while pending.count < count {
                guard try fill() else { throw Failure(description: "the connection closed inside a body") }
            }
        }

        /// Reads more bytes; false at the end of the stream.
        private func fill() throws -> Bool {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 { throw Failure(description: "recv: \(errno) (timed out?)") }
            pending += buffer[..<count]
            return count > 0
        }
    }
}
