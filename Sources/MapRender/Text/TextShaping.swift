import CCairo
import CHarfBuzz
import Foundation

/// A font file opened with FreeType, shaped with HarfBuzz and drawn with Cairo. The same file is
/// opened as two FreeType faces of one library, so that glyph ids mean the same everywhere while
/// Cairo's changes of size (it resizes the face it draws with, and remembers the size it last set)
/// never reach the face HarfBuzz measures with, nor the other way round.
///
/// FreeType faces are not thread-safe; a `FontFace` is used from one thread at a time (a renderer
/// opens its own faces per worker).
public final class FontFace {
    public let path: String
    /// The library and Cairo's face. Cairo may keep its font face (and so the FreeType face)
    /// cached after this object is gone; the font face's user data holds a reference to this
    /// owner, so the face and library are freed only when both are done with them — a face freed
    /// earlier could be reused at the same address and Cairo would mistake it for the old one.
    private final class Owner {
        let library: FT_Library
        var drawingFace: FT_Face?
        init(library: FT_Library) { self.library = library }
        deinit {
            if let drawingFace { FT_Done_Face(drawingFace) }
            FT_Done_FreeType(library)
        }
    }

    private let owner: Owner
    private let face: FT_Face
    private let harfBuzzFont: OpaquePointer
    let cairoFace: OpaquePointer

    /// Opens the first face of the font file at `path`.
    public init(path: String) throws(RenderError) {
        self.path = path
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw RenderError("cannot start FreeType") }
        let owner = Owner(library: library)
        var face: FT_Face?, drawingFace: FT_Face?
        guard FT_New_Face(library, path, 0, &face) == 0, let face else { throw RenderError("cannot open the font \(path)") }
        guard FT_New_Face(library, path, 0, &drawingFace) == 0, let drawingFace else {
            FT_Done_Face(face)
            throw RenderError("cannot open the font \(path)")
        }
        owner.drawingFace = drawingFace
        // HarfBuzz positions in 26.6 fixed point at the face's size; shaping at 64 units an em
        // and scaling afterwards keeps one HarfBuzz font for every size.
        FT_Set_Char_Size(face, 0, 64 * 64, 72, 72)
        guard let harfBuzzFont = hb_ft_font_create_referenced(face) else {
            FT_Done_Face(face)
            throw RenderError("cannot shape with the font \(path)")
        }
        guard let cairoFace = cairo_ft_font_face_create_for_ft_face(drawingFace, 0) else {
            hb_font_destroy(harfBuzzFont)
            FT_Done_Face(face)
            throw RenderError("cannot draw with the font \(path)")
        }
        let retained = Unmanaged.passRetained(owner).toOpaque()
        if cairo_font_face_set_user_data(cairoFace, &fontFaceOwnerKey, retained, { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }) != CAIRO_STATUS_SUCCESS {
            Unmanaged<Owner>.fromOpaque(retained).release()
            cairo_font_face_destroy(cairoFace)
            hb_font_destroy(harfBuzzFont)
            FT_Done_Face(face)
            throw RenderError("cannot draw with the font \(path)")
        }
        (self.owner, self.face, self.harfBuzzFont, self.cairoFace) = (owner, face, harfBuzzFont, cairoFace)
    }

    deinit {
        cairo_font_face_destroy(cairoFace)
        hb_font_destroy(harfBuzzFont)
        FT_Done_Face(face)
    }

    /// The face's family name, as FreeType reads it.
    public var familyName: String { face.pointee.family_name.map { String(cString: $0) } ?? "" }

    /// Whether the face has a glyph for `scalar`.
    public func covers(_ scalar: Unicode.Scalar) -> Bool {
        FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0
    }

    /// Shapes `text` at `size` points: HarfBuzz picks the script and direction from the text
    /// (Arabic and Hebrew come out right to left, in visual order) and forms ligatures, joined
    /// Arabic letters and Indic conjuncts. `kerning: false` turns the font's kerning off, as
    /// MapLibre's glyph atlases have none (mark positioning and joining still apply).
    public func shape(_ text: String, size: Double, language: String? = nil, kerning: Bool = true) -> ShapedRun {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let utf8 = Array(text.utf8)
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(chars.count), 0, Int32(chars.count))
            }
        }
        if let language { hb_buffer_set_language(buffer, hb_language_from_string(language, -1)) }
        hb_buffer_guess_segment_properties(buffer)
        let direction = hb_buffer_get_direction(buffer)
        if kerning {
            hb_shape(harfBuzzFont, buffer, nil, 0)
        } else {
            var feature = hb_feature_t()
            _ = hb_feature_from_string("-kern", -1, &feature)
            hb_shape(harfBuzzFont, buffer, &feature, 1)
        }
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        let unit = size / (64 * 64)  // 26.6 fixed point at 64 units an em
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let info = infos![i], position = positions![i]
            glyphs.append(ShapedGlyph(id: info.codepoint, cluster: Int(info.cluster),
                                      xAdvance: Double(position.x_advance) * unit, yAdvance: Double(position.y_advance) * unit,
                                      xOffset: Double(position.x_offset) * unit, yOffset: Double(position.y_offset) * unit))
        }
        return ShapedRun(font: self, size: size, glyphs: glyphs, isRightToLeft: direction == HB_DIRECTION_RTL)
    }
}

/// One positioned glyph of a shaped run, in points.
public struct ShapedGlyph: Hashable, Sendable {
    /// The glyph's index in its font (not a Unicode scalar).
    public var id: UInt32
    /// The UTF-8 offset of the text the glyph comes from.
    public var cluster: Int
    public var xAdvance: Double
    public var yAdvance: Double
    public var xOffset: Double
    public var yOffset: Double
}

/// Text shaped with one font at one size, glyphs in visual (left-to-right drawing) order.
public struct ShapedRun {
    public let font: FontFace
    public let size: Double
    public let glyphs: [ShapedGlyph]
    /// Whether the text's direction is right to left (Arabic, Hebrew).
    public let isRightToLeft: Bool

    /// The run's width in points.
    public var advance: Double { glyphs.reduce(0) { $0 + $1.xAdvance } }
}

/// The key of the owner Cairo's FreeType font faces keep (its address is what matters).
nonisolated(unsafe) private var fontFaceOwnerKey = cairo_user_data_key_t()
