import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `openmapkit update` and `openmapkit serve --update-from` as a user runs them: a café added by
/// an osmChange shows in the tiles and in search, and a server under load takes the update in
/// without failing a request.
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
                                                    "--no-street-scene"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        // The feed: Monaco's extract stands at Geofabrik's sequence 2947, where the feed starts.
        let feed = folder.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed.appendingPathComponent("000/002"), withIntermediateDirectories: true)
        func state(_ sequence: Int) -> String { "sequenceNumber=\(sequence)\ntimestamp=2021-04-22T20\\:21\\:46Z\n" }
        try state(2947).write(to: feed.appendingPathComponent("state.txt"), atomically: true, encoding: .utf8)

        let server = try await ServedBundle(binary: binary, arguments: [bundle.path, "--update-from", feed.path, "--update-every", "1s"])
        defer { server.stop() }
        let (said, base) = (server.said, server.base)
        let get = server.get, search = server.search
        let tile = Self.cafeTile
        let cafeTilePath = "/tiles/14/\(tile.x)/\(tile.y).mvt", harbourPath = "/tiles/14/8530/5974.mvt"
        let before = (cafe: try await get(cafeTilePath).etag, harbour: try await get(harbourPath).etag)
        XCTAssertNotNil(before.cafe)
        let unknown = try await search("Café du Flux")
        XCTAssertFalse(unknown.contains("Café du Flux"))

        // Clients keep asking for tiles, search and directions from before the update until after it.
        let load = ServeLoad(base: base, paths: [cafeTilePath, harbourPath, "/tiles/13/4265/2987.mvt", "/tiles/12/2132/1493.mvt",
                                                 "/v1/search?q=casino", "/v1/search?q=Boulevard%20Albert",
                                                 "/v1/directions?origin=43.7396,7.4279&destination=43.7314,7.4198"])
        let loading = Task { await load.run(clients: 4) }
        try await Task.sleep(nanoseconds: 300_000_000)

        // Sequence 2948 appears in the feed: the café.
        let published = Date()
        let plain = folder.appendingPathComponent("948.osc")
        try Self.cafeChange(name: "Café du Flux").write(to: plain, atomically: true, encoding: .utf8)
        XCTAssertEqual(try runProcess("gzip", ["-k", plain.path]).status, 0)
        try FileManager.default.moveItem(at: folder.appendingPathComponent("948.osc.gz"), to: feed.appendingPathComponent("000/002/948.osc.gz"))
        try state(2948).write(to: feed.appendingPathComponent("000/002/948.state.txt"), atomically: true, encoding: .utf8)
        try state(2948).write(to: feed.appendingPathComponent("state.txt"), atomically: true, encoding: .utf8)
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline, !said.text.contains("Updated to sequence 2948") { try await Task.sleep(nanoseconds: 100_000_000) }
        XCTAssertTrue(said.text.contains("Updated to sequence 2948"), said.text)
        let updated = Date()
        try await Task.sleep(nanoseconds: 300_000_000)
        load.stop()
        await loading.value
        let answers = load.answers
        XCTAssertEqual(answers.filter { $0.status != 200 }.map { "\($0.path): \($0.status)" }, [], "no request fails while the update lands")
        XCTAssertGreaterThan(answers.filter { $0.at > published && $0.at < updated }.count, 10, "requests were answered during the update")
        XCTAssertGreaterThan(answers.filter { $0.at > updated }.count, 0)

        let found = try await search("Café du Flux")
        XCTAssertEqual(found.first, "Café du Flux", "search sees the update")
        let health = try await get("/healthz").body
        XCTAssertGreaterThanOrEqual((try JSONSerialization.jsonObject(with: health) as? [String: Any])?["generation"] as? Int ?? 0, 2)
        // Entity tags follow the tiles' content: the café's tile has a new one, the harbour's is as it was.
        let after = (cafe: try await get(cafeTilePath).etag, harbour: try await get(harbourPath).etag)
        XCTAssertNotEqual(after.cafe, before.cafe)
        XCTAssertEqual(after.harbour, before.harbour)

        let stopped = await server.terminate()
        XCTAssertTrue(stopped, "the server and its follower stop on SIGTERM")
    }

    /// A bundle brought up to date by `openmapkit update` beside a running server (as a scheduled
    /// job would) is served whole within seconds, without a signal: the server sees the new manifest.
    func testServeSeesAnUpdateMadeBesideIt() async throws {
        let folder = try work("beside")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("monaco.omk")
        let imported = try runProcess(binary.path, ["import", try TestData.shared("data/osm/monaco.osm.pbf").path, "-o", bundle.path,
                                                    "--no-road-graphs", "--no-street-scene"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let server = try await ServedBundle(binary: binary, arguments: [bundle.path])
        defer { server.stop() }
        let before = try await server.search("Café des Voisins")
        XCTAssertFalse(before.contains("Café des Voisins"))

        let change = folder.appendingPathComponent("cafe.osc")
        try Self.cafeChange(name: "Café des Voisins").write(to: change, atomically: true, encoding: .utf8)
        let updated = try runProcess(binary.path, ["update", bundle.path, change.path])
        XCTAssertEqual(updated.status, 0, updated.stderr)
        var found: [String] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            found = try await server.search("Café des Voisins")
            if found.first == "Café des Voisins" { break }
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        XCTAssertEqual(found.first, "Café des Voisins", "search sees the update made beside the server: \(server.said.text)")
        let said = Date().addingTimeInterval(10)
        while Date() < said, !server.said.text.contains("A bundle changed: re-opened") { try await Task.sleep(nanoseconds: 100_000_000) }
        XCTAssertTrue(server.said.text.contains("A bundle changed: re-opened"), server.said.text)
    }
}

/// Clients asking a server for `paths` in turn, each as soon as its last answer came, until stopped;
/// every answer's status and time kept.
private final class ServeLoad: @unchecked Sendable {
    struct Answer { var path: String; var status: Int; var at: Date }
    let base: URL
    let paths: [String]
    private let lock = NSLock()
    private var stopped = false
    private var collected: [Answer] = []

    init(base: URL, paths: [String]) {
        self.base = base
        self.paths = paths
    }

    var answers: [Answer] { lock.withLock { collected } }
    func stop() { lock.withLock { stopped = true } }
    private var isStopped: Bool { lock.withLock { stopped } }

    func run(clients: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask {
                    var i = client
                    while !self.isStopped {
                        let path = self.paths[i % self.paths.count]
                        i += 1
                        var status = 0
                        if let (_, response) = try? await URLSession.shared.data(from: URL(string: path, relativeTo: self.base)!) {
                            status = (response as? HTTPURLResponse)?.statusCode ?? 0
                        }
                        let answer = Answer(path: path, status: status, at: Date())
                        self.lock.withLock { self.collected.append(answer) }
                    }
                }
            }
        }
    }
}
