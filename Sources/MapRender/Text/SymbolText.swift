import Foundation

/// The inputs that decide how a label's text breaks into lines and is shaped, in MapLibre's units:
/// `size` in points, the rest in ems of that size.
struct TextShapeKey: Hashable {
    var text: String
    var stack: [String]
    var size: Double
    /// `text-max-width`; 0 keeps the text on one line (line placement never breaks).
    var maxWidth: Double
    var letterSpacing: Double
}

/// A label's text shaped into lines with HarfBuzz (through ``FontCatalog/shapeLine(_:stack:size:kerning:)``),
/// each line's glyphs laid out left to right from x = 0 on its baseline. Positioning for an
/// anchor and a justification happens later (``TextBlock``), so one shaping serves every anchor
/// a variable-anchor label tries.
final class ShapedLabel {
    struct Glyph {
        /// Index into ``faces``.
        var face: Int
        var id: UInt32
        /// The pen position of the glyph's origin from the start of its line, in points.
        var x: Double
        /// HarfBuzz's vertical offset (marks), points up.
        var dy: Double
        var advance: Double
    }

    struct Line {
        var glyphs: Range<Int>
        var width: Double
    }

    let faces: [FontFace]
    let glyphs: [Glyph]
    let lines: [Line]
    let size: Double
    let maxLineWidth: Double

    init(faces: [FontFace], glyphs: [Glyph], lines: [Line], size: Double) {
        self.faces = faces
        self.glyphs = glyphs
        self.lines = lines
        self.size = size
        maxLineWidth = lines.map(\.width).max() ?? 0
    }

    var isEmpty: Bool { glyphs.isEmpty }

    /// Characters of a label's text that are laid out; the rest is dropped.
    static let maximumCharacters = 1000

    /// Shapes `key.text`. Sizes are clamped to what a map can show (0.1…1000 points, a NaN size
    /// gives no text) and absurd `text-max-width`s behave as "no breaking".
    static func shape(_ key: TextShapeKey, catalog: FontCatalog) -> ShapedLabel? {
        let size = key.size
        guard size.isFinite, size > 0, !key.text.isEmpty else { return nil }
        // No map label is this long; a hostile or broken name stops here rather than costing
        // seconds of shaping.
        if key.text.count > maximumCharacters {
            var shorter = key
            shorter.text = String(key.text.prefix(maximumCharacters))
            return shape(shorter, catalog: catalog)
        }
        let spacing = key.letterSpacing.isFinite ? key.letterSpacing * size : 0
        var faces: [FontFace] = []
        var glyphs: [Glyph] = []
        var lines: [Line] = []
        var widthCache: [Substring: Double] = [:]
        var runCache: [String: [ShapedRun]] = [:]
        func runs(_ text: some StringProtocol) -> [ShapedRun] {
            let string = String(text)
            if let cached = runCache[string] { return cached }
            let shaped = (try? catalog.shapeLine(string, stack: key.stack, size: size, kerning: false)) ?? []
            runCache[string] = shaped
            return shaped
        }
        func width(_ piece: Substring) -> Double {
            if let cached = widthCache[piece] { return cached }
            let runs = runs(piece)
            let w = runs.reduce(0) { $0 + $1.advance } + spacing * Double(runs.reduce(0) { $0 + $1.glyphs.count })
            widthCache[piece] = w
            return w
        }
        var maxWidth = key.maxWidth.isFinite && key.maxWidth > 0 ? key.maxWidth * size : 0
        // Most labels fit on one line: measured whole (the shaping is kept for drawing), they
        // skip the word-by-word measuring of the line breaker.
        let text = key.text.trimmingCharacters(in: .whitespaces)
        if maxWidth > 0, !text.contains("\n"), width(text[...]) <= maxWidth { maxWidth = 0 }
        for line in LineBreaker.lines(key.text, maxWidth: maxWidth, width: width) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let start = glyphs.count
            var pen = 0.0
            // MapLibre's glyph atlases store advances as whole pixels of a 24-pixel em, rounded
            // down; doing the same for simple alphabetic text keeps labels as wide as its. Joined
            // scripts (Arabic, Devanagari …) keep HarfBuzz's exact advances, or their joins would gap.
            let quantized = trimmed.unicodeScalars.allSatisfy { $0.value < 0x0530 || (0x2000...0x206F).contains($0.value) }
            let em = size / 24
            for run in runs(trimmed) {
                let faceIndex: Int
                if let index = faces.firstIndex(where: { $0 === run.font }) { faceIndex = index } else {
                    faces.append(run.font)
                    faceIndex = faces.count - 1
                }
                // Letter spacing would break the joins of connected scripts; MapLibre skips it there too.
                let extra = run.isRightToLeft ? 0 : spacing
                for glyph in run.glyphs {
                    let advance = quantized ? (glyph.xAdvance / em + 1e-6).rounded(.down) * em : glyph.xAdvance
                    glyphs.append(Glyph(face: faceIndex, id: glyph.id, x: pen + glyph.xOffset, dy: glyph.yOffset, advance: advance + extra))
                    pen += advance + extra
                }
            }
            let lineWidth = glyphs.count > start ? max(pen - (glyphs.last.map { $0.advance > 0 ? spacing : 0 } ?? 0), 0) : 0
            lines.append(Line(glyphs: start..<glyphs.count, width: lineWidth))
        }
        guard !glyphs.isEmpty else { return nil }
        return ShapedLabel(faces: faces, glyphs: glyphs, lines: lines, size: size)
    }
}

