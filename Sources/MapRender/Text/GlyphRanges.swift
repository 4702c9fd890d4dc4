import CHarfBuzz
import Foundation
import MapFormats

/// Why a glyph range could not be made.
public enum GlyphRangeError: Error, CustomStringConvertible, Sendable, Equatable {
    /// MapLibre asks for ranges of 256 code points starting at a multiple of 256, up to U+FFFF.
    case invalidRange(start: Int, end: Int)
    /// The font stack names no font, or a name is empty or absurdly long.
    case invalidFontStack(String)
    /// FreeType could not be started.
    case fontLibrary(String)

    public var description: String {
        switch self {
        case let .invalidRange(start, end):
            "\(start)-\(end) is not a glyph range: the start must be a multiple of 256 and the end start + 255, at most 65535"
        case .invalidFontStack(let reason): "invalid font stack: \(reason)"
        case .fontLibrary(let reason): reason
        }
    }
}

/// Makes MapLibre's glyph ranges (`{fontstack}/{start}-{end}.pbf`) from the installed fonts:
/// signed distance fields of each character, so a MapLibre GL client draws our labels with the
/// fonts the server renders with.
///
/// The conventions are MapLibre's (those of its fontnik tool, which clients assume): glyphs are
/// rasterised at a 24-pixel em, each bitmap carries a 3-pixel border on every side (so it is
/// `(width + 6) × (height + 6)` bytes), the field spans 8 pixels, and the outline sits at 192
/// (a quarter of the field outside it), inside brighter, outside darker down to 0. `top` is the
/// bitmap's top measured from the line's ascender, `left` and `advance` are in pixels.
///
/// The message is `glyphs { stacks { name, range, glyphs { id, bitmap, width, height, left, top,
/// advance } } }`. Each code point is taken from the first font of the stack that has it, the
/// stack resolved by ``FontCatalog/resolve(_:)`` (so unknown names fall back to Noto Sans and
/// scripts missing from the named fonts come from the other installed Noto families).
///
/// Not thread-safe (FreeType faces are shared between calls and kept open): use one per thread,
/// or guard it with a lock.
public final class GlyphRangeGenerator {
    /// The em size glyphs are rasterised at (MapLibre scales from it).
    public static let emSize = 24
    /// Border of each bitmap, in pixels, on every side.
    public static let border = 3
    /// How far, in pixels, the distance field reaches.
    public static let radius = 8.0
    /// Where the outline falls in the field, as a fraction of ``radius`` below 255.
    public static let cutoff = 0.25
    /// Font stacks longer than this are refused rather than resolved.
    public static let maximumStackLength = 512

    private let catalog: FontCatalog
    private var library: FT_Library?
    /// Faces by path, opened on first need and kept: a range usually needs one or two, but a
    /// code point no font has makes every fallback open once.
    private var faces: [String: FT_Face?] = [:]

    public init(catalog: FontCatalog = .installed) {
        self.catalog = catalog
    }

