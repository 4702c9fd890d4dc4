import CCairo
import Foundation

/// Draws thin lines (up to ``maximumWidth`` device pixels) straight into a canvas's pixels,
/// antialiased, inside an aliased convex clip like ``RenderCanvas/clip(to:)``'s.
///
/// Fill outlines and minor roads are most of a city map's strokes, and Cairo builds,
/// tessellates and scans a stroke polygon for each one: for a building of five corners that
/// setup is nearly all the work. Here each segment walks the pixels along its longer axis and
/// gives each the area of the line over it, which is what Cairo's stroke covers up to the shape
/// of its ends and joins (below two pixels those are invisible). Made by
/// ``RenderCanvas/thinLineRasterizer(clip:)``, used while the canvas draws nothing else.
struct ThinLineRasterizer {
    /// The widest line, in device pixels, drawn this way; wider ones show their caps and joins.
    static let maximumWidth = 1.5

    private let canvas: RenderCanvas
    private let data: UnsafeMutablePointer<UInt8>
    private let stride: Int, columns: Int
    /// Device rows of the whole canvas this surface holds (a band holds some of them).
    private let firstRow: Int, lastRow: Int
    /// The clip's edges with inward normals: a pixel centre p is inside where (p − a) · n ≥ 0 for all.
    private let clipEdges: [(ax: Double, ay: Double, nx: Double, ny: Double)]

    fileprivate init?(canvas: RenderCanvas, clip: [(x: Double, y: Double)]?) {
        let cairo = canvas.cairo, surface = canvas.surface, scale = canvas.scale
        guard cairo_get_group_target(cairo) == surface else { return nil }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        guard matrix.xy == 0, matrix.yx == 0, matrix.xx == scale, matrix.yy == scale, matrix.x0 == 0, matrix.y0 == 0,
              let data = cairo_image_surface_get_data(surface) else { return nil }
        cairo_surface_flush(surface)
        self.canvas = canvas
        self.data = data
        stride = Int(cairo_image_surface_get_stride(surface))
        columns = Int(cairo_image_surface_get_width(surface))
        firstRow = Int((canvas.drawnMinY * scale).rounded())
        lastRow = firstRow + Int(cairo_image_surface_get_height(surface))
        var edges: [(ax: Double, ay: Double, nx: Double, ny: Double)] = []
        if let clip, clip.count >= 3 {
            let points = clip.map { (x: $0.x * scale, y: $0.y * scale) }
            var area = 0.0
            for i in points.indices {
                let a = points[i], b = points[(i + 1) % points.count]
                area += a.x * b.y - b.x * a.y
            }
            let sign = area >= 0 ? 1.0 : -1.0
            for i in points.indices {
                let a = points[i], b = points[(i + 1) % points.count]
                edges.append((a.x, a.y, -(b.y - a.y) * sign, (b.x - a.x) * sign))
            }
        }
        clipEdges = edges
    }

    /// Tells Cairo the pixels changed; call once drawing is done.
    func finish() { cairo_surface_mark_dirty(canvas.surface) }

    /// Strokes each line on its own, `width` points wide (at most ``maximumWidth`` device
    /// pixels); open lines are lengthened by `capExtension` points at their ends, for round or
    /// square caps.
    func stroke(_ lines: [[(x: Double, y: Double)]], closed: Bool, width: Double, color: RenderColor, capExtension: Double = 0) {
        let scale = canvas.scale
        let alpha = min(color.alpha, 1)
        guard alpha > 0, width > 0 else { return }
        let (red, green, blue) = (color.red, color.green, color.blue)
        let lineWidth = min(width * scale, Self.maximumWidth), extend = capExtension * scale

        @inline(__always) func blend(_ x: Int, _ y: Int, _ coverage: Double) {
            guard x >= 0, x < columns, y >= firstRow, y < lastRow, coverage > 0 else { return }
            if !clipEdges.isEmpty {
                let cx = Double(x) + 0.5, cy = Double(y) + 0.5
                for edge in clipEdges where (cx - edge.ax) * edge.nx + (cy - edge.ay) * edge.ny < 0 { return }
            }
            let a = min(coverage, 1) * alpha
            let pointer = (data + (y - firstRow) * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0 }
            let word = pointer.pointee
            let keep = 1 - a
            @inline(__always) func channel(_ shift: UInt32, _ source: Double) -> UInt32 {
                UInt32(min(255, Double(word >> shift & 0xFF) * keep + source * a * 255 + 0.5)) << shift
            }
            pointer.pointee = channel(24, 1) | channel(16, red) | channel(8, green) | channel(0, blue)
        }

        for line in lines where line.count >= 2 {
            let segments = closed ? line.count : line.count - 1
            for i in 0..<segments {
                let p = line[i], q = line[(i + 1) % line.count]
                var x0 = p.x * scale, y0 = p.y * scale, x1 = q.x * scale, y1 = q.y * scale
                var dx = x1 - x0, dy = y1 - y0
                var length = (dx * dx + dy * dy).squareRoot()
                guard length > 1e-9, length.isFinite else { continue }
                if !closed, extend > 0 {
                    let (ux, uy) = (dx / length, dy / length)
                    if i == 0 { (x0, y0) = (x0 - ux * extend, y0 - uy * extend) }
                    if i == segments - 1 { (x1, y1) = (x1 + ux * extend, y1 + uy * extend) }
                    (dx, dy) = (x1 - x0, y1 - y0)
                    length = (dx * dx + dy * dy).squareRoot()
                }
                // Along the longer axis ("major"): in each pixel step the line spans `thickness`
                // across it, centred where the segment crosses the middle of the step.
                let xMajor = abs(dx) >= abs(dy)
                let (a0, b0, a1, b1) = xMajor ? (x0, y0, x1, y1) : (y0, x0, y1, x1)
                let (start, startMinor, end) = a1 > a0 ? (a0, b0, a1) : (a1, b1, a0)
                let slope = (b1 - b0) / (a1 - a0), thickness = lineWidth * length / abs(a1 - a0)
                let (lowest, highest) = xMajor ? (-1, columns) : (firstRow - 1, lastRow)
                let from = max(Int(start.rounded(.down)), lowest), to = min(Int(end.rounded(.up)) - 1, highest)
                guard from <= to else { continue }
                for major in from...to {
                    let low = max(start, Double(major)), high = min(end, Double(major + 1))
                    let along = high - low
                    guard along > 0 else { continue }
                    let center = startMinor + ((low + high) / 2 - start) * slope
                    let near = center - thickness / 2, far = center + thickness / 2
                    for minor in Int(near.rounded(.down))...Int(far.rounded(.down)) {
                        let coverage = (min(far, Double(minor + 1)) - max(near, Double(minor))) * along
                        if xMajor { blend(major, minor, coverage) } else { blend(minor, major, coverage) }
                    }
                }
            }
        }
    }
}

extension RenderCanvas {
    /// A rasterizer for thin lines drawn straight into the pixels inside `clip`; nil when the
    /// canvas is not in a state it can draw in (inside a group, or with a transformed coordinate
    /// system), and the caller strokes with Cairo instead.
    func thinLineRasterizer(clip: [(x: Double, y: Double)]?) -> ThinLineRasterizer? {
        ThinLineRasterizer(canvas: self, clip: clip)
    }
}
