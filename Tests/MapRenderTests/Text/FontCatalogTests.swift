import Foundation
@testable import MapRender
import XCTest

/// Font stacks resolved against Debian's fonts-noto-core and fonts-dejavu-core (installed by `make deps`).
final class FontCatalogTests: XCTestCase {
    static let catalog = FontCatalog()
    var catalog: FontCatalog { Self.catalog }

    func testStacksResolveToInstalledFonts() throws {
        XCTAssertNotNil(catalog.entry(family: "Noto Sans", style: "Regular"))
        // An installed name is used as it is.
        XCTAssertEqual(catalog.resolve(["Noto Sans Italic"]).first.map { "\($0.family) \($0.style)" }, "Noto Sans Italic")
        // Families we do not have map by kind, keeping weight and slant.
        XCTAssertEqual(catalog.resolve(["Metropolis Bold"]).first.map { "\($0.family) \($0.style)" }, "Noto Sans Bold")
        // Open Sans is installed (the render suite's labels need it), so it is used as it is.
        XCTAssertEqual(catalog.resolve(["Open Sans Bold"]).first.map { "\($0.family) \($0.style)" }, "Open Sans Bold")
        XCTAssertEqual(catalog.resolve(["Roboto Regular", "Arial Unicode MS Regular"]).first?.style, "Regular")
        XCTAssertEqual(catalog.resolve(["Noto Serif Bold"]).first?.family, "Noto Serif")
        // The fallbacks follow: other scripts, then DejaVu Sans.
        let families = catalog.resolve(["Open Sans Regular"]).map(\.family)
        XCTAssertTrue(families.contains("Noto Sans Arabic") && families.contains("Noto Sans Thai"), "\(families)")
        XCTAssertEqual(families.last, "DejaVu Sans")
    }

    func testMixedScriptsShapeInRunsByFont() throws {
        let runs = try catalog.shapeLine("Monaco موناكو", stack: ["Roboto Regular"], size: 16)
        XCTAssertEqual(runs.map(\.font.familyName), ["Noto Sans", "Noto Sans Arabic"])
        XCTAssertEqual(runs.map(\.isRightToLeft), [false, true])
        // A line that starts right to left draws its runs right to left.
        let rtl = try catalog.shapeLine("شارع Main", stack: ["Roboto Regular"], size: 16)
        XCTAssertEqual(rtl.map(\.font.familyName), ["Noto Sans", "Noto Sans Arabic"])
    }

    func testUncoveredCharactersStillDraw() throws {
        // No CJK font is installed by default: the characters fall back to a missing-glyph box
        // rather than vanishing.
        let runs = try catalog.shapeLine("東京", stack: ["Noto Sans Regular"], size: 16)
        XCTAssertEqual(runs.flatMap(\.glyphs).count, 2)
        XCTAssertGreaterThan(runs.reduce(0) { $0 + $1.advance }, 0)
    }

    func testStyleWordsSplitFromTheFamily() {
        let a = FontCatalog.split("Open Sans Bold Italic"), b = FontCatalog.split("Metropolis")
        XCTAssertEqual([a.family, a.style, b.family, b.style], ["Open Sans", "Bold Italic", "Metropolis", "Regular"])
    }
}