    deinit {
        for case let face? in faces.values { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// Checks a `{start}-{end}` pair and returns the start.
    public static func validatedStart(start: Int, end: Int) throws(GlyphRangeError) -> Int {
        guard start >= 0, start % 256 == 0, end == start + 255, end <= 0xFFFF else { throw .invalidRange(start: start, end: end) }
        return start
    }

    /// The encoded glyph range `start…start+255` of the comma-separated `fontStack`
    /// ("Noto Sans Regular,Arial Unicode MS Regular").
    public func range(fontStack: String, start: Int) throws(GlyphRangeError) -> [UInt8] {
        _ = try Self.validatedStart(start: start, end: start + 255)
        guard fontStack.utf8.count <= Self.maximumStackLength else { throw .invalidFontStack("longer than \(Self.maximumStackLength) bytes") }
        let names = fontStack.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw .invalidFontStack("no font named") }
        guard names.allSatisfy({ !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) else {
            throw .invalidFontStack("a name contains control characters")
        }
        let entries = catalog.resolve(names)
        var glyphs: [(code: Int, glyph: Glyph)] = []
        for code in start...(start + 255) {
            guard let scalar = Unicode.Scalar(code), Self.wantsGlyph(scalar) else { continue }
            if let glyph = try glyph(for: scalar, entries: entries) { glyphs.append((code, glyph)) }
        }
        var writer = ProtobufWriter()
        writer.writeMessageField(1) { stack in
            stack.writeStringField(1, fontStack)
            stack.writeStringField(2, "\(start)-\(start + 255)")
            for (code, glyph) in glyphs {
                stack.writeMessageField(3) { message in
                    message.writeVarintField(1, UInt64(code))
                    message.writeBytesField(2, glyph.bitmap)
                    message.writeVarintField(3, UInt64(glyph.width))
                    message.writeVarintField(4, UInt64(glyph.height))
                    message.writeSInt64Field(5, Int64(glyph.left))
                    message.writeSInt64Field(6, Int64(glyph.top))
                    message.writeVarintField(7, UInt64(glyph.advance))
                }
            }
        }
        return writer.bytes
    }

    /// One glyph of a range: its signed distance field and metrics in pixels at ``emSize``.
    public struct Glyph: Sendable, Equatable {
        /// `(width + 2·border) × (height + 2·border)` bytes, rows from the top.
        public var bitmap: [UInt8]
        public var width: Int
        public var height: Int
        public var left: Int
        public var top: Int
        public var advance: Int
    }

    /// Control characters, surrogates and unassigned code points never have glyphs worth sending;
    /// skipping them also saves opening every fallback font to learn that.
    private static func wantsGlyph(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .surrogate, .unassigned: false
        default: true
        }
    }

    private func glyph(for scalar: Unicode.Scalar, entries: [FontCatalog.Entry]) throws(GlyphRangeError) -> Glyph? {
        for entry in entries {
            guard let face = try face(at: entry.path) else { continue }
            let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
            guard index != 0 else { continue }
            return Self.render(face: face, glyphIndex: index)
        }
        return nil
    }

    private func face(at path: String) throws(GlyphRangeError) -> FT_Face? {
        if let known = faces[path] { return known }
        if library == nil {
            var made: FT_Library?
            guard FT_Init_FreeType(&made) == 0, let made else { throw .fontLibrary("cannot start FreeType") }
            library = made
        }
        var face: FT_Face?
        if FT_New_Face(library, path, 0, &face) != 0 || face == nil || FT_Set_Pixel_Sizes(face, 0, FT_UInt(Self.emSize)) != 0 {
            if let face { FT_Done_Face(face) }
            face = nil
        }
        faces[path] = .some(face)
        return face
    }

    /// Rasterises the glyph unhinted (hinting would snap outlines to the 24-pixel grid, and the
    /// client scales the field to every other size) and turns its coverage into a distance field.
    private static func render(face: FT_Face, glyphIndex: FT_UInt) -> Glyph? {
        guard FT_Load_Glyph(face, glyphIndex, FT_Int32(FT_LOAD_NO_HINTING | FT_LOAD_RENDER)) == 0, let slot = face.pointee.glyph else { return nil }
        let ascender = Int((Double(face.pointee.size.pointee.metrics.ascender) / 64).rounded())
        let advance = max(0, Int((Double(slot.pointee.advance.x) / 64).rounded()))
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows)
        var coverage = [Double](repeating: 0, count: width * height)
        if width > 0, height > 0, let buffer = bitmap.buffer {
            let pitch = Int(bitmap.pitch)
            for row in 0..<height {
                let line = pitch >= 0 ? buffer + row * pitch : buffer + (row - height + 1) * pitch
                switch Int32(bitmap.pixel_mode) {
                case Int32(FT_PIXEL_MODE_GRAY.rawValue):
                    let levels = Double(max(1, Int(bitmap.num_grays) - 1))
                    for column in 0..<width { coverage[row * width + column] = Double(line[column]) / levels }
                case Int32(FT_PIXEL_MODE_MONO.rawValue):
                    for column in 0..<width { coverage[row * width + column] = line[column >> 3] & (0x80 >> UInt8(column & 7)) != 0 ? 1 : 0 }
                default:
                    return nil
                }
            }
        }
        let field = signedDistanceField(coverage: coverage, width: width, height: height)
        return Glyph(bitmap: field, width: width, height: height, left: Int(slot.pointee.bitmap_left),
                     top: Int(slot.pointee.bitmap_top) - ascender, advance: advance)
    }

