import CCairo
import Foundation

/// Why something could not be drawn.
public struct RenderError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A colour as the canvas takes it: red, green, blue and alpha from 0 to 1, not premultiplied.
public struct RenderColor: Hashable, Sendable {
    public var red: Double, green: Double, blue: Double, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    public static let black = RenderColor(red: 0, green: 0, blue: 0)
    public static let white = RenderColor(red: 1, green: 1, blue: 1)
}

/// A raster image being drawn, in points: a Cairo ARGB image surface of `width × scale` by
/// `height × scale` pixels, so a 2× snapshot is drawn with the same coordinates as a 1× one.
///
/// Fills use the even–odd rule, so a polygon's holes are holes whatever their winding (vector
/// tiles from other producers do not always wind them as the specification says).
public final class RenderCanvas {
    /// The largest side in pixels: 16384 × 16384 × 4 bytes is 1 GiB, beyond any snapshot's need.
    public static let maximumPixelSide = 16384

    public let width: Double
    public let height: Double
    public let scale: Double
    public let pixelWidth: Int
    public let pixelHeight: Int
    private let surface: OpaquePointer
    private let cairo: OpaquePointer

    /// A transparent canvas. Sizes must be positive and finite, and at most
    /// ``maximumPixelSide`` pixels a side once scaled.
    public init(width: Double, height: Double, scale: Double = 1) throws(RenderError) {
        guard width.isFinite, height.isFinite, scale.isFinite, width > 0, height > 0, scale > 0 else {
            throw RenderError("image size \(width) × \(height) at scale \(scale) is not a positive finite size")
        }
        let pixelWidth = Int((width * scale).rounded(.up)), pixelHeight = Int((height * scale).rounded(.up))
        guard pixelWidth <= Self.maximumPixelSide, pixelHeight <= Self.maximumPixelSide else {
            throw RenderError("image of \(pixelWidth) × \(pixelHeight) pixels is larger than \(Self.maximumPixelSide) pixels a side")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw RenderError("cannot allocate a \(pixelWidth) × \(pixelHeight) image")
        }
        guard let cairo = cairo_create(surface), cairo_status(cairo) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw RenderError("cannot draw on a \(pixelWidth) × \(pixelHeight) image")
        }
        cairo_scale(cairo, scale, scale)
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_EVEN_ODD)
        (self.width, self.height, self.scale) = (width, height, scale)
        (self.pixelWidth, self.pixelHeight) = (pixelWidth, pixelHeight)
        (self.surface, self.cairo) = (surface, cairo)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    /// Paints the whole canvas.
    public func fill(_ color: RenderColor) {
        setSource(color)
        cairo_paint(cairo)
    }

    /// Fills a polygon given as rings (exterior and holes) of points.
    public func fill(rings: [[(x: Double, y: Double)]], color: RenderColor) {
        cairo_new_path(cairo)
        for ring in rings where ring.count >= 3 {
            cairo_move_to(cairo, ring[0].x, ring[0].y)
            for p in ring.dropFirst() { cairo_line_to(cairo, p.x, p.y) }
            cairo_close_path(cairo)
        }
        setSource(color)
        cairo_fill(cairo)
    }

    /// How line ends and corners are drawn (MapLibre's `line-cap` and `line-join`).
    public enum LineCap: Sendable { case butt, round, square }
    public enum LineJoin: Sendable { case miter, round, bevel }

    /// Strokes a polyline `width` points wide; `dashes` alternate on and off lengths in points.
    public func stroke(_ points: [(x: Double, y: Double)], width: Double, color: RenderColor,
                       cap: LineCap = .butt, join: LineJoin = .miter, dashes: [Double] = []) {
        guard points.count >= 2, width > 0, width.isFinite else { return }
        cairo_new_path(cairo)
        cairo_move_to(cairo, points[0].x, points[0].y)
        for p in points.dropFirst() { cairo_line_to(cairo, p.x, p.y) }
        cairo_set_line_width(cairo, width)
        cairo_set_line_cap(cairo, cap == .round ? CAIRO_LINE_CAP_ROUND : cap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cairo, join == .round ? CAIRO_LINE_JOIN_ROUND : join == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
        let usable = dashes.filter { $0.isFinite && $0 >= 0 }
        if usable.count == dashes.count, usable.contains(where: { $0 > 0 }) {
            cairo_set_dash(cairo, usable, Int32(usable.count), 0)
        } else {
            cairo_set_dash(cairo, nil, 0, 0)
        }
        setSource(color)
        cairo_stroke(cairo)
    }

    /// Draws shaped glyphs with their font, the first glyph's origin at (`x`, `y`) on the baseline.
    public func draw(_ run: ShapedRun, x: Double, y: Double, color: RenderColor) {
        var glyphs: [cairo_glyph_t] = []
        glyphs.reserveCapacity(run.glyphs.count)
        var penX = x
        for glyph in run.glyphs {
            glyphs.append(cairo_glyph_t(index: UInt(glyph.id), x: penX + glyph.xOffset, y: y - glyph.yOffset))
            penX += glyph.xAdvance
        }
        cairo_set_font_face(cairo, run.font.cairoFace)
        cairo_set_font_size(cairo, run.size)
        setSource(color)
        cairo_show_glyphs(cairo, glyphs, Int32(glyphs.count))
    }

    /// The pixel at (`x`, `y`) in pixels, un-premultiplied, 0–255 per channel.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && x < pixelWidth && y >= 0 && y < pixelHeight, "pixel outside the canvas")
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        // ARGB32 is a native-endian 32-bit word per pixel, colour premultiplied by alpha.
        let word = UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self)
        let a = UInt8(word >> 24), r = UInt8(word >> 16 & 0xFF), g = UInt8(word >> 8 & 0xFF), b = UInt8(word & 0xFF)
        guard a > 0 else { return (0, 0, 0, 0) }
        func unpremultiply(_ c: UInt8) -> UInt8 { UInt8(min(255, (Int(c) * 255 + Int(a) / 2) / Int(a))) }
        return (unpremultiply(r), unpremultiply(g), unpremultiply(b), a)
    }

    /// The canvas as a PNG file.
    public func pngData() throws(RenderError) -> [UInt8] {
        cairo_surface_flush(surface)
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(surface, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError("cannot encode PNG: \(String(cString: cairo_status_to_string(status)))") }
        return sink.bytes
    }

    private func setSource(_ color: RenderColor) {
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
    }
}
