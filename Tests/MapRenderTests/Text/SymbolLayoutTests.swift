import Foundation
@testable import MapRender
import XCTest

/// Text layout for labels: line breaking, anchors, offsets, justification and complex scripts,
/// shaped with the installed fonts.
final class SymbolLayoutTests: XCTestCase {
    static let catalog = FontCatalog(entries: FontCatalog.installed.entries)
    var catalog: FontCatalog { Self.catalog }

    func label(_ text: String, size: Double = 16, maxWidth: Double = 10) throws -> ShapedLabel {
        try XCTUnwrap(ShapedLabel.shape(TextShapeKey(text: text, stack: ["Open Sans Regular"], size: size, maxWidth: maxWidth,
                                                     letterSpacing: 0), catalog: catalog))
    }

    // MARK: Line breaking

    func testLinesAreBalancedRatherThanFilledGreedily() {
        // Six 4-unit words with their spaces are 5 units each; at most 20 a line a greedy
        // breaker writes 4 + 2 words, MapLibre's balanced breaking 3 + 3.
        let text = "aaaa bbbb cccc dddd eeee ffff"
        let lines = LineBreaker.lines(text, maxWidth: 20) { Double($0.count) }
        XCTAssertEqual(lines.map { $0.trimmingCharacters(in: .whitespaces) }, ["aaaa bbbb cccc", "dddd eeee ffff"])
    }

    func testTextWithinTheWidthStaysOnOneLineAndNewlinesBreak() {
        XCTAssertEqual(LineBreaker.lines("short text", maxWidth: 100) { Double($0.count) }, ["short text"])
        XCTAssertEqual(LineBreaker.lines("one\ntwo", maxWidth: 100) { Double($0.count) }, ["one", "two"])
        XCTAssertEqual(LineBreaker.lines("no breaking at all here", maxWidth: 0) { Double($0.count) }, ["no breaking at all here"])
    }

