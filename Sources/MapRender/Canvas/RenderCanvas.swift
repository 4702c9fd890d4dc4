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
    /// The Cairo surface and context; other files of the module extend the canvas with them.
    let surface: OpaquePointer
    let cairo: OpaquePointer
    /// The part of the canvas, in points from its top, that drawing here reaches: all of it,
    /// except on a band (see ``init(band:rows:)``).
    let drawnMinY: Double, drawnMaxY: Double
    /// The canvas a band draws into, kept alive while the band is.
    private let parent: RenderCanvas?

    /// A transparent canvas. Sizes must be positive and finite, and at most
    /// ``maximumPixelSide`` pixels a side once scaled.
    public init(width: Double, height: Double, scale: Double = 1) throws(RenderError) {
        guard width.isFinite, height.isFinite, scale.isFinite, width > 0, height > 0, scale > 0 else {
            throw RenderError("image size \(width) × \(height) at scale \(scale) is not a positive finite size")
        }
        // Compared as doubles first: a side of 1e300 would trap in the conversion to Int.
        let limit = Double(Self.maximumPixelSide)
        guard (width * scale).rounded(.up) <= limit, (height * scale).rounded(.up) <= limit else {
            throw RenderError("image of \(width * scale) × \(height * scale) pixels is larger than \(Self.maximumPixelSide) pixels a side")
        }
        let pixelWidth = Int((width * scale).rounded(.up)), pixelHeight = Int((height * scale).rounded(.up))
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
        (drawnMinY, drawnMaxY, parent) = (0, height, nil)
    }

    /// A canvas at scale 1 holding `rgba`: straight (not premultiplied) RGBA bytes, row by row
    /// from the top, `pixelWidth × pixelHeight × 4` of them. For images drawn elsewhere (a street
    /// scene's rasteriser) that are then drawn over or encoded like any canvas.
    public convenience init(pixelWidth: Int, pixelHeight: Int, rgba: [UInt8]) throws(RenderError) {
        guard pixelWidth > 0, pixelHeight > 0, rgba.count == pixelWidth * pixelHeight * 4 else {
            throw RenderError("\(rgba.count) bytes are not a \(pixelWidth) × \(pixelHeight) RGBA image")
        }
        try self.init(width: Double(pixelWidth), height: Double(pixelHeight))
        withMutablePremultipliedARGB { pixels, stride in
            for y in 0..<pixelHeight {
                for x in 0..<pixelWidth {
                    let i = (y * pixelWidth + x) * 4
                    let a = UInt32(rgba[i + 3])
                    func pre(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                    let word = a << 24 | pre(rgba[i]) << 16 | pre(rgba[i + 1]) << 8 | pre(rgba[i + 2])
                    pixels.storeBytes(of: word, toByteOffset: y * stride + x * 4, as: UInt32.self)
                }
            }
        }
    }

    /// A band of `canvas`: the pixel rows `rows` of the same memory, drawn with the same
    /// coordinates (points from the whole canvas's top-left corner), so threads can each draw the
    /// whole style into their own band of one image. Whatever falls outside the rows is cut off
    /// by Cairo; pixels inside come out as drawing the whole canvas would make them. Sizes and
    /// ``pixel(x:y:)`` are the whole canvas's; encode the whole canvas, not a band.
    init(band canvas: RenderCanvas, rows: Range<Int>) throws(RenderError) {
        precondition(canvas.parent == nil && rows.lowerBound >= 0 && rows.upperBound <= canvas.pixelHeight && !rows.isEmpty,
                     "a band is a non-empty row range of a whole canvas")
        cairo_surface_flush(canvas.surface)
        let stride = cairo_image_surface_get_stride(canvas.surface)
        guard let data = cairo_image_surface_get_data(canvas.surface),
              let surface = cairo_image_surface_create_for_data(data + rows.lowerBound * Int(stride), CAIRO_FORMAT_ARGB32,
                                                                Int32(canvas.pixelWidth), Int32(rows.count), stride),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw RenderError("cannot make a band of rows \(rows) of a \(canvas.pixelWidth) × \(canvas.pixelHeight) image")
        }
        // The device offset moves the band's first row to row `rows.lowerBound` of device space,
        // so user coordinates, clips, groups and pattern origins all match the whole canvas.
        cairo_surface_set_device_offset(surface, 0, -Double(rows.lowerBound))
        guard let cairo = cairo_create(surface), cairo_status(cairo) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw RenderError("cannot draw on a band of rows \(rows)")
        }
        cairo_scale(cairo, canvas.scale, canvas.scale)
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_EVEN_ODD)
        (width, height, scale) = (canvas.width, canvas.height, canvas.scale)
        (pixelWidth, pixelHeight) = (canvas.pixelWidth, canvas.pixelHeight)
        (self.surface, self.cairo) = (surface, cairo)
        (drawnMinY, drawnMaxY, parent) = (Double(rows.lowerBound) / scale, Double(rows.upperBound) / scale, canvas)
    }

    /// `height` rows cut into `count` consecutive bands of near-equal size (drawing and encoding
    /// share out an image's rows this way).
    static func rowBands(height: Int, count: Int) -> [Range<Int>] {
        (0..<count).map { height * $0 / count..<height * ($0 + 1) / count }
    }

    /// Makes what bands drew visible to the canvas's own Cairo surface (call after drawing bands,
    /// before reading or encoding the canvas).
    func finishBands() { cairo_surface_mark_dirty(surface) }

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

    /// Fills a quadrilateral whose four corners carry colours, blended across it (a Cairo mesh
    /// patch): a lit wall whose colour changes from its foot to its top, as a GPU blends the
    /// colours of a quad's vertices.
    public func fill(quad: [(x: Double, y: Double)], colors: [RenderColor]) {
        guard quad.count == 4, colors.count == 4 else { return }
        let pattern = cairo_pattern_create_mesh()
        defer { cairo_pattern_destroy(pattern) }
        cairo_mesh_pattern_begin_patch(pattern)
        cairo_mesh_pattern_move_to(pattern, quad[0].x, quad[0].y)
        for p in quad.dropFirst() { cairo_mesh_pattern_line_to(pattern, p.x, p.y) }
        for (corner, color) in colors.enumerated() {
            cairo_mesh_pattern_set_corner_color_rgba(pattern, UInt32(corner), color.red, color.green, color.blue, color.alpha)
        }
        cairo_mesh_pattern_end_patch(pattern)
        cairo_new_path(cairo)
        cairo_move_to(cairo, quad[0].x, quad[0].y)
        for p in quad.dropFirst() { cairo_line_to(cairo, p.x, p.y) }
        cairo_close_path(cairo)
        cairo_set_source(cairo, pattern)
        cairo_fill(cairo)
    }

    /// How line ends and corners are drawn (MapLibre's `line-cap` and `line-join`).
    public enum LineCap: Sendable { case butt, round, square }
    public enum LineJoin: Sendable { case miter, round, bevel }

    /// Strokes a polyline `width` points wide; `dashes` alternate on and off lengths in points.
    public func stroke(_ points: [(x: Double, y: Double)], width: Double, color: RenderColor,
                       cap: LineCap = .butt, join: LineJoin = .miter, dashes: [Double] = []) {
        stroke(lines: [points], closed: false, width: width, color: color, cap: cap, join: join, miterLimit: 10, dashes: dashes)
    }

    /// Draws shaped glyphs with their font, the first glyph's origin at (`x`, `y`) on the baseline.
    public func draw(_ run: ShapedRun, x: Double, y: Double, color: RenderColor) {
        let glyphs = selectFont(of: run, x: x, y: y)
        setSource(color)
        cairo_show_glyphs(cairo, glyphs, Int32(glyphs.count))
    }

    /// Makes the run's font current and places its glyphs from (`x`, `y`) on the baseline: what
    /// drawing the run and drawing its halo both start from.
    func selectFont(of run: ShapedRun, x: Double, y: Double) -> [cairo_glyph_t] {
        var glyphs: [cairo_glyph_t] = []
        glyphs.reserveCapacity(run.glyphs.count)
        var penX = x
        for glyph in run.glyphs {
            glyphs.append(cairo_glyph_t(index: UInt(glyph.id), x: penX + glyph.xOffset, y: y - glyph.yOffset))
            penX += glyph.xAdvance
        }
        cairo_set_font_face(cairo, run.font.cairoFace)
        cairo_set_font_size(cairo, run.size)
        return glyphs
    }

    /// The pixel at (`x`, `y`) in pixels, un-premultiplied, 0–255 per channel.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && x < pixelWidth && y >= 0 && y < pixelHeight, "pixel outside the canvas")
        precondition(parent == nil, "read pixels from the whole canvas, not a band")
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

    // MARK: Clipping, antialiasing and raw pixels (used by the style renderer)

    /// Saves the clip and antialiasing state; pair with ``restore()``.
    public func save() { cairo_save(cairo) }
    /// Restores the state of the matching ``save()``.
    public func restore() { cairo_restore(cairo) }

    /// Narrows drawing to the inside of a polygon. The clip is aliased (each pixel is in or out by
    /// its centre), so polygons that tile the plane — vector tiles — split every pixel between
    /// exactly one of them and no seam shows where two tiles meet.
    public func clip(to ring: [(x: Double, y: Double)]) {
        guard ring.count >= 3 else { return }
        cairo_new_path(cairo)
        cairo_move_to(cairo, ring[0].x, ring[0].y)
        for p in ring.dropFirst() { cairo_line_to(cairo, p.x, p.y) }
        cairo_close_path(cairo)
        let previous = cairo_get_antialias(cairo)
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
        cairo_clip(cairo)
        cairo_set_antialias(cairo, previous)
    }

    /// Whether edges drawn from now on are antialiased (default true). MapLibre fills its polygons
    /// with hard edges and lays an antialiased outline over them, so fills turn it off.
    public var antialias: Bool {
        get { cairo_get_antialias(cairo) != CAIRO_ANTIALIAS_NONE }
        set { cairo_set_antialias(cairo, newValue ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE) }
    }

    /// Draws `image` through the affine map `affine` (image pixel (u, v) goes to
    /// (a·u + c·v + tx, b·u + d·v + ty) in points), inside `triangle` (three points): one half of
    /// a picture stretched over four corners, as a GPU draws a textured quad.
    func draw(_ image: RenderImage, triangle: [ScreenPoint], affine: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double),
              opacity: Double, smooth: Bool) {
        let m = affine
        guard triangle.count == 3, [m.a, m.b, m.c, m.d, m.tx, m.ty].allSatisfy(\.isFinite), abs(m.a * m.d - m.b * m.c) > 1e-12,
              image.width > 0, image.height > 0 else { return }
        image.sourceLock.lock()
        defer { image.sourceLock.unlock() }
        cairo_save(cairo)
        cairo_new_path(cairo)
        cairo_move_to(cairo, triangle[0].x, triangle[0].y)
        cairo_line_to(cairo, triangle[1].x, triangle[1].y)
        cairo_line_to(cairo, triangle[2].x, triangle[2].y)
        cairo_close_path(cairo)
        cairo_clip(cairo)
        var matrix = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
        cairo_transform(cairo, &matrix)
        cairo_set_source_surface(cairo, image.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cairo), smooth ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_NEAREST)
        cairo_pattern_set_extend(cairo_get_source(cairo), CAIRO_EXTEND_PAD)
        cairo_paint_with_alpha(cairo, min(max(opacity, 0), 1))
        cairo_restore(cairo)
    }

    /// Draws an image into the square (rotated by `angle` radians, clockwise on screen) whose
    /// top-left corner is at (`x`, `y`) and whose sides are `size` points, at `opacity`. The
    /// square is clipped without antialiasing and the image's edge pixels are extended, so
    /// adjacent tiles meet without seams. `smooth` chooses bilinear over nearest resampling.
    public func draw(_ image: RenderImage, x: Double, y: Double, size: Double, angle: Double, opacity: Double, smooth: Bool = true) {
        guard size > 0, size.isFinite, image.width > 0, image.height > 0 else { return }
        image.sourceLock.lock()
        defer { image.sourceLock.unlock() }
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        cairo_rotate(cairo, angle)
        cairo_new_path(cairo)
        cairo_rectangle(cairo, 0, 0, size, size)
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
        cairo_clip(cairo)
        cairo_scale(cairo, size / Double(image.width), size / Double(image.height))
        cairo_set_source_surface(cairo, image.surface, 0, 0)
        let pattern = cairo_get_source(cairo)
        cairo_pattern_set_filter(pattern, smooth ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_NEAREST)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_paint_with_alpha(cairo, min(max(opacity, 0), 1))
        cairo_restore(cairo)
    }

    /// Starts drawing into a transparent layer; ``endGroup(opacity:)`` composites it onto the
    /// canvas. Shapes drawn in between combine with each other first (a blurred line's stacked
    /// strokes), and then blend with what is below once.
    public func beginGroup() { cairo_push_group(cairo) }

    /// Composites the layer started by ``beginGroup()`` at `opacity`.
    public func endGroup(opacity: Double = 1) {
        cairo_pop_group_to_source(cairo)
        cairo_paint_with_alpha(cairo, min(max(opacity, 0), 1))
    }

    /// Fills a disc.
    public func fillCircle(x: Double, y: Double, radius: Double, color: RenderColor) {
        guard radius > 0, radius.isFinite else { return }
        cairo_new_path(cairo)
        cairo_arc(cairo, x, y, radius, 0, 2 * Double.pi)
        setSource(color)
        cairo_fill(cairo)
    }

    /// Fills ellipses, each centred at `center` with semi-axis `along` in the unit direction
    /// `axis` and `across` perpendicular to it, as one shape: where they overlap the colour is
    /// laid once (the rounded ends of a line's dashes).
    func fillEllipses(_ ellipses: [(center: (x: Double, y: Double), axis: (x: Double, y: Double), along: Double, across: Double)],
                      color: RenderColor) {
        cairo_new_path(cairo)
        for e in ellipses where e.along > 0 && e.across > 0 && e.along.isFinite && e.across.isFinite {
            var matrix = cairo_matrix_t()
            cairo_get_matrix(cairo, &matrix)
            cairo_translate(cairo, e.center.x, e.center.y)
            cairo_rotate(cairo, atan2(e.axis.y, e.axis.x))
            cairo_scale(cairo, e.along, e.across)
            cairo_new_sub_path(cairo)
            cairo_arc(cairo, 0, 0, 1, 0, 2 * Double.pi)
            cairo_close_path(cairo)
            cairo_set_matrix(cairo, &matrix)
        }
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING)
        setSource(color)
        cairo_fill(cairo)
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_EVEN_ODD)
    }

    /// Fills a disc with colours that change with the distance from its centre (`stops` at
    /// fractions of the radius, straight colours).
    func fillRadialGradient(x: Double, y: Double, radius: Double, stops: [(offset: Double, color: RenderColor)]) {
        guard radius > 0, radius.isFinite, let pattern = cairo_pattern_create_radial(x, y, 0, x, y, radius) else { return }
        for stop in stops {
            cairo_pattern_add_color_stop_rgba(pattern, min(max(stop.offset, 0), 1), stop.color.red, stop.color.green,
                                              stop.color.blue, stop.color.alpha)
        }
        cairo_new_path(cairo)
        cairo_arc(cairo, x, y, radius, 0, 2 * Double.pi)
        cairo_set_source(cairo, pattern)
        cairo_fill(cairo)
        cairo_pattern_destroy(pattern)
    }

    /// Fills the ring between two radii (a circle's stroke, drawn outside its radius).
    public func fillAnnulus(x: Double, y: Double, inner: Double, outer: Double, color: RenderColor) {
        guard outer > inner, inner >= 0, outer.isFinite else { return }
        cairo_new_path(cairo)
        cairo_arc(cairo, x, y, outer, 0, 2 * Double.pi)
        cairo_close_path(cairo)
        if inner > 0 {
            cairo_new_sub_path(cairo)
            cairo_arc_negative(cairo, x, y, inner, 2 * Double.pi, 0)
            cairo_close_path(cairo)
        }
        setSource(color)
        cairo_fill(cairo)
    }

    /// Strokes polylines `width` points wide, each part on its own so that where parts overlap a
    /// translucent colour blends twice (as MapLibre draws them). `closed` joins the last point to
    /// the first instead of capping both ends (polygon rings); a closed LineString is not closed.
    /// `miterLimit` is the miter length over the line width beyond which a miter becomes a bevel.
    public func stroke(lines: [[(x: Double, y: Double)]], closed: Bool, width: Double, color: RenderColor,
                       cap: LineCap, join: LineJoin, miterLimit: Double, dashes: [Double] = []) {
        guard width > 0, width.isFinite else { return }
        cairo_set_line_width(cairo, width)
        cairo_set_line_cap(cairo, cap == .round ? CAIRO_LINE_CAP_ROUND : cap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cairo, join == .round ? CAIRO_LINE_JOIN_ROUND : join == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
        cairo_set_miter_limit(cairo, max(1, miterLimit))
        let usable = dashes.filter { $0.isFinite && $0 >= 0 }
        if usable.count == dashes.count, usable.contains(where: { $0 > 0 }) {
            cairo_set_dash(cairo, usable, Int32(usable.count), 0)
        } else {
            cairo_set_dash(cairo, nil, 0, 0)
        }
        setSource(color)
        strokeEach(lines, closed: closed)
        cairo_set_dash(cairo, nil, 0, 0)
    }

    private func strokeEach(_ lines: [[(x: Double, y: Double)]], closed: Bool) {
        for points in lines where points.count >= 2 {
            cairo_new_path(cairo)
            cairo_move_to(cairo, points[0].x, points[0].y)
            for p in points.dropFirst() { cairo_line_to(cairo, p.x, p.y) }
            if closed { cairo_close_path(cairo) }
            cairo_stroke(cairo)
        }
    }

    /// The pixels as straight (un-premultiplied) RGBA bytes, row by row.
    public func rgbaPixels() -> [UInt8] {
        cairo_surface_flush(surface)
        return Self.unpremultipliedRGBA(surface: surface, width: pixelWidth, height: pixelHeight)
    }

    /// Calls `body` with the canvas's own pixels, without a copy: rows of `stride` bytes, each
    /// pixel a native-endian 32-bit premultiplied ARGB word (Cairo's `ARGB32`, what SDL calls
    /// `ARGB8888`). For handing frames to a display, where ``rgbaPixels()``'s per-pixel conversion
    /// cost a third of a window's frame.
    public func withPremultipliedARGB<T>(_ body: (_ pixels: UnsafeRawBufferPointer, _ stride: Int) throws -> T) rethrows -> T {
        let (pixels, stride) = flushedPixels()
        return try body(UnsafeRawBufferPointer(pixels), stride)
    }

    /// Calls `body` with the canvas's own pixels to change in place (the layout of
    /// ``withPremultipliedARGB(_:)``); Cairo is told afterwards that they changed.
    func withMutablePremultipliedARGB<T>(_ body: (_ pixels: UnsafeMutableRawBufferPointer, _ stride: Int) throws -> T) rethrows -> T {
        let (pixels, stride) = flushedPixels()
        defer { cairo_surface_mark_dirty(surface) }
        return try body(pixels, stride)
    }

    /// The surface's pixels after Cairo has finished drawing into them, and their row stride.
    private func flushedPixels() -> (UnsafeMutableRawBufferPointer, Int) {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface).map { UnsafeMutableRawPointer($0) }
        return (UnsafeMutableRawBufferPointer(start: data, count: data == nil ? 0 : stride * pixelHeight), stride)
    }

    /// Reads a PNG file with Cairo and returns its straight RGBA bytes, so tests need no other
    /// image library. Cairo premultiplies on load, so nearly transparent pixels lose some precision.
    public static func readPNG(path: String) throws(RenderError) -> (width: Int, height: Int, rgba: [UInt8]) {
        guard let image = cairo_image_surface_create_from_png(path) else { throw RenderError("cannot read \(path)") }
        defer { cairo_surface_destroy(image) }
        let status = cairo_surface_status(image)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("cannot read \(path): \(String(cString: cairo_status_to_string(status)))")
        }
        let format = cairo_image_surface_get_format(image)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else { throw RenderError("\(path): unsupported pixel format") }
        let width = Int(cairo_image_surface_get_width(image)), height = Int(cairo_image_surface_get_height(image))
        var rgba = unpremultipliedRGBA(surface: image, width: width, height: height)
        if format == CAIRO_FORMAT_RGB24 { for i in stride(from: 3, to: rgba.count, by: 4) { rgba[i] = 255 } }
        return (width, height, rgba)
    }

    static func unpremultipliedRGBA(surface: OpaquePointer, width: Int, height: Int) -> [UInt8] {
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let word = UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self)
                let a = Int(word >> 24)
                guard a > 0 else { continue }
                let i = (y * width + x) * 4
                func un(_ c: Int) -> UInt8 { UInt8(min(255, (c * 255 + a / 2) / a)) }
                out[i] = un(Int(word >> 16 & 0xFF)); out[i + 1] = un(Int(word >> 8 & 0xFF))
                out[i + 2] = un(Int(word & 0xFF)); out[i + 3] = UInt8(a)
            }
        }
        return out
    }

    func setSource(_ color: RenderColor) {
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
    }
}

