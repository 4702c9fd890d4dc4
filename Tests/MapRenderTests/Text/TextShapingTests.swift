import Foundation
import MapRender
import XCTest

/// Shaping with Debian's Noto fonts (fonts-noto-core, installed by `make deps`).
final class TextShapingTests: XCTestCase {
    let fonts = "/usr/share/fonts/truetype/noto/"

    func testLatinShapesLeftToRightWithKerning() throws {
        let font = try FontFace(path: fonts + "NotoSans-Regular.ttf")
        XCTAssertEqual(font.familyName, "Noto Sans")
        let run = font.shape("Monaco", size: 16)
        XCTAssertFalse(run.isRightToLeft)
        XCTAssertEqual(run.glyphs.count, 6)
        XCTAssertEqual(run.glyphs.map(\.cluster), [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(run.advance, 16 * 3.3, accuracy: 16 * 0.6, "about 0.55 em a letter")
        // Advances scale with the size.
        XCTAssertEqual(font.shape("Monaco", size: 32).advance, 2 * run.advance, accuracy: 0.01)
    }

    func testArabicIsRightToLeftAndJoined() throws {
        let font = try FontFace(path: fonts + "NotoSansArabic-Regular.ttf")
        let word = "مرحبا"  // five letters that join
        let run = font.shape(word, size: 16)
        XCTAssertTrue(run.isRightToLeft)
        // Visual order: the first letter (cluster 0) is drawn last, at the right.
        XCTAssertEqual(run.glyphs.last?.cluster, 0)
        // Joining picks contextual forms: the isolated letters shaped one by one differ.
        let isolated = word.unicodeScalars.map { font.shape(String($0), size: 16).glyphs[0].id }
        XCTAssertNotEqual(Set(run.glyphs.map(\.id)), Set(isolated))
    }

    func testDevanagariFormsConjuncts() throws {
        let font = try FontFace(path: fonts + "NotoSansDevanagari-Regular.ttf")
        let word = "नमस्ते"  // न म स ् त े: the virama joins स and त
        let run = font.shape(word, size: 16)
        XCTAssertFalse(run.isRightToLeft)
        XCTAssertLessThan(run.glyphs.count, word.unicodeScalars.count)
    }

    func testShapedTextDrawsOntoTheCanvas() throws {
        let font = try FontFace(path: fonts + "NotoSans-Regular.ttf")
        let canvas = try RenderCanvas(width: 120, height: 40, scale: 2)
        canvas.fill(.white)
        let run = font.shape("Monaco", size: 24)
        canvas.draw(run, x: 10, y: 30, color: .black)
        var dark = 0
        for y in stride(from: 20, to: 60, by: 2) {
            for x in stride(from: 20, to: Int((10 + run.advance) * 2), by: 2) where canvas.pixel(x: x, y: y).red < 128 { dark += 1 }
        }
        XCTAssertGreaterThan(dark, 50, "ink where the text runs")
        XCTAssertEqual(canvas.pixel(x: 230, y: 10).red, 255, "nothing past it")
    }

    func testAMissingFontIsAnError() {
        XCTAssertThrowsError(try FontFace(path: "/nonexistent/font.ttf")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/font.ttf"))
        }
    }
}
