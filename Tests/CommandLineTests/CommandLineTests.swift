import Foundation
import TestSupport
import XCTest

/// The `openmapkit` verbs, run as processes: output, JSON, exit codes and error messages.
final class CommandLineTests: XCTestCase {
    /// The `openmapkit` binary next to this test bundle (SwiftPM builds both into one folder).
    var binary: URL {
        Bundle.main.bundleURL.appendingPathComponent("openmapkit")
    }

    func run(_ arguments: [String], input: String = "") throws -> ProcessResult {
        try runProcess(binary.path, arguments, input: Data(input.utf8))
    }

    func testRegionText() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary.path), "no binary at \(binary.path)")
        let result = try run(["region", "--center", "43.7384,7.4246", "--meters", "2000"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("span 0.018001° × 0.024827°"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Tiles       z14: x 8529–8530, y 5973–5974  (4 tiles)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("https://maps.apple.com/frame?center=43.7384,7.4246&span=0.0180006,0.0248269"), result.stdout)
    }

    func testRegionJSONAcrossTheAntimeridian() throws {
        let result = try run(["region", "--center", "-17.7,179.9", "--span", "2,4", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["spans180thMeridian"] as? Bool, true)
        let tiles = try XCTUnwrap(json["tiles"] as? [String: Any])
        XCTAssertEqual(tiles["columns"] as? [Int], [127, 0])
    }

    func testRegionRejectsBadInput() throws {
        for arguments in [["region", "--center", "91,0", "--meters", "10"],
                          ["region", "--center", "abc", "--meters", "10"],
                          ["region", "--center", "1,2"],
                          ["region", "--center", "1,2", "--meters", "-5"],
                          ["region", "--center", "1,2", "--span", "0,400"]] {
            let result = try run(arguments)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stderr.contains("Error"), "\(arguments): \(result.stderr)")
        }
    }

    func testMapPointFilter() throws {
        let result = try run(["mappoint"], input: "0 0\n43.7384, 7.4246\nnot a line\n95 0\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout.split(separator: "\n"), [
            "134217728.0000 134217728.0000", "139753911.0184 97878998.5930",
            "ERROR: expected two numbers", "ERROR: coordinate out of range",
        ])
        XCTAssertTrue(result.stderr.contains("line 3"), result.stderr)
        let back = try run(["mappoint", "--inverse"], input: "139753911.0184 97878998.5930")
        XCTAssertEqual(back.status, 0)
        XCTAssertEqual(back.stdout, "43.738400000 7.424600000\n")
    }

    func testGeodesicFilterMatchesGeodSolve() throws {
        // Expected lines are GeodSolve 2.1.2's output for the same input.
        let inverse = try run(["geodesic", "inverse"], input: "43.7384 7.4246 47.1410 9.5209\n")
        XCTAssertEqual(inverse.status, 0, inverse.stderr)
        XCTAssertEqual(inverse.stdout, "22.70536849 24.19975064 412161.975\n")
        let bad = try run(["geodesic", "inverse"], input: "1 2 3\n")
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("line 1"), bad.stderr)
    }

    /// SIGTERM (a `kill`, a service manager stopping) cancels an import like Ctrl-C: the process
    /// exits with an error and leaves nothing beside the destination.
    func testTerminatedImportLeavesNothing() throws {
        let liechtenstein = TestData.shared("data/osm/liechtenstein.osm.pbf").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-term-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["import", liechtenstein, "-o", folder.appendingPathComponent("li.omk").path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Wait until the import is under way (its staging folder exists), then stop it.
        let deadline = Date().addingTimeInterval(30)
        while (try FileManager.default.contentsOfDirectory(atPath: folder.path)).isEmpty && Date() < deadline && process.isRunning {
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.terminate()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertNotEqual(process.terminationStatus, 0, stderr)
        XCTAssertEqual(process.terminationReason, .exit, "handled, not killed by the signal")
        XCTAssertTrue(stderr.contains("cancelled"), stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testImportInspectAndExport() throws {
        let monaco = TestData.shared("data/osm/monaco.osm.pbf").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("monaco.omk").path

        let imported = try run(["import", monaco, "-o", bundle, "--max-zoom", "12", "--json"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((report["tilesPerZoom"] as? [String: Any])?.count, 13, imported.stdout)
        XCTAssertTrue(imported.stderr.contains("cutting and writing tiles"), "progress goes to standard error")
        XCTAssertEqual((report["phases"] as? [[String: Any]])?.map { $0["phase"] as? String }, ["reading relations", "reading nodes and ways", "assembling multipolygons", "building the place index", "writing the street scene", "keeping the OSM elements", "cutting and writing tiles", "building the road graphs", "finishing the bundle"], imported.stdout)
        XCTAssertGreaterThan(report["sceneBuildings"] as? Int ?? 0, 1000, imported.stdout)

        // The bundle drawn with the default style: a PNG of the asked size, with land, roads and buildings.
        let png = folder.appendingPathComponent("monaco.png").path
        let snapshot = try run(["snapshot", "--bundle", bundle, "--center", "43.7384,7.4246", "--zoom", "12.5",
                                "--size", "300x200", "--scale", "2", "-o", png])
        XCTAssertEqual(snapshot.status, 0, snapshot.stderr)
        let image = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
        XCTAssertEqual(Array(image[16..<24]), [0, 0, 2, 88, 0, 0, 1, 144], "600 × 400 pixels")
        XCTAssertGreaterThan(image.count, 20_000, "a map, not a blank image")
        let badZoom = try run(["snapshot", "--bundle", bundle, "--center", "43.7384,7.4246", "--zoom", "99", "-o", png])
        XCTAssertNotEqual(badZoom.status, 0)
        XCTAssertTrue(badZoom.stderr.contains("--zoom"), badZoom.stderr)

        let inspected = try run(["tiles", "inspect", "12/2132/1493", "--bundle", bundle])
        XCTAssertEqual(inspected.status, 0, inspected.stderr)
        XCTAssertTrue(inspected.stdout.contains("transportation:"), inspected.stdout)
        let json = try run(["tiles", "inspect", "12/2132/1493", "--bundle", bundle, "--json"])
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])

        let pmtiles = folder.appendingPathComponent("monaco.pmtiles").path
        let exported = try run(["tiles", "export", "--bundle", bundle, "--pmtiles", pmtiles])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertTrue(exported.stdout.hasPrefix("Wrote "), exported.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pmtiles))

        XCTAssertNotEqual(try run(["tiles", "inspect", "3/9/1", "--bundle", bundle]).status, 0)
        let absent = try run(["tiles", "inspect", "3/1/1", "--bundle", bundle])
        XCTAssertEqual(absent.status, 1)
        XCTAssertTrue(absent.stderr.contains("no tile"), absent.stderr)
        let noBundle = try run(["tiles", "inspect", "0/0/0"])
        XCTAssertNotEqual(noBundle.status, 0)
        XCTAssertTrue(noBundle.stderr.contains("OPENMAPKIT_BUNDLE") || noBundle.stdout.contains("OPENMAPKIT_BUNDLE"), noBundle.stderr)
        let missing = try run(["import", folder.appendingPathComponent("nothing.osm.pbf").path, "-o", bundle + "2"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("import failed"), missing.stderr)
    }
}
