import Foundation
import MapBundle
import StreetScene
import XCTest

/// A bundle's street scene: named by the manifest, absent from bundles made before scenes existed.
final class BundleSceneTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-scene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A manifest written before the scene existed (no `scene`, no scene counts) still opens, and
    /// the bundle has no scene rather than a failing one.
    func testAnOlderManifestHasNoScene() throws {
        let old = """
            {"formatVersion": 1, "source": "monaco.osm.pbf", "created": "2025-01-01T00:00:00Z", "minimumZoom": 0, "maximumZoom": 14,
             "tiles": "tiles.mbtiles", "places": "places.sqlite",
             "report": {"source": "monaco.osm.pbf", "nodes": 10, "ways": 2, "relations": 0, "places": 3, "placeIndexBytes": 4096}}
            """
        let bundleURL = folder.appendingPathComponent("old.omk")
        try FileManager.default.createDirectory(at: bundleURL, withIntermediateDirectories: true)
        try Data(old.utf8).write(to: bundleURL.appendingPathComponent(MapBundle.manifestFileName))
        let bundle = try MapBundle(url: bundleURL)
        XCTAssertNil(bundle.manifest.scene)
        XCTAssertEqual(bundle.manifest.report.sceneBuildings, 0)
        XCTAssertEqual(bundle.manifest.report.places, 3)
        XCTAssertNil(bundle.sceneURL)
        XCTAssertNil(try bundle.streetScene())
    }

    /// A manifest naming a scene file that is not there fails with a typed error that says what to do.
    func testAMissingSceneFileIsATypedError() throws {
        let bundleURL = folder.appendingPathComponent("new.omk")
        let staging = try BundleStaging(destination: bundleURL)
        try staging.commit(BundleManifest(source: "x.osm.pbf", created: Date(), bounds: nil, minimumZoom: 0, maximumZoom: 0,
                                          tiles: MapBundle.tilesFileName, report: ImportReport(), scene: MapBundle.sceneFileName))
        let bundle = try MapBundle(url: bundleURL)
        XCTAssertEqual(bundle.manifest.scene, "scene.sqlite")
        XCTAssertThrowsError(try bundle.streetScene()) { error in
            guard case .missing = error as? StreetSceneError else { return XCTFail("\(error)") }
        }
        // Written, it opens, and the same file is shared until it is replaced.
        let writer = try StreetSceneWriter(url: bundleURL.appendingPathComponent(MapBundle.sceneFileName))
        try writer.finish()
        let first = try XCTUnwrap(try bundle.streetScene())
        XCTAssertTrue(first === (try bundle.streetScene()))
    }
}
