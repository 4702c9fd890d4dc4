import Foundation
import MapGeometry
import MapRender
import MapStyle
import TestSupport
import XCTest

/// Runs the shared render conformance suite (`../shared/conformance/render`, see its README):
/// every case's style is drawn for its camera and compared with MapLibre Native's image using
/// pixelmatch's rule (``ImageComparison``). One line per case is printed, and our images are
/// written to a temporary folder for looking at.
///
/// The test is a ratchet: the cases that fail must be exactly ``knownFailures``. A case that
/// starts passing, or one that starts failing, fails the test until the list is updated.
final class RenderConformanceTests: XCTestCase {
    static let suite = TestData.shared("conformance/render")

    /// Groups not drawn at all yet, with the reason.
    static let skippedGroups: [String: String] = [:]

    /// The suite's tolerance for text: glyph edges differ (FreeType outlines here, SDF glyphs in
    /// MapLibre) while positions and which labels are placed must agree.
    static let symbolTolerance = 0.005

    /// Cases that are expected to fail, with why.
    static let knownFailures: [String: String] = [:]

    func testRenderSuite() throws {
        // Missing data is a failure, not a skip: a suite that silently does not run proves nothing.
        guard FileManager.default.fileExists(atPath: Self.suite.path) else {
            return XCTFail("render suite not found at \(Self.suite.path): the shared test data belongs beside the checkout")
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-render-conformance")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        print("rendered images: \(output.path)")
        var failures: [String: String] = [:]
        var passed: [String: Int] = [:], total: [String: Int] = [:]
        for group in try Self.sortedDirectories(Self.suite) where group != "data" {
            for name in try Self.sortedDirectories(Self.suite.appendingPathComponent(group)) {
                let id = "\(group)/\(name)"
                if let reason = Self.skippedGroups[group] {
                    print("SKIP \(id): \(reason)")
                    continue
                }
                total[group, default: 0] += 1
                let folder = Self.suite.appendingPathComponent(group).appendingPathComponent(name)
                do {
                    let result = try runCase(folder, writingTo: output.appendingPathComponent("\(group)-\(name).png"))
                    let fraction = Double(result.differing) / Double(result.pixels)
                    let verdict = fraction <= result.allowed
                    let timing = String(format: "%.1f ms", result.milliseconds)
                    print(String(format: "%@ %@ mismatch %.5f (allowed %.5f, %d px) %@", verdict ? "PASS" : "FAIL", id,
                                 fraction, result.allowed, result.differing, timing))
                    if verdict { passed[group, default: 0] += 1 } else { failures[id] = String(format: "mismatch %.5f", fraction) }
                } catch {
                    print("FAIL \(id): \(error)")
                    failures[id] = "\(error)"
                }
            }
        }
        for group in total.keys.sorted() { print("group \(group): \(passed[group] ?? 0)/\(total[group]!) pass") }
        let unexpected = Set(failures.keys).subtracting(Self.knownFailures.keys).sorted()
        let fixed = Set(Self.knownFailures.keys).subtracting(failures.keys).sorted()
        XCTAssertEqual(unexpected, [], "cases that newly fail")
        XCTAssertEqual(fixed, [], "cases that now pass: remove them from knownFailures")
    }

    struct CaseResult { var differing: Int; var pixels: Int; var allowed: Double; var milliseconds: Double }

    private func runCase(_ folder: URL, writingTo imageURL: URL) throws -> CaseResult {
        let style = try Style(data: [UInt8](Data(contentsOf: folder.appendingPathComponent("style.json"))))
        let camera = try JSONValue.parse([UInt8](Data(contentsOf: folder.appendingPathComponent("case.json"))))
        let center = camera["center"]?.arrayValue?.compactMap(\.numberValue) ?? [0, 0]
        let loader = StyleResourceLoader.files(relativeTo: folder.path, style: style)
        let start = Date()
        let renderer = try StyleRenderer(style: style, loader: loader)
        let canvas = try renderer.render(center: CLLocationCoordinate2D(latitude: center[1], longitude: center[0]),
                                         zoom: camera["zoom"]?.numberValue ?? 0, bearing: camera["bearing"]?.numberValue ?? 0,
                                         width: camera["width"]?.numberValue ?? 512, height: camera["height"]?.numberValue ?? 512,
                                         pixelRatio: camera["pixelRatio"]?.numberValue ?? 1)
        let milliseconds = Date().timeIntervalSince(start) * 1000
        try Data(canvas.pngData()).write(to: imageURL)
        let expected = try RenderCanvas.readPNG(path: folder.appendingPathComponent("expected.png").path)
        guard expected.width == canvas.pixelWidth, expected.height == canvas.pixelHeight else {
            throw RenderError("size \(canvas.pixelWidth)×\(canvas.pixelHeight), expected \(expected.width)×\(expected.height)")
        }
        let comparison = ImageComparison(width: expected.width, height: expected.height, expected: expected.rgba, actual: canvas.rgbaPixels())
        return CaseResult(differing: comparison.differingPixels(), pixels: expected.width * expected.height,
                          allowed: camera["allowedDiffFraction"]?.numberValue ?? (folder.deletingLastPathComponent().lastPathComponent == "symbol"
                                                                                    ? Self.symbolTolerance : 0.00025),
                          milliseconds: milliseconds)
    }

    private static func sortedDirectories(_ url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted()
    }
}
