import Foundation
import GRDB
import MapBundle
import MapFormats
import XCTest

/// A journal an update left behind when its process died, put right by whoever opens the bundle
/// next: finished when the element store says the commit happened, dropped when not.
final class UpdateJournalTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A bundle whose element store last committed update `committed` (nil: none), with an old
    /// place index and scene, and a journal for update 1 whose staging folder holds the new ones
    /// (the scene already moved in when `sceneMoved`).
    private func halfUpdatedBundle(committed: String?, sceneMoved: Bool = false) throws -> (bundle: URL, staging: URL) {
        let bundle = folder.appendingPathComponent("region.omk"), staging = folder.appendingPathComponent(".region.omk.derived")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        var manifest = BundleManifest(source: "region.osm.pbf", created: Date(timeIntervalSince1970: 0), bounds: "7,43,8,44",
                                      minimumZoom: 0, maximumZoom: 14, tiles: MapBundle.tilesFileName, report: ImportReport(),
                                      places: MapBundle.placesFileName, scene: MapBundle.sceneFileName,
                                      elements: MapBundle.elementsFileName, features: MapBundle.featuresFileName)
        try manifest.encoded().write(to: bundle.appendingPathComponent(MapBundle.manifestFileName))
        let queue = try DatabaseQueue(path: bundle.appendingPathComponent(MapBundle.elementsFileName).path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            if let committed { try db.execute(sql: "INSERT INTO metadata VALUES ('update', ?)", arguments: [committed]) }
        }
        try queue.close()
        try Data("old places".utf8).write(to: bundle.appendingPathComponent("places.sqlite"))
        try Data("new places".utf8).write(to: staging.appendingPathComponent("places.sqlite"))
        try Data((sceneMoved ? "new scene" : "old scene").utf8).write(to: bundle.appendingPathComponent("scene.sqlite"))
        if !sceneMoved { try Data("new scene".utf8).write(to: staging.appendingPathComponent("scene.sqlite")) }
        manifest.updates = BundleManifest.UpdateState(count: 1, applied: Date(timeIntervalSince1970: 60))
        try UpdateJournal(id: "1", staging: staging.lastPathComponent, parts: ["places.sqlite", "scene.sqlite"], manifest: manifest)
            .write(into: bundle)
        return (bundle, staging)
    }

    private func text(_ url: URL) throws -> String { String(decoding: try Data(contentsOf: url), as: UTF8.self) }

    func testACommittedUpdateIsFinishedWhenTheBundleIsOpened() throws {
        for sceneMoved in [false, true] {
            let (bundle, staging) = try halfUpdatedBundle(committed: "1", sceneMoved: sceneMoved)
            let opened = try MapBundle(url: bundle)
            XCTAssertEqual(opened.manifest.updates?.count, 1, "the journal's manifest is written")
            XCTAssertEqual(try text(bundle.appendingPathComponent("places.sqlite")), "new places")
            XCTAssertEqual(try text(bundle.appendingPathComponent("scene.sqlite")), "new scene")
            XCTAssertFalse(FileManager.default.fileExists(atPath: bundle.appendingPathComponent(UpdateJournal.fileName).path))
            XCTAssertFalse(FileManager.default.fileExists(atPath: staging.path))
            try FileManager.default.removeItem(at: bundle)
        }
    }

    func testAnUpdateThatNeverCommittedIsDropped() throws {
        for committed in [nil, "0"] as [String?] {
            let (bundle, staging) = try halfUpdatedBundle(committed: committed)
            let opened = try MapBundle(url: bundle)
            XCTAssertNil(opened.manifest.updates, "the old manifest stays")
            XCTAssertEqual(try text(bundle.appendingPathComponent("places.sqlite")), "old places")
            XCTAssertEqual(try text(bundle.appendingPathComponent("scene.sqlite")), "old scene")
            XCTAssertFalse(FileManager.default.fileExists(atPath: bundle.appendingPathComponent(UpdateJournal.fileName).path))
            XCTAssertFalse(FileManager.default.fileExists(atPath: staging.path))
            try FileManager.default.removeItem(at: bundle)
        }
    }

    func testAnUnreadableJournalIsAClearError() throws {
        let (bundle, _) = try halfUpdatedBundle(committed: "1")
        try Data("{\"id\": ".utf8).write(to: bundle.appendingPathComponent(UpdateJournal.fileName))
        XCTAssertThrowsError(try MapBundle(url: bundle)) { error in
            XCTAssertTrue("\(error)".contains("update-journal.json"), "\(error)")
        }
    }

    /// A bundle imported over another is swapped in, in one step: the old folder's name holds a
    /// whole bundle at every moment, and the old one is gone afterwards.
    func testReplacingAFolderSwapsItInWhole() throws {
        let destination = folder.appendingPathComponent("swap.omk")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: destination.appendingPathComponent("marker.txt"))
        let staged = FileReplacement.stagingURL(for: destination)
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
        try Data("new".utf8).write(to: staged.appendingPathComponent("marker.txt"))
        try FileReplacement.replaceFolder(at: destination, with: staged)
        XCTAssertEqual(try text(destination.appendingPathComponent("marker.txt")), "new")
        XCTAssertFalse(FileManager.default.fileExists(atPath: staged.path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["swap.omk"])
    }
}
