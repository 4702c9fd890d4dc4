import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `openmapkit update` and `openmapkit serve --update-from` as a user runs them: a café added by
/// an osmChange shows in the tiles and in search.
final class UpdateCommandTests: XCTestCase {
    private var binary: URL { Bundle.main.bundleURL.appendingPathComponent("openmapkit") }
    /// Where the café goes: on Monaco's Rocher, and the zoom-14 tile holding it.
    static let cafe = (latitude: 43.73105, longitude: 7.42305)
    static var cafeTile: (x: Int, y: Int) {
        let n = Double(1 << 14), latitude = cafe.latitude * .pi / 180
        return (Int((cafe.longitude + 180) / 360 * n), Int((1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * n))
    }

    static func cafeChange(name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <osmChange version="0.6" generator="test">
          <create>
            <node id="99000000001" version="1" lat="\(cafe.latitude)" lon="\(cafe.longitude)">
              <tag k="amenity" v="cafe"/><tag k="name" v="\(name)"/>
            </node>
          </create>
        </osmChange>
        """
    }

    private func work(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("omk-update-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func testUpdateAppliesChangeFilesAndRefusesBrokenOnes() throws {
        let folder = try work("files")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("monaco.omk")
        let imported = try runProcess(binary.path, ["import", try TestData.shared("data/osm/monaco.osm.pbf").path, "-o", bundle.path,
                                                    "--no-place-index", "--no-road-graphs", "--no-street-scene"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let change = folder.appendingPathComponent("cafe.osc")
        try Self.cafeChange(name: "Café des Tests").write(to: change, atomically: true, encoding: .utf8)

        let updated = try runProcess(binary.path, ["update", bundle.path, change.path, "--json"])
        XCTAssertEqual(updated.status, 0, updated.stderr)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(updated.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(reports.count, 1)
        XCTAssertEqual(reports[0]["changes"] as? Int, 1)
        let tiles = try XCTUnwrap(reports[0]["tiles"] as? [String: Any])
        let written = try XCTUnwrap(tiles["tilesWritten"] as? [String: Int])
        XCTAssertEqual(written["14"], 1, "the café's own zoom-14 tile: \(tiles)")
        XCTAssertEqual((try XCTUnwrap(reports[0]["state"] as? [String: Any]))["count"] as? Int, 1)
        let text = try runProcess(binary.path, ["update", bundle.path, change.path])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("Updated: 1 changes"), text.stdout)
        XCTAssertTrue(text.stdout.contains("0 changed"), "the same change again changes no tile: \(text.stdout)")

        // A broken file: a clear error, the bundle as it was.
        let manifest = try Data(contentsOf: bundle.appendingPathComponent("manifest.json"))
        let broken = folder.appendingPathComponent("broken.osc")
        try String(Self.cafeChange(name: "x").prefix(150)).write(to: broken, atomically: true, encoding: .utf8)
        let refused = try runProcess(binary.path, ["update", bundle.path, broken.path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("broken.osc"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: bundle.appendingPathComponent("manifest.json")), manifest)
        // No work given, and a bundle that cannot be updated.
        XCTAssertEqual(try runProcess(binary.path, ["update", bundle.path]).status, 64)
        let missing = try runProcess(binary.path, ["update", folder.appendingPathComponent("none.omk").path, change.path])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("not a map bundle"), missing.stderr)
    }

    func testServeFollowsAFeedWhileServing() async throws {
        let folder = try work("serve")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("monaco.omk")
        let imported = try runProcess(binary.path, ["import", try TestData.shared("data/osm/monaco.osm.pbf").path, "-o", bundle.path,
                                                    "--no-road-graphs", "--no-street-scene"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        // The feed: Monaco's extract stands at Geofabrik's sequence 2947, where the feed starts.
        let feed = folder.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed.appendingPathComponent("000/002"), withIntermediateDirectories: true)
        func state(_ sequence: Int) -> String { "sequenceNumber=\(sequence)\ntimestamp=2021-04-22T20\\:21\\:46Z\n" }
        try state(2947).write(to: feed.appendingPathComponent("state.txt"), atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", bundle.path, "--port", "0", "--log", "none", "--update-from", feed.path, "--update-every", "1s"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // Everything the server says, read as it comes.
        let said = LockedText()
        errors.fileHandleForReading.readabilityHandler = { handle in said.append(String(decoding: handle.availableData, as: UTF8.self)) }
        var deadline = Date().addingTimeInterval(60)
        while Date() < deadline, said.text.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression) == nil {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        let range = try XCTUnwrap(said.text.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression), said.text)
        let base = try XCTUnwrap(URL(string: String(said.text[range])))
        func get(_ path: String) async throws -> (status: Int, body: Data, etag: String?) {
            let (data, response) = try await URLSession.shared.data(from: URL(string: path, relativeTo: base)!)
            let http = response as? HTTPURLResponse
            return (http?.statusCode ?? 0, data, http?.value(forHTTPHeaderField: "ETag"))
        }
        func search(_ name: String) async throws -> [String] {
            let query = name.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
            let body = try await get("/v1/search?q=\(query)").body
            let results = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["results"] as? [[String: Any]] ?? []
            return results.compactMap { $0["name"] as? String }
        }
        let tile = Self.cafeTile
        let cafeTilePath = "/tiles/14/\(tile.x)/\(tile.y).mvt", harbourPath = "/tiles/14/8530/5974.mvt"
        let before = (cafe: try await get(cafeTilePath).etag, harbour: try await get(harbourPath).etag)
        XCTAssertNotNil(before.cafe)
        let unknown = try await search("Café du Flux")
        XCTAssertFalse(unknown.contains("Café du Flux"))

        // Sequence 2948 appears in the feed: the café.
        let plain = folder.appendingPathComponent("948.osc")
        try Self.cafeChange(name: "Café du Flux").write(to: plain, atomically: true, encoding: .utf8)
        XCTAssertEqual(try runProcess("gzip", ["-k", plain.path]).status, 0)
        try FileManager.default.moveItem(at: folder.appendingPathComponent("948.osc.gz"), to: feed.appendingPathComponent("000/002/948.osc.gz"))
        try state(2948).write(to: feed.appendingPathComponent("000/002/948.state.txt"), atomically: true, encoding: .utf8)
        try state(2948).write(to: feed.appendingPathComponent("state.txt"), atomically: true, encoding: .utf8)
        deadline = Date().addingTimeInterval(90)
        while Date() < deadline, !said.text.contains("Updated to sequence 2948") { try await Task.sleep(nanoseconds: 100_000_000) }
        XCTAssertTrue(said.text.contains("Updated to sequence 2948"), said.text)

        let found = try await search("Café du Flux")
        XCTAssertEqual(found.first, "Café du Flux", "search sees the update")
        let health = try await get("/healthz").body
        XCTAssertGreaterThanOrEqual((try JSONSerialization.jsonObject(with: health) as? [String: Any])?["generation"] as? Int ?? 0, 2)
        // Entity tags follow the tiles' content: the café's tile has a new one, the harbour's is as it was.
        let after = (cafe: try await get(cafeTilePath).etag, harbour: try await get(harbourPath).etag)
        XCTAssertNotEqual(after.cafe, before.cafe)
        XCTAssertEqual(after.harbour, before.harbour)

        kill(process.processIdentifier, SIGTERM)
        let stop = Date().addingTimeInterval(20)
        while process.isRunning, Date() < stop { try await Task.sleep(nanoseconds: 50_000_000) }
        XCTAssertFalse(process.isRunning, "the server and its follower stop on SIGTERM")
        errors.fileHandleForReading.readabilityHandler = nil
    }
}

/// Text appended from a pipe's handler thread and read from the test.
private final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    func append(_ text: String) { lock.withLock { value += text } }
    var text: String { lock.withLock { value } }
}