    /// The distance field of a coverage bitmap, with ``border`` pixels added on every side.
    ///
    /// Distances are Euclidean, from two exact transforms (Felzenszwalb and Huttenlocher's lower
    /// envelope of parabolas): one to the nearest inside pixel, one to the nearest outside pixel.
    /// An edge pixel, partly covered, is treated as lying at a distance `0.5 − coverage` from the
    /// outline, which keeps the anti-aliased rasteriser's sub-pixel position in the field.
    static func signedDistanceField(coverage: [Double], width: Int, height: Int) -> [UInt8] {
        let b = border
        let w = width + 2 * b, h = height + 2 * b
        let far = 1e20
        var toInside = [Double](repeating: far, count: w * h)
        var toOutside = [Double](repeating: 0, count: w * h)
        for row in 0..<height {
            for column in 0..<width {
                let a = coverage[row * width + column]
                let index = (row + b) * w + column + b
                if a >= 1 {
                    toInside[index] = 0
                    toOutside[index] = far
                } else if a > 0 {
                    let d = 0.5 - a
                    toInside[index] = d > 0 ? d * d : 0
                    toOutside[index] = d < 0 ? d * d : 0
                }
            }
        }
        transform2D(&toInside, width: w, height: h)
        transform2D(&toOutside, width: w, height: h)
        var result = [UInt8](repeating: 0, count: w * h)
        for index in 0..<(w * h) {
            let distance = toInside[index].squareRoot() - toOutside[index].squareRoot()
            let value = 255 - 255 * (distance / radius + cutoff)
            result[index] = UInt8(max(0, min(255, value.rounded())))
        }
        return result
    }

    /// Squared distances, in place: each column, then each row.
    private static func transform2D(_ grid: inout [Double], width: Int, height: Int) {
        let side = max(width, height)
        var values = [Double](repeating: 0, count: side), output = [Double](repeating: 0, count: side)
        var vertices = [Int](repeating: 0, count: side), bounds = [Double](repeating: 0, count: side + 1)
        for column in 0..<width {
            for row in 0..<height { values[row] = grid[row * width + column] }
            transform1D(values, count: height, into: &output, vertices: &vertices, bounds: &bounds)
            for row in 0..<height { grid[row * width + column] = output[row] }
        }
        for row in 0..<height {
            for column in 0..<width { values[column] = grid[row * width + column] }
            transform1D(values, count: width, into: &output, vertices: &vertices, bounds: &bounds)
            for column in 0..<width { grid[row * width + column] = output[column] }
        }
    }

    /// The 1-D squared distance transform of `f` (values are squared distances already reached):
    /// `output[q] = min over p of (q − p)² + f[p]`, by the lower envelope of the parabolas rooted
    /// at each `p`.
    private static func transform1D(_ f: [Double], count n: Int, into output: inout [Double], vertices v: inout [Int], bounds z: inout [Double]) {
        guard n > 0 else { return }
        // z[0] = −∞ stops the envelope's pops at its first parabola.
        var k = 0
        v[0] = 0
        z[0] = -.infinity
        z[1] = .infinity
        func intersection(_ q: Int, _ p: Int) -> Double {
            ((f[q] + Double(q * q)) - (f[p] + Double(p * p))) / Double(2 * (q - p))
        }
        var q = 1
        while q < n {
            var s = intersection(q, v[k])
            while s <= z[k] {
                k -= 1
                s = intersection(q, v[k])
            }
            k += 1
            v[k] = q
            z[k] = s
            z[k + 1] = .infinity
            q += 1
        }
        k = 0
        for q in 0..<n {
            while z[k + 1] < Double(q) { k += 1 }
            let p = v[k]
            output[q] = Double((q - p) * (q - p)) + f[p]
        }
    }
}
