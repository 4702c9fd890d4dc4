import CCairo
import Foundation

extension RenderCanvas {
    /// Draws the outlines' closed rings, each in its colour, as antialiased lines one device pixel wide straight into the pixels,
    /// inside the aliased clip `clip` (a convex polygon, as ``clip(to:)`` takes it) when given.
    ///
    /// Fill outlines are most of a city map's strokes, and Cairo builds, tessellates and scans a
    /// stroke polygon for each ring: for a building of five corners that setup is nearly all the
    /// work. Here each segment walks the pixels along its longer axis and gives each the area
    /// of the 1-pixel-wide line over it, which is what Cairo's stroke covers, up to the shape of
    /// the ends. Returns false, drawing nothing, when the canvas is not in a state this can
    /// draw in (inside a group, or with a transformed coordinate system): the caller strokes
    /// with Cairo instead.
    func strokeHairlines(_ outlines: ArraySlice<(group: Int, rings: [[(x: Double, y: Double)]], color: RenderColor)>,
                         clip: [(x: Double, y: Double)]?) -> Bool {
        guard cairo_get_group_target(cairo) == surface else { return false }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        guard matrix.xy == 0, matrix.yx == 0, matrix.xx == scale, matrix.yy == scale, matrix.x0 == 0, matrix.y0 == 0 else { return false }
        guard let data = cairo_image_surface_get_data(surface) else { return false }
        cairo_surface_flush(surface)
        defer { cairo_surface_mark_dirty(surface) }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let columns = Int(cairo_image_surface_get_width(surface))
        // Device rows of the whole canvas this surface holds (a band holds some of them).
        let firstRow = Int((drawnMinY * scale).rounded()), lastRow = firstRow + Int(cairo_image_surface_get_height(surface))
        var clipEdges: [(ax: Double, ay: Double, nx: Double, ny: Double)] = []
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
                // Inward normal: the inside is where (p − a) · n ≥ 0.
                clipEdges.append((a.x, a.y, -(b.y - a.y) * sign, (b.x - a.x) * sign))
            }
        }
        var (red, green, blue, alpha) = (0.0, 0.0, 0.0, 0.0)

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
                let value = Double(word >> shift & 0xFF) * keep + source * a * 255
                return UInt32(min(255, value + 0.5)) << shift
            }
            pointer.pointee = channel(24, 1) | channel(16, red) | channel(8, green) | channel(0, blue)
        }

        for (_, rings, color) in outlines where color.alpha > 0 {
        (red, green, blue, alpha) = (color.red, color.green, color.blue, min(color.alpha, 1))
        for ring in rings where ring.count >= 2 {
            for i in ring.indices {
                let p = ring[i], q = ring[(i + 1) % ring.count]
                let x0 = p.x * scale, y0 = p.y * scale, x1 = q.x * scale, y1 = q.y * scale
                let dx = x1 - x0, dy = y1 - y0
                let length = (dx * dx + dy * dy).squareRoot()
                guard length > 1e-9, length.isFinite else { continue }
                if abs(dx) >= abs(dy) {
                    // Along x: in each column the line is `thickness` tall, centred on its height there.
                    let (xa, ya, xb) = dx > 0 ? (x0, y0, x1) : (x1, y1, x0)
                    let slope = dy / dx, thickness = length / abs(dx)
                    let from = max(Int(xa.rounded(.down)), -1), to = min(Int(xb.rounded(.up)) - 1, columns)
                    guard from <= to else { continue }
                    for column in from...to {
                        let left = max(xa, Double(column)), right = min(xb, Double(column + 1))
                        let along = right - left
                        guard along > 0 else { continue }
                        let center = ya + ((left + right) / 2 - xa) * slope
                        let top = center - thickness / 2, bottom = center + thickness / 2
                        for row in Int(top.rounded(.down))...Int(bottom.rounded(.down)) {
                            blend(column, row, (min(bottom, Double(row + 1)) - max(top, Double(row))) * along)
                        }
                    }
                } else {
                    let (ya, xa, yb) = dy > 0 ? (y0, x0, y1) : (y1, x1, y0)
                    let slope = dx / dy, thickness = length / abs(dy)
                    let from = max(Int(ya.rounded(.down)), firstRow - 1), to = min(Int(yb.rounded(.up)) - 1, lastRow)
                    guard from <= to else { continue }
                    for row in from...to {
                        let top = max(ya, Double(row)), bottom = min(yb, Double(row + 1))
                        let along = bottom - top
                        guard along > 0 else { continue }
                        let center = xa + ((top + bottom) / 2 - ya) * slope
                        let left = center - thickness / 2, right = center + thickness / 2
                        for column in Int(left.rounded(.down))...Int(right.rounded(.down)) {
                            blend(column, row, (min(right, Double(column + 1)) - max(left, Double(column))) * along)
                        }
                    }
                }
            }
        }
        }
        return true
    }
}
