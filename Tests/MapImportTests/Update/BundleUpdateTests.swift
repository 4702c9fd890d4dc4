import Foundation
import GRDB
import MapBundle
import MapFormats
import MapGeometry
@testable import MapImport
import MapRouting
import TestSupport
import XCTest

/// An osmChange applied to a whole bundle with ``BundleUpdater``: its tiles then equal a fresh
/// import's of the new data, byte for byte, and only the tiles that changed were written. The
/// changes are the edits of ``EditedExtract`` (every kind, the coastline and a boundary among them).
final class BundleUpdateTests: XCTestCase {
    /// Tiles, features and elements only: what these tests compare (places, graphs and the
    /// street scene have tests of their own).
    static func importBundle(_ source: URL, into bundle: URL) throws -> ImportReport {
        let importer = BundleImporter()
        (importer.buildsPlaceIndex, importer.buildsRoadGraphs, importer.buildsStreetScene) = (false, false, false)
        return try importer.importPBF(at: source, to: bundle)
    }

    static func tiles(of bundle: URL) throws -> [TileID: Data] {
        var tiles: [TileID: Data] = [:]
        try MBTilesArchive(url: bundle.appendingPathComponent(MapBundle.tilesFileName)).forEachTile { tiles[$0] = $1 }
        return tiles
    }

    func testUpdatedTilesEqualAFreshImportOfTheNewData() throws {
        let edited = try EditedExtract("equal")
        defer { edited.remove() }
        let bundle = edited.work.appendingPathComponent("monaco.omk"), fresh = edited.work.appendingPathComponent("fresh.omk")
        _ = try Self.importBundle(edited.old, into: bundle)
        _ = try Self.importBundle(edited.new, into: fresh)
        let before = try Self.tiles(of: bundle)

        let updater = try BundleUpdater(bundle: bundle)
        var phases: [UpdatePhase] = []
        updater.progress = { phase, _ in if phases.last != phase { phases.append(phase) } }
        let report = try updater.apply(try OSMChange.read(contentsOf: edited.change))
        XCTAssertEqual(phases, [.elements, .tiles, .writing])
        print("update: \(report.elementsRemade) elements remade, \(report.elementsDeleted) deleted; tiles: \(report.tiles); of \(before.count)")

        let updated = try Self.tiles(of: bundle), expected = try Self.tiles(of: fresh)
        XCTAssertEqual(Set(updated.keys), Set(expected.keys), "the updated archive has other tiles than a fresh import")
        let differing = expected.keys.filter { updated[$0] != nil && updated[$0] != expected[$0] }.sorted()
        XCTAssertEqual(differing, [], "tiles that differ from a fresh import's: \(differing.prefix(10))")

        // Every tile written changed, and every tile that changed was written.
        let changed = Set(before.keys).union(updated.keys).filter { before[$0] != updated[$0] }
        XCTAssertEqual(report.tiles.tilesChanged, changed.count)
        XCTAssertGreaterThan(changed.count, 0)
        // A handful of edits rewrite a small part of the pyramid.
        XCTAssertLessThan(changed.count, before.count / 4, "\(changed.count) of \(before.count) tiles changed")
        XCTAssertTrue(report.tiles.seaRemade, "a coastline node moved")
        XCTAssertGreaterThan(report.tiles.tilesUnchanged, 0, "re-cut tiles that came out the same are left alone")

        // The feature store now holds what a fresh import's holds, feature for feature.
        let storeRows = { (bundle: URL) throws -> [Row] in
            try DatabaseQueue(path: bundle.appendingPathComponent(MapBundle.featuresFileName).path).read { db in
                try Row.fetchAll(db, sql: "SELECT kind, source, seq, first_zoom, min_x, min_y, max_x, max_y, record, properties FROM features ORDER BY kind, source, seq")
            }
        }
        let (updatedRows, freshRows) = (try storeRows(bundle), try storeRows(fresh))
        XCTAssertEqual(updatedRows.count, freshRows.count)
        XCTAssertTrue(updatedRows == freshRows, "the feature store differs from a fresh import's")

        // The manifest records the update.
        let manifest = try MapBundle(url: bundle).manifest
        XCTAssertEqual(manifest.updates?.count, 1)

        // The same change again reaches the same elements and makes the same tiles: nothing is written.
        let again = try updater.apply(try OSMChange.read(contentsOf: edited.change))
        XCTAssertEqual(again.tiles.tilesChanged, 0)
        XCTAssertEqual(try Self.tiles(of: bundle), updated)
        XCTAssertEqual(try MapBundle(url: bundle).manifest.updates?.count, 2)
    }