    func testIdeographsBreakWithoutSpaces() {
        let text = "東京都渋谷区神宮前一丁目五番地"
        let lines = LineBreaker.lines(text, maxWidth: 6) { Double($0.count) }
        XCTAssertGreaterThanOrEqual(lines.count, 3)
        XCTAssertEqual(lines.joined(), text)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 6 }, "\(lines)")
    }

    func testShapedLabelBreaksAtMaxWidthInEms() throws {
        let long = try label("Boulevard des Moulins et Avenue de la Costa", size: 10, maxWidth: 8)
        XCTAssertGreaterThan(long.lines.count, 1)
        // Lines are close to even: none is more than twice as wide as another.
        let widths = long.lines.map(\.width)
        XCTAssertLessThan(widths.max()! / widths.min()!, 2, "\(widths)")
        XCTAssertEqual(try label("Boulevard des Moulins et Avenue de la Costa", size: 10, maxWidth: 0).lines.count, 1)
        // A huge max width keeps one line; NaN and absurd sizes give no label rather than a crash.
        XCTAssertEqual(try label("Monte Carlo", maxWidth: 1e12).lines.count, 1)
        XCTAssertNil(ShapedLabel.shape(TextShapeKey(text: "x", stack: [], size: .nan, maxWidth: 10, letterSpacing: 0), catalog: catalog))
        XCTAssertNil(ShapedLabel.shape(TextShapeKey(text: "", stack: [], size: 12, maxWidth: 10, letterSpacing: 0), catalog: catalog))
        // Very long texts are cut to their first thousand characters, and break greedily past a few
        // hundred pieces instead of searching every split.
        let words = try label(String(repeating: "word ", count: 2000), size: 10, maxWidth: 10)
        XCTAssertGreaterThan(words.lines.count, 30)
        XCTAssertLessThanOrEqual(words.glyphs.count, ShapedLabel.maximumCharacters)
        let ideographs = try label(String(repeating: "東京", count: 2000), size: 10, maxWidth: 10)
        XCTAssertGreaterThan(ideographs.lines.count, 50)
        XCTAssertLessThanOrEqual(ideographs.glyphs.count, ShapedLabel.maximumCharacters)
    }

    // MARK: Anchors, offsets, justification

    func testAnchorsPutTheMatchingCornerOfTheBoxOnThePoint() throws {
        let shaped = try label("Monaco")
        let width = shaped.maxLineWidth
        XCTAssertGreaterThan(width, 30)
        let lineBox = 1.2 * 16.0
        for anchor in TextAnchor.allCases {
            let block = TextBlock(shaped, anchor: anchor, justify: 0.5, lineHeight: 1.2, offset: (0, 0))
            XCTAssertEqual(block.left, -anchor.horizontalAlign * width, accuracy: 1e-9, "\(anchor)")
            XCTAssertEqual(block.right - block.left, width, accuracy: 1e-9)
            XCTAssertEqual(block.top, -anchor.verticalAlign * lineBox, accuracy: 1e-9, "\(anchor)")
            XCTAssertEqual(block.bottom - block.top, lineBox, accuracy: 1e-9)
            // The glyphs stay inside the box horizontally, and their baseline inside it vertically.
            XCTAssertGreaterThanOrEqual(block.glyphs.first!.x, block.left - 0.01)
            XCTAssertTrue(block.glyphs.allSatisfy { $0.y > block.top && $0.y < block.bottom })
        }
        let offset = TextBlock(shaped, anchor: .center, justify: 0.5, lineHeight: 1.2, offset: (16, -8))
        let centred = TextBlock(shaped, anchor: .center, justify: 0.5, lineHeight: 1.2, offset: (0, 0))
        XCTAssertEqual(offset.left - centred.left, 16, accuracy: 1e-9)
        XCTAssertEqual(offset.glyphs[0].y - centred.glyphs[0].y, -8, accuracy: 1e-9)
    }

    func testJustificationAlignsLinesWithinTheBlock() throws {
        let shaped = try label("A very much longer first line\nshort", maxWidth: 100)
        XCTAssertEqual(shaped.lines.count, 2)
        func lastLineStart(_ justify: Double) -> Double {
            let block = TextBlock(shaped, anchor: .center, justify: justify, lineHeight: 1.2, offset: (0, 0))
            return block.glyphs[shaped.lines[1].glyphs.lowerBound].x - block.left
        }
        let slack = shaped.maxLineWidth - shaped.lines[1].width
        XCTAssertGreaterThan(slack, 50)
        XCTAssertEqual(lastLineStart(0), 0, accuracy: 1)
        XCTAssertEqual(lastLineStart(0.5), slack / 2, accuracy: 1)
        XCTAssertEqual(lastLineStart(1), slack, accuracy: 1)
        // The second line's baseline sits one line height below the first.
        let block = TextBlock(shaped, anchor: .top, justify: 0.5, lineHeight: 1.5, offset: (0, 0))
        XCTAssertEqual(block.glyphs[shaped.lines[1].glyphs.lowerBound].y - block.glyphs[0].y, 24, accuracy: 1e-9)
    }

    func testRadialAndVariableOffsetsPointAwayFromTheAnchor() {
        XCTAssertEqual(TextAnchor.left.radialOffset(2).x, 2)
        XCTAssertEqual(TextAnchor.right.radialOffset(2).x, -2)
        XCTAssertGreaterThan(TextAnchor.top.radialOffset(2).y, 0)
        XCTAssertLessThan(TextAnchor.bottom.radialOffset(2).y, 0)
        XCTAssertEqual(TextAnchor.topLeft.radialOffset(2).x, 2 / 2.0.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(TextAnchor.bottomRight.variableOffset((1, 1)).x, -1)
        XCTAssertEqual(TextAnchor.bottomRight.variableOffset((1, 1)).y, -1)
        XCTAssertEqual(TextAnchor.top.variableOffset((-3, -2)).y, 2)
    }

    // MARK: Scripts

    func testArabicAndHebrewLinesRunRightToLeft() throws {
        for text in ["القاهرة", "תל אביב"] {
            let runs = try catalog.shapeLine(text, stack: ["Open Sans Regular"], size: 16)
            XCTAssertTrue(runs.allSatisfy(\.isRightToLeft), text)
            let clusters = runs.flatMap(\.glyphs).map(\.cluster)
            // Drawing order is visual: the first glyph drawn (leftmost) is the text's last letter.
            XCTAssertEqual(clusters, clusters.sorted(by: >), text)
            XCTAssertGreaterThan(runs.reduce(0) { $0 + $1.advance }, 20)
        }
        // A mixed line that starts in Arabic puts the Latin run on the left.
        let mixed = try catalog.shapeLine("شارع Main", stack: ["Open Sans Regular"], size: 16)
        XCTAssertEqual(mixed.map(\.isRightToLeft), [false, true])
    }

    func testIndicAndThaiTextIsShaped() throws {
        let devanagari = try catalog.shapeLine("नई दिल्ली", stack: ["Open Sans Regular"], size: 16)
        XCTAssertTrue(devanagari.contains { $0.font.familyName.contains("Devanagari") }, "\(devanagari.map(\.font.familyName))")
        // The conjunct ल्ल and the vowel signs are formed: fewer glyphs than scalars.
        XCTAssertLessThan(devanagari.flatMap(\.glyphs).count, "नई दिल्ली".unicodeScalars.count)
        let thai = try catalog.shapeLine("กรุงเทพ", stack: ["Open Sans Regular"], size: 16)
        XCTAssertEqual(thai.first?.font.familyName, "Noto Sans Thai")
        // Above and below marks take no advance of their own.
        XCTAssertTrue(thai.flatMap(\.glyphs).contains { $0.xAdvance == 0 })
        // The label shaper keeps these lines whole and at HarfBuzz's advances.
        let shaped = try label("नई दिल्ली")
        XCTAssertEqual(shaped.lines.count, 1)
        XCTAssertGreaterThan(shaped.maxLineWidth, 30)
    }

    func testOpenSansResolvesToTheInstalledFile() {
        XCTAssertEqual(catalog.resolve(["Open Sans Regular"]).first?.path.hasSuffix("OpenSans-Regular.ttf"), true)
    }
}
