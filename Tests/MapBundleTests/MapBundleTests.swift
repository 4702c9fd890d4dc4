import Foundation
import MapBundle
import MapFormats
import XCTest

/// The bundle's own rules: finding bundles, writing one aside and renaming it into place,
/// refusing bundles from a newer OpenMapKit, and reopening files a re-import replaced.
final class MapBundleTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func manifest(version: Int = BundleManifest.currentFormatVersion) -> BundleManifest {
        BundleManifest(formatVersion: version, source: "test.osm.pbf", created: Date(timeIntervalSince1970: 0), bounds: nil,
                       minimumZoom: 0, maximumZoom: 14, tiles: MapBundle.tilesFileName, report: ImportReport())
    }

    /// Writes a bundle at `url` through BundleStaging, with one extra file.
    @discardableResult
    private func writeBundle(_ url: URL, marker: String = "one", version: Int = BundleManifest.currentFormatVersion) throws -> URL {
        let staging = try BundleStaging(destination: url)
        try Data(marker.utf8).write(to: staging.url(for: "marker.txt"))
        try staging.commit(manifest(version: version))
        return url
    }

    func testAFolderOfBundlesStandsForTheBundlesInItInNameOrder() throws {
        let regions = folder.appendingPathComponent("regions")
        try writeBundle(regions.appendingPathComponent("b.omk"))
        try writeBundle(regions.appendingPathComponent("a.omk"))
        // Not bundles: a hidden (staging) folder, a plain folder, a file.
        try FileManager.default.createDirectory(at: regions.appendingPathComponent(".c.omk.partial-1-2"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: regions.appendingPathComponent(".c.omk.partial-1-2/manifest.json"))
        try FileManager.default.createDirectory(at: regions.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: regions.appendingPathComponent("readme.txt"))

        let found = try BundleLocation.urls([regions.path], environment: [:])
        XCTAssertEqual(found.map(\.lastPathComponent), ["a.omk", "b.omk"])
        // A bundle is itself; several are separated by ':'; the environment is read only without paths.
        let a = regions.appendingPathComponent("a.omk").path
        XCTAssertEqual(try BundleLocation.urls(["\(a):\(regions.path)"], environment: [:]).map(\.lastPathComponent), ["a.omk", "a.omk", "b.omk"])
        XCTAssertEqual(try BundleLocation.urls([], environment: [MapBundle.environmentVariable: a]).map(\.path), [a])
        XCTAssertEqual(try BundleLocation.urls([], environment: [:]), [])
        XCTAssertThrowsError(try BundleLocation.urls([regions.appendingPathComponent("notes").path], environment: [:])) { error in
            XCTAssertTrue("\(error)".contains("not a map bundle"), "\(error)")
        }
    }

    func testStagingReplacesTheBundleOnlyWhenCommitted() throws {
        let url = folder.appendingPathComponent("r.omk")
        try writeBundle(url, marker: "old")
        do {
            let staging = try BundleStaging(destination: url)
            try Data("new".utf8).write(to: staging.url(for: "marker.txt"))
            // Dropped without commit, as when an import fails or is cancelled.
        }
        XCTAssertEqual(try String(contentsOf: url.appendingPathComponent("marker.txt"), encoding: .utf8), "old")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["r.omk"])

        try writeBundle(url, marker: "new")
        XCTAssertEqual(try String(contentsOf: url.appendingPathComponent("marker.txt"), encoding: .utf8), "new")
        XCTAssertEqual(try MapBundle(url: url).manifest.source, "test.osm.pbf")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["r.omk"], "no staging or old copy left")
    }

    func testStagingOfADeadProcessIsRemovedAndALiveOneKept() throws {
        let destination = folder.appendingPathComponent("x.mbtiles")
        // pid_t's largest value names no process.
        let dead = folder.appendingPathComponent(".x.mbtiles.partial-2147483646-7")
        let live = folder.appendingPathComponent(".x.mbtiles.partial-\(getppid())-7")
        let other = folder.appendingPathComponent(".y.mbtiles.partial-2147483646-7")
        for url in [dead, live, other] { try Data("scratch".utf8).write(to: url) }
        FileReplacement.removeAbandonedStaging(for: destination)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        XCTAssertEqual(left, [live.lastPathComponent, other.lastPathComponent])
    }

    func testAFailedFolderReplacementKeepsTheOldFolder() throws {
        let url = try writeBundle(folder.appendingPathComponent("k.omk"), marker: "kept")
        let missing = folder.appendingPathComponent(".k.omk.partial-1-1")
        XCTAssertThrowsError(try FileReplacement.replaceFolder(at: url, with: missing)) { error in
            XCTAssertEqual((error as? FileReplacementError)?.kind, .rename)
        }
        XCTAssertEqual(try String(contentsOf: url.appendingPathComponent("marker.txt"), encoding: .utf8), "kept")
    }

    func testABundleFromANewerOpenMapKitIsRefusedWithAReason() throws {
        let url = try writeBundle(folder.appendingPathComponent("n.omk"), version: BundleManifest.currentFormatVersion + 1)
        XCTAssertThrowsError(try MapBundle(url: url)) { error in
            XCTAssertTrue((error as? BundleError)?.message.contains("newer OpenMapKit") ?? false, "\(error)")
        }
        XCTAssertThrowsError(try MapBundle(url: folder)) { error in
            XCTAssertTrue((error as? BundleError)?.message.contains("no manifest.json") ?? false, "\(error)")
        }
    }

    func testOpenedFilesAreSharedUntilTheFileIsReplaced() throws {
        let cache = OpenedFileCache<Int>()
        let url = folder.appendingPathComponent("data.bin")
        try Data("first".utf8).write(to: url)
        var opened = 0
        func open() -> Int { opened += 1; return opened }
        XCTAssertEqual(cache.value(for: url, make: open), 1)
        XCTAssertEqual(cache.value(for: url, make: open), 1, "the same file is not opened again")
        // A re-import renames a new file over the old one: another inode, so it is reopened.
        let staged = FileReplacement.stagingURL(for: url)
        try Data("second".utf8).write(to: staged)
        try FileReplacement.replaceFile(at: url, with: staged)
        XCTAssertEqual(cache.value(for: url, make: open), 2)
        XCTAssertEqual(cache.value(for: url, make: open), 2)
        // A missing file is never cached: each lookup tries again.
        try FileManager.default.removeItem(at: url)
        XCTAssertEqual(cache.value(for: url, make: open), 3)
        XCTAssertEqual(cache.value(for: url, make: open), 4)
    }
}