/// A decoded raster image (a raster tile), kept as a Cairo surface ready to draw.
public final class RenderImage {
    let surface: OpaquePointer
    /// Held while Cairo reads the image as a source. One image (a sprite sheet, a raster tile)
    /// may be drawn by several bands of a render at once, and a Cairo surface is not safe to use
    /// from two threads together, even only to read (Cairo keeps snapshot bookkeeping on it).
    let sourceLock = NSLock()
    public let width: Int
    public let height: Int

    /// Decodes a PNG file's bytes.
    public init(png bytes: [UInt8]) throws(RenderError) {
        final class Reader { let bytes: [UInt8]; var offset = 0; init(_ bytes: [UInt8]) { self.bytes = bytes } }
        let reader = Reader(bytes)
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream({ closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                let reader = Unmanaged<Reader>.fromOpaque(closure).takeUnretainedValue()
                let count = Int(length)
                guard reader.offset + count <= reader.bytes.count else { return CAIRO_STATUS_READ_ERROR }
                reader.bytes.withUnsafeBufferPointer { buffer in
                    data.update(from: buffer.baseAddress! + reader.offset, count: count)
                }
                reader.offset += count
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(reader).toOpaque())
        }
        guard let surface else { throw RenderError("cannot decode PNG") }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw RenderError("cannot decode PNG: \(String(cString: cairo_status_to_string(status)))")
        }
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    /// An image from straight (un-premultiplied) RGBA bytes, row by row: what the renderer
    /// computes itself (hillshading, heatmaps, adjusted raster tiles). Nil when the sizes and the
    /// byte count disagree or Cairo cannot allocate it.
    init?(width: Int, height: Int, rgba: [UInt8]) {
        guard width > 0, height > 0, rgba.count == width * height * 4,
              let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let a = UInt32(rgba[i + 3])
                func pre(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                let word = a << 24 | pre(rgba[i]) << 16 | pre(rgba[i + 1]) << 8 | pre(rgba[i + 2])
                UnsafeMutableRawPointer(data + y * stride + x * 4).storeBytes(of: word, as: UInt32.self)
            }
        }
        cairo_surface_mark_dirty(surface)
        self.surface = surface
        self.width = width
        self.height = height
    }

    /// The pixels as straight RGBA bytes, row by row.
    func rgbaPixels() -> [UInt8] {
        cairo_surface_flush(surface)
        return RenderCanvas.unpremultipliedRGBA(surface: surface, width: width, height: height)
    }

    deinit { cairo_surface_destroy(surface) }
}
