import Foundation
import TestSupport
import XCTest

/// Runs the shared render conformance suite (`../shared/conformance/render`, see its README) with
/// ``RenderSuiteRunner``: a ratchet over ``knownFailures``.
final class RenderConformanceTests: XCTestCase {
    static let suite = TestData.shared("conformance/render")

    /// The suite's tolerance for text: glyph edges differ (FreeType outlines here, SDF glyphs in
    /// MapLibre) while positions and which labels are placed must agree.
    static let symbolTolerance = 0.005

    /// Cases that are expected to fail, with why.
    static let knownFailures: [String: String] = [:]

    func testRenderSuite() throws {
        try RenderSuiteRunner(suite: Self.suite, name: "render-conformance", dataFolders: ["data"],
                              defaultTolerance: { $0 == "symbol" ? Self.symbolTolerance : 0.00025 },
                              knownFailures: Self.knownFailures).run()
    }
}
