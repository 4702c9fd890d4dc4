import Foundation
import TestSupport
import XCTest

/// `openmapkit lookaround` as a user runs it: a street's picture, a Maps URL, no scene at sea, and
/// one-line reasons for bad options.
final class LookAroundCommandTests: XCTestCase {
    var binary: URL { Bundle.main.bundleURL.appendingPathComponent("openmapkit") }

    func testPictureMapsURLSeaAndMistakes() throws {
        let bundle = try SampleBundle.monaco().path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookaround-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("street.png").path

        let drawn = try runProcess(binary.path, ["lookaround", "43.73895,7.42630", "--bundle", bundle, "--heading", "90", "--size", "320x240",
                                                 "--time", "2026-06-21T11:00:00Z", "-o", png])
        XCTAssertEqual(drawn.status, 0, drawn.stderr)
        XCTAssertTrue(drawn.stdout.contains("320×240"), drawn.stdout)
        XCTAssertTrue(drawn.stdout.contains("looking 90°"), drawn.stdout)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
        XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47])

        // A Maps URL's Look Around action names the place.
        let url = try runProcess(binary.path, ["lookaround", "https://maps.apple.com/look-around?coordinate=43.73895,7.42630", "--bundle", bundle,
                                               "--size", "160x120", "-o", png])
        XCTAssertEqual(url.status, 0, url.stderr)

        // At sea there is nowhere to stand: exit 1 with a one-line reason.
        let sea = try runProcess(binary.path, ["lookaround", "43.7300,7.4450", "--bundle", bundle, "-o", png])
        XCTAssertEqual(sea.status, 1)
        XCTAssertTrue(sea.stderr.contains("no Look Around"), sea.stderr)
        XCTAssertEqual(sea.stderr.split(separator: "\n").count, 1, sea.stderr)

        for (arguments, word) in [(["--fov", "500"], "field of view"), (["--heading", "361"], "heading"), (["--size", "0x10"], "size"),
                                  (["--time", "noon"], "--time")] {
            let bad = try runProcess(binary.path, ["lookaround", "43.73895,7.42630", "--bundle", bundle, "-o", png] + arguments)
            XCTAssertNotEqual(bad.status, 0, "\(arguments)")
            XCTAssertTrue(bad.stderr.contains(word), "\(arguments): \(bad.stderr)")
        }
        let notACoordinate = try runProcess(binary.path, ["lookaround", "north", "--bundle", bundle, "-o", png])
        XCTAssertNotEqual(notACoordinate.status, 0)
        XCTAssertTrue(notACoordinate.stderr.contains("LAT,LON"), notACoordinate.stderr)
    }
}