/// MapLibre's line breaking: among the places a line may break (after spaces and a few
/// punctuation marks, and between ideographs, so Chinese and Japanese without spaces break too),
/// choose the set whose lines are closest to an even width — the text's width divided by the
/// fewest lines that fit `maxWidth` — rather than filling each line greedily.
enum LineBreaker {
    /// The lines of `text` (a newline always breaks). `maxWidth` 0 keeps each paragraph on one line.
    static func lines(_ text: String, maxWidth: Double, width: (Substring) -> Double) -> [Substring] {
        var result: [Substring] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard maxWidth > 0 else { result.append(paragraph); continue }
            result.append(contentsOf: breakParagraph(paragraph, maxWidth: maxWidth, width: width))
        }
        return result.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Characters after which MapLibre allows a break.
    private static let breakable: Set<Unicode.Scalar> = [" ", "\t", "&", "(", ")", "+", "-", "/", "\u{AD}", "\u{B7}", "\u{200B}",
                                                          "\u{2010}", "\u{2013}", "\u{2027}"]

    /// Scripts written without spaces, where any two characters may be split across lines.
    static func isIdeographic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2E80...0x2FDF, 0x3000...0x303F, 0x3040...0x30FF, 0x3100...0x312F, 0x3190...0x31FF, 0x3400...0x4DBF,
             0x4E00...0x9FFF, 0xA000...0xA4CF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF, 0x20000...0x2FFFF:
            return true
        default:
            return false
        }
    }

    private static func breakParagraph(_ paragraph: Substring, maxWidth: Double, width: (Substring) -> Double) -> [Substring] {
        // Pieces end at each break opportunity; a line is a run of whole pieces.
        var pieces: [Substring] = []
        var start = paragraph.startIndex
        var index = paragraph.startIndex
        while index < paragraph.endIndex {
            let next = paragraph.index(after: index)
            let scalar = paragraph[index].unicodeScalars.first!
            let nextScalar = next < paragraph.endIndex ? paragraph[next].unicodeScalars.first : nil
            let canBreak = breakable.contains(scalar) || isIdeographic(scalar) || (nextScalar.map(isIdeographic) ?? false)
            if canBreak, next < paragraph.endIndex, scalar != "(" {
                pieces.append(paragraph[start..<next])
                start = next
            }
            index = next
        }
        if start < paragraph.endIndex { pieces.append(paragraph[start...]) }
        // Very long texts stay greedy-free but bounded: beyond this many pieces the quadratic
        // search is not worth it and the text is broken every `maxWidth` instead.
        let widths = pieces.map(width)
        let total = widths.reduce(0, +)
        guard pieces.count > 1, total > maxWidth else { return [paragraph] }
        if pieces.count > 400 { return greedy(pieces, widths, maxWidth) }
        let target = total / max(1, (total / maxWidth).rounded(.up))
        // badness[i]: the best cost of breaking the first i pieces into lines.
        let n = pieces.count
        var badness = [Double](repeating: .infinity, count: n + 1)
        var previous = [Int](repeating: 0, count: n + 1)
        var prefix = [0.0]
        for w in widths { prefix.append(prefix.last! + w) }
        badness[0] = 0
        for end in 1...n {
            let isLast = end == n
            for begin in 0..<end where badness[begin].isFinite {
                let lineWidth = prefix[end] - prefix[begin]
                var cost = (lineWidth - target) * (lineWidth - target)
                if isLast { cost = lineWidth < target ? cost / 2 : cost * 2 }
                // A line opening with "(" or ending before ")" is slightly discouraged.
                if pieces[begin].first == ")" { cost += 2500 }
                let total = badness[begin] + cost
                if total < badness[end] {
                    badness[end] = total
                    previous[end] = begin
                }
            }
        }
        var breaks: [Int] = []
        var at = n
        while at > 0 {
            breaks.append(at)
            at = previous[at]
        }
        var lines: [Substring] = []
        var begin = 0
        for end in breaks.reversed() {
            lines.append(paragraph[pieces[begin].startIndex..<pieces[end - 1].endIndex])
            begin = end
        }
        return lines
    }

    private static func greedy(_ pieces: [Substring], _ widths: [Double], _ maxWidth: Double) -> [Substring] {
        var lines: [Substring] = []
        var begin = 0, width = 0.0
        for (i, w) in widths.enumerated() {
            if width + w > maxWidth, i > begin {
                lines.append(pieces[begin].base[pieces[begin].startIndex..<pieces[i - 1].endIndex])
                begin = i
                width = 0
            }
            width += w
        }
        lines.append(pieces[begin].base[pieces[begin].startIndex..<pieces[pieces.count - 1].endIndex])
        return lines
    }
}

