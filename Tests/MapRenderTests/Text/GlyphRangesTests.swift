import Foundation
import MapFormats
@testable import MapRender
import TestSupport
import XCTest

/// MapLibre glyph ranges made from the installed fonts: the protobuf shape, the metrics and the
/// distance fields.
final class GlyphRangesTests: XCTestCase {
    /// Decodes a range strictly and checks it holds exactly one font stack.
    private func decode(_ bytes: [UInt8]) throws -> GlyphPBF.Stack {
        let stack = try GlyphPBF.decode(bytes)
        XCTAssertEqual(stack.stackCount, 1)
        return stack
    }

    func testLatinRangeHasMapLibreMetricsAndDistanceFields() throws {
        let generator = GlyphRangeGenerator()
        let decoded = try decode(try generator.range(fontStack: "Noto Sans Regular", start: 0))
        XCTAssertEqual(decoded.name, "Noto Sans Regular")
        XCTAssertEqual(decoded.range, "0-255")
        XCTAssertNil(decoded.glyphs[0x0A], "control characters have no glyphs")
        for (id, glyph) in decoded.glyphs {
            XCTAssertEqual(glyph.bitmap.count, (glyph.width + 6) * (glyph.height + 6), "glyph \(id)")
        }

        let a = try XCTUnwrap(decoded.glyphs[65])
        // The advance HarfBuzz measures for "A" in the same font at the 24-pixel em.
        let entry = try XCTUnwrap(FontCatalog.installed.entry(family: "Noto Sans", style: "Regular"))
        let shaped = try FontFace(path: entry.path).shape("A", size: 24)
        XCTAssertEqual(Double(a.advance), shaped.advance, accuracy: 0.51)
        // A capital is about 0.7 em tall and sits on the baseline, below the ascender.
        XCTAssertTrue((14...19).contains(a.height), "\(a.height)")
        XCTAssertTrue((12...18).contains(a.width), "\(a.width)")
        XCTAssertTrue((-12...0).contains(a.top), "top is measured from the ascender: \(a.top)")

        let w = a.width + 6, h = a.height + 6
        func value(_ x: Int, _ y: Int) -> UInt8 { a.bitmap[y * w + x] }
        // Far outside (the corners of the border, away from the apex and the feet) is 0.
        XCTAssertEqual(value(0, 0), 0)
        XCTAssertEqual(value(w - 1, 0), 0)
        // Inside a stem: the left foot near the bottom, where the glyph is solid.
        let row = 3 + a.height - 2
        let darkest = (3..<(w / 2)).map { value($0, row) }
        let inside = try XCTUnwrap(darkest.max())
        XCTAssertGreaterThan(inside, 192)
        // From the left border inwards, the field rises to the stroke without dipping.
        let rising = (0..<(w / 2)).map { value($0, row) }
        let peak = try XCTUnwrap(rising.firstIndex(of: inside))
        for index in 0..<peak { XCTAssertLessThanOrEqual(rising[index], rising[index + 1], "row \(row) at \(index): \(rising)") }
        // And the outline crosses 192 somewhere on the way.
        XCTAssertTrue(rising[0] < 192 && inside > 192)

        // A space moves the pen and draws nothing.
        let space = try XCTUnwrap(decoded.glyphs[32])
        XCTAssertGreaterThan(space.advance, 3)
        XCTAssertEqual(space.width, 0)
        XCTAssertTrue(space.bitmap.allSatisfy { $0 == 0 })
    }

    func testCodePointsMissingFromTheNamedFontComeFromFallbacks() throws {
        let generator = GlyphRangeGenerator()
        // Arabic is not in Noto Sans; the catalogue's fallbacks (Noto Sans Arabic) supply it.
        let arabic = try decode(try generator.range(fontStack: "Noto Sans Regular", start: 0x600))
        XCTAssertNotNil(arabic.glyphs[0x645]) // م
        // An unknown font falls back to Noto Sans as the renderer does.
        let unknown = try decode(try generator.range(fontStack: "Metropolis Regular", start: 0))
        let known = try decode(try generator.range(fontStack: "Noto Sans Regular", start: 0))
        XCTAssertEqual(unknown.glyphs[65]?.bitmap, known.glyphs[65]?.bitmap)
        // Bold is bolder: its "l" stem is wider.
        let bold = try decode(try generator.range(fontStack: "Noto Sans Bold", start: 0))
        XCTAssertGreaterThan(try XCTUnwrap(bold.glyphs[108]).width, try XCTUnwrap(known.glyphs[108]).width)
    }

    func testInvalidRangesAndStacksAreTypedErrors() {
        let generator = GlyphRangeGenerator()
        for (start, end) in [(1, 256), (0, 254), (256, 256), (65536, 65791), (-256, -1)] {
            XCTAssertThrowsError(try GlyphRangeGenerator.validatedStart(start: start, end: end)) { error in
                XCTAssertEqual(error as? GlyphRangeError, .invalidRange(start: start, end: end))
            }
        }
        XCTAssertThrowsError(try generator.range(fontStack: "Noto Sans Regular", start: 100))
        XCTAssertThrowsError(try generator.range(fontStack: " , ,", start: 0))
        XCTAssertThrowsError(try generator.range(fontStack: String(repeating: "x", count: 10_000), start: 0))
        XCTAssertThrowsError(try generator.range(fontStack: "Noto\u{0}Sans", start: 0))
        // The top of the Basic Multilingual Plane is a valid range (mostly private use and specials).
        XCTAssertNoThrow(try generator.range(fontStack: "Noto Sans Regular", start: 0xFF00))
    }

    func testDistanceFieldOfASquareIsSymmetricAndMonotonic() {
        // A 10 × 10 solid square: values fall off with distance from its edge on every side alike.
        let field = GlyphRangeGenerator.signedDistanceField(coverage: [Double](repeating: 1, count: 100), width: 10, height: 10)
        let w = 16
        XCTAssertEqual(field.count, 16 * 16)
        XCTAssertEqual(field[8 * w + 0], field[8 * w + 15])
        XCTAssertEqual(field[0 * w + 8], field[15 * w + 8])
        for x in 0..<8 { XCTAssertLessThanOrEqual(field[8 * w + x], field[8 * w + x + 1]) }
        // The centre is 5 px inside: 255 − 255·(−5/8 + 0.25) clamps to 255.
        XCTAssertEqual(field[8 * w + 8], 255)
        // One pixel outside the edge (the border's innermost column) is below the outline value.
        XCTAssertLessThan(field[8 * w + 2], 192)
        XCTAssertGreaterThan(field[8 * w + 3], 192)
    }
}
