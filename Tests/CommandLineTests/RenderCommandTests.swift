import Foundation
import TestSupport
import XCTest

/// `openmapkit tiles render` and `openmapkit render`, run as processes.
final class RenderCommandTests: XCTestCase {
    private var binary: URL { Bundle.main.bundleURL.appendingPathComponent("openmapkit") }
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func run(_ arguments: [String]) throws -> ProcessResult { try runProcess(binary.path, arguments) }

    /// PNG width and height from the IHDR chunk.
    private func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    func testTilesRenderSizesAndErrors() throws {
        let bundle = folder.appendingPathComponent("monaco.omk").path
        let imported = try run(["import", TestData.shared("data/osm/monaco.osm.pbf").path, "-o", bundle])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let png = folder.appendingPathComponent("tile.png").path

        let small = try run(["tiles", "render", "15/17060/11948", "--bundle", bundle, "-o", png])
        XCTAssertEqual(small.status, 0, small.stderr)
        XCTAssertEqual(try pngSize(png).0, 256)
        XCTAssertEqual(small.stderr, "", "Monaco's harbour has tiles: no warnings")
        XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: png)).count, 10_000, "a map, not a blank tile")

        let large = try run(["tiles", "render", "14/8530/5974", "--bundle", bundle, "--size", "512", "--scale", "2",
                             "--style", "dark", "-o", png])
        XCTAssertEqual(large.status, 0, large.stderr)
        XCTAssertEqual(try pngSize(png).1, 1024)

        // Far from Monaco the bundle has no tiles: the tile is drawn (background) and the warning says why.
        let empty = try run(["tiles", "render", "10/100/100", "--bundle", bundle, "-o", png])
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertTrue(empty.stderr.contains("none of the"), empty.stderr)

        for (arguments, message) in [(["25/0/0"], "not a tile"), (["3/8/0"], "not a tile"), (["1/0"], "not a tile"),
                                     (["1/0/0", "--size", "300"], "--size"), (["1/0/0", "--scale", "0"], "--scale"),
                                     (["1/0/0", "--style", folder.appendingPathComponent("none.json").path], "none.json")] {
            let result = try run(["tiles", "render"] + arguments + ["--bundle", bundle, "-o", png])
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    /// `render` draws a conformance-suite style (tiles beside it) and reports per-render times.
    func testRenderTimesAStyleFile() throws {
        let style = TestData.shared("conformance/render/realworld/chicago-z13/style.json").path
        let png = folder.appendingPathComponent("chicago.png").path
        let result = try run(["render", style, "--center", "41.878,-87.635", "--zoom", "13", "--size", "256x128",
                              "--scale", "2", "--repeat", "3", "--json", "-o", png])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["renders"] as? Int, 3)
        XCTAssertEqual((report["totalMs"] as? [Double])?.count, 3)
        XCTAssertEqual(report["pixelWidth"] as? Int, 512)
        let warm = try XCTUnwrap(report["warmMedianMs"] as? Double)
        XCTAssertGreaterThan(warm, 0)
        XCTAssertEqual(try pngSize(png).1, 256)

        let bad = try run(["render", style, "--center", "41.878,-87.635", "--zoom", "99"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("zoom"), bad.stderr)
    }
}