/// MapLibre's nine text anchors: which point of the text block sits on the label's anchor.
enum TextAnchor: String, CaseIterable {
    case center, left, right, top, bottom
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// 0 (the anchor at the block's left), 0.5 or 1.
    var horizontalAlign: Double {
        switch self {
        case .left, .topLeft, .bottomLeft: 0
        case .right, .topRight, .bottomRight: 1
        default: 0.5
        }
    }

    var verticalAlign: Double {
        switch self {
        case .top, .topLeft, .topRight: 0
        case .bottom, .bottomLeft, .bottomRight: 1
        default: 0.5
        }
    }

    /// `text-justify: auto` follows the anchor's side.
    var autoJustify: Double { horizontalAlign }

    /// The offset `text-radial-offset` (ems) gives for this anchor: away from the anchor point, with
    /// MapLibre's baseline correction for top and bottom.
    func radialOffset(_ radius: Double) -> (x: Double, y: Double) {
        let baseline = 7.0 / 24
        let h = radius / 2.0.squareRoot()
        switch self {
        case .center: return (0, 0)
        case .left: return (radius, 0)
        case .right: return (-radius, 0)
        case .top: return (0, radius - baseline)
        case .bottom: return (0, -radius + baseline)
        case .topLeft: return (h, h - baseline)
        case .topRight: return (-h, h - baseline)
        case .bottomLeft: return (h, -h + baseline)
        case .bottomRight: return (-h, -h + baseline)
        }
    }

    /// `text-offset` with variable anchors: its absolute values, pointing away from the anchor.
    func variableOffset(_ offset: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let x = abs(offset.x), y = abs(offset.y)
        let dx: Double = horizontalAlign == 0 ? x : horizontalAlign == 1 ? -x : 0
        let dy: Double = verticalAlign == 0 ? y : verticalAlign == 1 ? -y : 0
        return (dx, dy)
    }
}

/// A shaped label positioned around its anchor: glyph origins and the text's box, in points
/// relative to the anchor, before any rotation (y down).
struct TextBlock {
    struct Glyph {
        var face: Int
        var id: UInt32
        var x: Double
        var y: Double
        var advance: Double
    }

    var glyphs: [Glyph]
    var left: Double, top: Double, right: Double, bottom: Double

    /// Where MapLibre puts a line's baseline within its line box: half the line height below the
    /// box's top, then 0.375 em lower (its glyphs' vertical origin, measured on its images).
    static let baselineBelowLineCenter = 0.375

    /// Positions `label` with `anchor`, `justify` (0 left, 0.5 centre, 1 right), `lineHeight` in
    /// ems and `offset` in points.
    init(_ label: ShapedLabel, anchor: TextAnchor, justify: Double, lineHeight: Double, offset: (x: Double, y: Double)) {
        let size = label.size
        let lineBox = (lineHeight.isFinite ? lineHeight : 1.2) * size
        let width = label.maxLineWidth
        let height = Double(label.lines.count) * lineBox
        left = -anchor.horizontalAlign * width + offset.x
        right = left + width
        top = -anchor.verticalAlign * height + offset.y
        bottom = top + height
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(label.glyphs.count)
        for (i, line) in label.lines.enumerated() {
            let x0 = left + (width - line.width) * justify
            let baseline = top + (Double(i) + 0.5) * lineBox + Self.baselineBelowLineCenter * size
            for glyph in label.glyphs[line.glyphs] {
                glyphs.append(Glyph(face: glyph.face, id: glyph.id, x: x0 + glyph.x, y: baseline - glyph.dy, advance: glyph.advance))
            }
        }
        self.glyphs = glyphs
    }
}