    /// Andorra, inland and larger: the change reaches a few tiles of a few buckets, and only
    /// those are cut again; the archive still equals a fresh import's.
    func testOnlyTheTilesAChangeReachesAreCutAgain() throws {
        let edited = try EditedExtract("andorra", extract: "andorra")
        defer { edited.remove() }
        let bundle = edited.work.appendingPathComponent("andorra.omk"), fresh = edited.work.appendingPathComponent("fresh.omk")
        _ = try Self.importBundle(edited.old, into: bundle)
        _ = try Self.importBundle(edited.new, into: fresh)
        let before = try Self.tiles(of: bundle)
        let report = try BundleUpdater(bundle: bundle).apply(try OSMChange.read(contentsOf: edited.change))
        let updated = try Self.tiles(of: bundle), expected = try Self.tiles(of: fresh)
        XCTAssertEqual(Set(updated.keys), Set(expected.keys))
        XCTAssertTrue(updated == expected, "tiles that differ: \(expected.keys.filter { updated[$0] != expected[$0] }.sorted().prefix(10))")
        let changed = Set(before.keys).union(updated.keys).filter { before[$0] != updated[$0] }
        XCTAssertEqual(report.tiles.tilesChanged, changed.count)
        XCTAssertFalse(report.tiles.seaRemade)
        // Cut again: the changed tiles and the few around them, not whole buckets.
        XCTAssertLessThan(report.tiles.tilesChanged + report.tiles.tilesUnchanged, before.count / 4,
                          "\(report.tiles.tilesChanged) changed and \(report.tiles.tilesUnchanged) unchanged tiles cut again of \(before.count)")
    }

    /// The parts made from the whole of the data — place index, road graphs, street scene — are
    /// made again from the updated store, as a fresh import of the new data makes them.
    func testSearchDirectionsAndTheSceneEqualAFreshImportsAfterAnUpdate() throws {
        let edited = try EditedExtract("derived")
        defer { edited.remove() }
        let bundle = edited.work.appendingPathComponent("monaco.omk"), fresh = edited.work.appendingPathComponent("fresh.omk")
        _ = try BundleImporter().importPBF(at: edited.old, to: bundle)
        _ = try BundleImporter().importPBF(at: edited.new, to: fresh)
        let report = try BundleUpdater(bundle: bundle).apply(try OSMChange.read(contentsOf: edited.change))
        XCTAssertNotNil(report.derivedParts)
        let manifest = try MapBundle(url: bundle).manifest
        XCTAssertEqual(manifest.roads?.count, 3)

        func rows(_ file: String, _ sql: String) throws -> [Row] {
            try DatabaseQueue(path: bundle.appendingPathComponent(file).path).read { try Row.fetchAll($0, sql: sql) }
        }
        func freshRows(_ file: String, _ sql: String) throws -> [Row] {
            try DatabaseQueue(path: fresh.appendingPathComponent(file).path).read { try Row.fetchAll($0, sql: sql) }
        }
        let places = "SELECT id, kind, key, ord, record FROM places ORDER BY id"
        let updatedPlaces = try rows(MapBundle.placesFileName, places), freshPlaces = try freshRows(MapBundle.placesFileName, places)
        XCTAssertEqual(updatedPlaces.count, freshPlaces.count)
        XCTAssertTrue(updatedPlaces == freshPlaces, "the place index differs from a fresh import's")
        XCTAssertTrue(updatedPlaces.contains { ($0["id"] as String) == "n\(edited.edits["cafe"] as! Int)" }, "the new café is in the index")
        XCTAssertTrue(updatedPlaces.contains { ($0["id"] as String) == "w\(edited.edits["newWay"] as! Int)" }, "the new street is in the index")
        XCTAssertFalse(updatedPlaces.contains { ($0["id"] as String) == "n\(edited.edits["deletedPOI"] as! Int)" }, "the deleted point of interest is gone")

        // The graphs keep the old node order, so their bytes differ from a fresh import's; their
        // answers do not: the same travel times between points all over the edited streets.
        var random = SplitMix64(seed: 26)
        for (mode, file) in manifest.roads!.sorted(by: { $0.key < $1.key }) {
            let updated = try RoadGraph(url: bundle.appendingPathComponent(file)), expected = try RoadGraph(url: fresh.appendingPathComponent(file))
            var compared = 0
            for _ in 0..<150 {
                func point() -> CLLocationCoordinate2D {
                    CLLocationCoordinate2D(latitude: 43.7275 + 0.0225 * Double(random.next() % 10_000) / 10_000,
                                           longitude: 7.4090 + 0.0300 * Double(random.next() % 10_000) / 10_000)
                }
                let (a, b) = (point(), point())
                guard let want = try? expected.travelTime(from: a, to: b) else {
                    XCTAssertNil(try? updated.travelTime(from: a, to: b), "\(mode): routed only after the update")
                    continue
                }
                let got = try updated.travelTime(from: a, to: b)
                XCTAssertEqual(got.travelTime, want.travelTime, accuracy: 1e-6, "\(mode) \(a) → \(b)")
                XCTAssertEqual(got.distance, want.distance, accuracy: 1e-6, "\(mode) \(a) → \(b)")
                compared += 1
            }
            XCTAssertGreaterThan(compared, 100, mode)
        }
        let scene = "SELECT * FROM sqlite_master ORDER BY name"
        XCTAssertTrue(try rows(MapBundle.sceneFileName, scene) == freshRows(MapBundle.sceneFileName, scene))
        let sceneBytes = try Data(contentsOf: bundle.appendingPathComponent(MapBundle.sceneFileName))
        XCTAssertTrue(sceneBytes == (try Data(contentsOf: fresh.appendingPathComponent(MapBundle.sceneFileName))), "the street scene differs from a fresh import's")
    }

