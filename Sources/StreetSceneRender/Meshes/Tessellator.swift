// Polygons with holes into triangles, by GLU's tessellator (Mesa's libGLU, the one OpenGL programs
// have used for decades): robust with holes, touching rings and self-intersections, where a
// hand-written ear clipper would need its own years of fixes. It needs no GL context.

import CGLU

/// Triangulates polygons given as rings of points in the plane.
enum Tessellator {
    /// The triangles of `rings` (outer rings and holes, any orientation; the odd winding rule decides
    /// what is inside), as the points they use (inputs first, then any GLU had to add where rings
    /// cross) and index triples into them.
    static func triangulate(_ rings: [[ScenePoint2]]) -> (points: [ScenePoint2], triangles: [UInt32]) {
        let total = rings.reduce(0) { $0 + $1.count }
        guard total >= 3, let tess = gluNewTess() else { return ([], []) }
        defer { gluDeleteTess(tess) }
        let context = Context()
        context.points.reserveCapacity(total)
        // GLU keeps pointers to each vertex's coordinates until the polygon ends.
        let coordinates = UnsafeMutablePointer<GLdouble>.allocate(capacity: total * 3)
        defer { coordinates.deallocate() }

        gluTessProperty(tess, GLenum(GLU_TESS_WINDING_RULE), GLdouble(GLU_TESS_WINDING_ODD))
        gluTessNormal(tess, 0, 0, 1)
        // An edge-flag callback makes GLU hand out plain triangles, never fans or strips.
        let edgeFlag: @convention(c) (GLboolean, UnsafeMutableRawPointer?) -> Void = { _, _ in }
        let vertex: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { data, polygon in
            guard let polygon else { return }
            let context = Unmanaged<Context>.fromOpaque(polygon).takeUnretainedValue()
            context.triangles.append(UInt32(Int(bitPattern: data) - 1))
        }
        let combine: @convention(c) (UnsafeMutablePointer<GLdouble>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                                     UnsafeMutablePointer<GLfloat>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                                     UnsafeMutableRawPointer?) -> Void = { coords, _, _, out, polygon in
            guard let coords, let out, let polygon else { return }
            let context = Unmanaged<Context>.fromOpaque(polygon).takeUnretainedValue()
            context.points.append(ScenePoint2(x: coords[0], y: coords[1]))
            out.pointee = UnsafeMutableRawPointer(bitPattern: context.points.count)
        }
        let error: @convention(c) (GLenum, UnsafeMutableRawPointer?) -> Void = { _, polygon in
            guard let polygon else { return }
            Unmanaged<Context>.fromOpaque(polygon).takeUnretainedValue().failed = true
        }
        gluTessCallback(tess, GLenum(GLU_TESS_EDGE_FLAG_DATA), unsafeBitCast(edgeFlag, to: _GLUfuncptr.self))
        gluTessCallback(tess, GLenum(GLU_TESS_VERTEX_DATA), unsafeBitCast(vertex, to: _GLUfuncptr.self))
        gluTessCallback(tess, GLenum(GLU_TESS_COMBINE_DATA), unsafeBitCast(combine, to: _GLUfuncptr.self))
        gluTessCallback(tess, GLenum(GLU_TESS_ERROR_DATA), unsafeBitCast(error, to: _GLUfuncptr.self))

        let unmanaged = Unmanaged.passUnretained(context)
        gluTessBeginPolygon(tess, unmanaged.toOpaque())
        var slot = 0
        for ring in rings where ring.count >= 3 {
            gluTessBeginContour(tess)
            for point in ring {
                context.points.append(point)
                let c = coordinates + slot * 3
                c[0] = point.x
                c[1] = point.y
                c[2] = 0
                slot += 1
                // The vertex's data is its index + 1 (a null pointer would mean no data).
                gluTessVertex(tess, c, UnsafeMutableRawPointer(bitPattern: context.points.count))
            }
            gluTessEndContour(tess)
        }
        gluTessEndPolygon(tess)
        withExtendedLifetime(context) {}
        guard !context.failed, context.triangles.count % 3 == 0 else { return (context.points, []) }
        return (context.points, context.triangles)
    }

    private final class Context {
        var points: [ScenePoint2] = []
        var triangles: [UInt32] = []
        var failed = false
    }
}
