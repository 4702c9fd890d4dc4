import Foundation
import XCTest

/// Runs MapLibre's own render tests, as carried in `MapLibreRenderSuite` (see its README: which
/// groups and cases were taken, and the reference images drawn by MapLibre Native here), with
/// ``RenderSuiteRunner``: a ratchet over ``knownFailures``.
final class MapLibreRenderSuiteTests: XCTestCase {
    static let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("MapLibreRenderSuite")

    func testMapLibreRenderSuite() throws {
        // Every case.json names its tolerance (the script writes MapLibre's `allowed`, or the
        // defaults), so the fallback is never used; it is MapLibre's default.
        try RenderSuiteRunner(suite: Self.suite, name: "maplibre-render-suite", dataFolders: ["assets"],
                              defaultTolerance: { _ in 0.00025 }, knownFailures: Self.knownFailures).run()
    }
}