    func testACancelledUpdateLeavesTheBundleAsItWas() throws {
        let edited = try EditedExtract("cancel")
        defer { edited.remove() }
        let bundle = edited.work.appendingPathComponent("monaco.omk")
        _ = try Self.importBundle(edited.old, into: bundle)
        let files = [MapBundle.tilesFileName, MapBundle.elementsFileName, MapBundle.featuresFileName, MapBundle.manifestFileName]
        let before = try files.map { try Data(contentsOf: bundle.appendingPathComponent($0)) }

        let updater = try BundleUpdater(bundle: bundle)
        // Cancelled once the tiles are being cut: the elements are changed by then, in the transaction.
        updater.progress = { phase, _ in if phase == .tiles { updater.cancellation.cancel() } }
        XCTAssertThrowsError(try updater.apply(try OSMChange.read(contentsOf: edited.change))) { error in
            guard case UpdateError.cancelled = error else { return XCTFail("\(error)") }
        }
        let after = try files.map { try Data(contentsOf: bundle.appendingPathComponent($0)) }
        for (index, file) in files.enumerated() { XCTAssertTrue(before[index] == after[index], "\(file) changed") }
    }

    func testABundleWithoutUpdateDataSaysHowToGetIt() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-bundle-update-readonly-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let importer = BundleImporter()
        importer.tileOptions.maximumZoom = 0
        (importer.buildsPlaceIndex, importer.buildsRoadGraphs, importer.buildsStreetScene, importer.keepsElements) = (false, false, false, false)
        let bundle = work.appendingPathComponent("monaco.omk")
        _ = try importer.importPBF(at: try TestData.shared("data/osm/monaco.osm.pbf"), to: bundle)
        XCTAssertFalse(FileManager.default.fileExists(atPath: bundle.appendingPathComponent(MapBundle.featuresFileName).path))
        XCTAssertThrowsError(try BundleUpdater(bundle: bundle)) { error in
            XCTAssertTrue("\(error)".contains("--no-update-data"), "\(error)")
        }
        XCTAssertThrowsError(try BundleUpdater(bundle: work.appendingPathComponent("nothing.omk"))) { error in
            XCTAssertTrue("\(error)".contains("not a map bundle"), "\(error)")
        }
    }
}
