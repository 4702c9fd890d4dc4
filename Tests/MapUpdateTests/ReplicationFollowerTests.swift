import Foundation
import MapBundle
import MapFormats
import MapGeometry
import MapImport
import MapUpdate
import TestSupport
import XCTest

/// A bundle following a replication feed in a folder: Monaco's extract names Geofabrik's feed at
/// sequence 2947; the feed here has the two diffs after it (the update tests' edits, then a
/// rename). Caught up, the bundle's tiles are a fresh import's of the data after both.
final class ReplicationFollowerTests: XCTestCase {
    func testCatchingUpAppliesTheDiffsAfterTheBundlesSequenceInOrder() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-follower-\(getpid())")
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let old = try TestData.shared("data/osm/monaco.osm.pbf")

        // Diff 2948: the update tests' edits, as osmium derives them.
        let new = work.appendingPathComponent("new.osm.pbf"), first = work.appendingPathComponent("2948.osc")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MapImportTests/Update/edit_extract.py")
        let edited = try runProcess("python3", [script.path, old.path, new.path])
        XCTAssertEqual(edited.status, 0, String(decoding: edited.standardError, as: UTF8.self))
        let edits = try XCTUnwrap(try JSONSerialization.jsonObject(with: edited.standardOutput) as? [String: Any])
        XCTAssertEqual(try runProcess("osmium", ["derive-changes", old.path, new.path, "-o", first.path, "-O"]).status, 0)
        // Diff 2949: the new café renamed, and the first diff's new road deleted again.
        let cafe = try XCTUnwrap(edits["cafe"] as? Int), road = try XCTUnwrap(edits["newWay"] as? Int)
        let cafeNode = try XCTUnwrap(OSMChange.read(contentsOf: first).changes.first { $0.key == OSMElementKey(type: .node, id: Int64(cafe)) })
        let location = try XCTUnwrap(cafeNode.location)
        let second = work.appendingPathComponent("2949.osc")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <osmChange version="0.6" generator="test">
              <modify>
                <node id="\(cafe)" version="\((cafeNode.version ?? 1) + 1)" lat="\(location.latitude)" lon="\(location.longitude)">
                  <tag k="amenity" v="cafe"/><tag k="name" v="Café des Suites"/>
                </node>
              </modify>
              <delete>
                <way id="\(road)" version="2"/>
              </delete>
            </osmChange>
            """.write(to: second, atomically: true, encoding: .utf8)
        let unboxed = work.appendingPathComponent("newest-unboxed.osm.pbf"), newest = work.appendingPathComponent("newest.osm.pbf")
        let applied = try runProcess("osmium", ["apply-changes", new.path, second.path, "-o", unboxed.path, "-O"])
        XCTAssertEqual(applied.status, 0, String(decoding: applied.standardError, as: UTF8.self))
        // osmium drops the header's box, which the sea is closed in: put it back, as an extract's server would.
        let boxed = try runProcess("python3", ["-c", """
            import osmium, sys
            reader = osmium.io.Reader(sys.argv[1]); box = reader.header().box(); reader.close()
            header = osmium.io.Header(); header.add_box(box)
            with osmium.SimpleWriter(sys.argv[3], overwrite=True, header=header) as writer:
                for o in osmium.FileProcessor(sys.argv[2]): writer.add(o)
            """, new.path, unboxed.path, newest.path])
        XCTAssertEqual(boxed.status, 0, String(decoding: boxed.standardError, as: UTF8.self))

        // The feed: both diffs gzipped under their sequence paths, with their states.
        let feed = work.appendingPathComponent("feed")
        let start = Date(timeIntervalSince1970: 1_619_036_506)
        for (sequence, file) in [(2948, first), (2949, second)] {
            let state = ReplicationState(sequenceNumber: sequence, timestamp: start.addingTimeInterval(Double(sequence - 2947) * 86400))
            let changes = feed.appendingPathComponent(try ReplicationPath.changes(of: sequence))
            try FileManager.default.createDirectory(at: changes.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(Compression.deflate(Array(try Data(contentsOf: file)), container: .gzip)).write(to: changes)
            try state.text.write(to: feed.appendingPathComponent(try ReplicationPath.state(of: sequence)), atomically: true, encoding: .utf8)
            try state.text.write(to: feed.appendingPathComponent("state.txt"), atomically: true, encoding: .utf8)
        }

        let fresh = work.appendingPathComponent("fresh.omk")
        try Self.importBundle(newest, into: fresh)
        let expected = try Self.tiles(of: fresh)
        for batchSize in [60, 1] {
            let bundle = work.appendingPathComponent("monaco-\(batchSize).omk")
            try Self.importBundle(old, into: bundle)
            XCTAssertEqual(try MapBundle(url: bundle).manifest.updates?.sequence, 2947, "the extract's header names its sequence")
            let follower = ReplicationFollower(bundle: bundle, source: ReplicationDirectory(root: feed))
            follower.batchSize = batchSize
            let reports = try await follower.catchUp()
            XCTAssertEqual(reports.count, batchSize == 1 ? 2 : 1, "batches of \(batchSize)")
            let state = try XCTUnwrap(try MapBundle(url: bundle).manifest.updates)
            XCTAssertEqual(state.sequence, 2949)
            XCTAssertEqual(state.timestamp, start.addingTimeInterval(2 * 86400))
            XCTAssertEqual(state.count, reports.count)
            let tiles = try Self.tiles(of: bundle)
            XCTAssertEqual(Set(tiles.keys), Set(expected.keys))
            XCTAssertTrue(tiles == expected, "batches of \(batchSize): the tiles differ from a fresh import of the data after both diffs")
            // Current: nothing more to do.
            let none = try await follower.catchUp()
            XCTAssertTrue(none.isEmpty)
        }

        // A bundle that records no sequence asks for one.
        let unplaced = work.appendingPathComponent("unplaced.omk")
        try Self.importBundle(newest, into: unplaced)
        do {
            _ = try await ReplicationFollower(bundle: unplaced, source: ReplicationDirectory(root: feed)).catchUp()
            XCTFail("a bundle without a sequence followed a feed")
        } catch {
            XCTAssertTrue("\(error)".contains("--from-sequence"), "\(error)")
        }
        // A feed with a gap is refused, naming the missing sequence, and nothing is applied.
        try FileManager.default.removeItem(at: feed.appendingPathComponent(try ReplicationPath.changes(of: 2948)))
        let gapped = work.appendingPathComponent("gapped.omk")
        try Self.importBundle(old, into: gapped)
        do {
            _ = try await ReplicationFollower(bundle: gapped, source: ReplicationDirectory(root: feed)).catchUp()
            XCTFail("a feed without sequence 2948 was followed")
        } catch {
            XCTAssertTrue("\(error)".contains("2948"), "\(error)")
        }
        XCTAssertEqual(try MapBundle(url: gapped).manifest.updates?.sequence, 2947)
    }

    static func importBundle(_ source: URL, into bundle: URL) throws {
        let importer = BundleImporter()
        (importer.buildsPlaceIndex, importer.buildsRoadGraphs, importer.buildsStreetScene) = (false, false, false)
        _ = try importer.importPBF(at: source, to: bundle)
    }

    static func tiles(of bundle: URL) throws -> [TileID: Data] {
        var tiles: [TileID: Data] = [:]
        try MBTilesArchive(url: bundle.appendingPathComponent(MapBundle.tilesFileName)).forEachTile { tiles[$0] = $1 }
        return tiles
    }
}
