import Foundation
import MapRender
import TestSupport
import XCTest

/// `openmapkit snapshot` as a user runs it: framing, markers, polylines, styles and its errors.
final class SnapshotCommandTests: XCTestCase {
    var binary: URL { Bundle.main.bundleURL.appendingPathComponent("openmapkit") }

    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
        guard let environment else { return try runProcess(binary.path, arguments) }
        // With an environment of our own: run through env(1) so OPENMAPKIT_BUNDLE can be cleared.
        return try runProcess("/usr/bin/env", ["-i"] + environment.map { "\($0)=\($1)" } + [binary.path] + arguments)
    }

    /// PNG width and height from the IHDR chunk.
    func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        func int(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }

    func testSnapshotWithMarkersPolylineBBoxAndStyles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("monaco.omk").path
        let imported = try run(["import", TestData.shared("data/osm/monaco.osm.pbf").path, "-o", bundle])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        let png = folder.appendingPathComponent("markers.png").path
        let drawn = try run(["snapshot", "--bundle", bundle, "--bbox", "43.725,7.405,43.745,7.44", "--size", "300x200", "--scale", "2",
                             "--marker", "43.7384,7.4246,Parking", "--marker", "43.7394,7.4283",
                             "--polyline", "43.7312,7.4198;43.7384,7.4246;43.7394,7.4283", "-o", png])
        XCTAssertEqual(drawn.status, 0, drawn.stderr)
        XCTAssertTrue(drawn.stdout.contains("600×400"), drawn.stdout)
        XCTAssertTrue(try pngSize(png) == (600, 400))
        try? FileManager.default.createDirectory(atPath: "/tmp/openmapkit-snapshots", withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: "/tmp/openmapkit-snapshots/cli-markers.png")
        try? FileManager.default.copyItem(atPath: png, toPath: "/tmp/openmapkit-snapshots/cli-markers.png")

        // A GeoJSON line and the dark style.
        let geojson = folder.appendingPathComponent("line.geojson")
        try Data(#"{"type": "LineString", "coordinates": [[7.41, 43.73], [7.43, 43.74]]}"#.utf8).write(to: geojson)
        let dark = try run(["snapshot", "--bundle", bundle, "--center", "43.7384,7.4246", "--zoom", "14", "--size", "200x200",
                            "--style", "dark", "--polyline", geojson.path, "-o", png])
        XCTAssertEqual(dark.status, 0, dark.stderr)

        // Hybrid with imagery from a folder of tiles (none there: the vector layers still draw).
        let hybrid = try run(["snapshot", "--bundle", bundle, "--center", "43.7384,7.4246", "--zoom", "14", "--size", "100x100",
                              "--style", "hybrid", "--imagery", folder.path, "-o", png])
        XCTAssertEqual(hybrid.status, 0, hybrid.stderr)
        let noImagery = try run(["snapshot", "--bundle", bundle, "--center", "43.7384,7.4246", "--zoom", "14", "--style", "hybrid", "-o", png])
        XCTAssertNotEqual(noImagery.status, 0)
        XCTAssertTrue(noImagery.stderr.contains("imagery"), noImagery.stderr)

        // Mistakes get one-line reasons.
        let badBox = try run(["snapshot", "--bundle", bundle, "--bbox", "43.75,7.4,43.73,7.44", "-o", png])
        XCTAssertNotEqual(badBox.status, 0)
        XCTAssertTrue(badBox.stderr.contains("--bbox"), badBox.stderr)
        let badMarker = try run(["snapshot", "--bundle", bundle, "--center", "43.7,7.4", "--zoom", "12", "--marker", "north", "-o", png])
        XCTAssertNotEqual(badMarker.status, 0)
        XCTAssertTrue(badMarker.stderr.contains("--marker"), badMarker.stderr)
        let badLine = try run(["snapshot", "--bundle", bundle, "--center", "43.7,7.4", "--zoom", "12", "--polyline", "43.7,7.4", "-o", png])
        XCTAssertNotEqual(badLine.status, 0)
        XCTAssertTrue(badLine.stderr.contains("--polyline"), badLine.stderr)
        let halfFramed = try run(["snapshot", "--bundle", bundle, "--center", "43.7384,7.4246", "-o", png])
        XCTAssertNotEqual(halfFramed.status, 0)
        XCTAssertTrue(halfFramed.stderr.contains("--zoom"), halfFramed.stderr)

        // Neither --center nor --bbox: the picture frames the data's bounds, the box of the
        // extract's header (taller than wide here, so it fills the image from top to bottom).
        let framed = try run(["snapshot", "--bundle", bundle, "--size", "400x300", "--json", "-o", png])
        XCTAssertEqual(framed.status, 0, framed.stderr)
        XCTAssertTrue(try pngSize(png) == (400, 300))
        let image = try RenderCanvas.readPNG(path: png)
        func isHatching(_ x: Int, _ y: Int) -> Bool {
            let i = (y * image.width + x) * 4
            let (r, g, b) = (Int(image.rgba[i]), Int(image.rgba[i + 1]), Int(image.rgba[i + 2]))
            return abs(r - g) <= 4 && abs(g - b) <= 5 && (205...230).contains(r)
        }
        // The left and right margins beyond the box are hatched; near its east edge the sea runs
        // from the image's top to its bottom (above the attribution).
        XCTAssertTrue(isHatching(3, 150) && isHatching(396, 150), "the sides beyond Monaco's box should be hatched")
        let sea = (8..<262).filter { y in
            let i = (y * image.width + 320) * 4
            return abs(Int(image.rgba[i]) - 0x9F) <= 3 && abs(Int(image.rgba[i + 1]) - 0xD0) <= 3 && abs(Int(image.rgba[i + 2]) - 0xF4) <= 3
        }
        XCTAssertEqual(sea.count, 254, "the data's bounds should fill the image's height, the sea to its east edge")
    }

    func testWithoutABundleTheErrorNamesTheVariable() throws {
        let result = try run(["snapshot", "--center", "43.7,7.4", "--zoom", "12", "-o", "/tmp/never.png"], environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("OPENMAPKIT_BUNDLE"), result.stderr)
    }
}
