import Foundation

/// Where a street scene is seen from: an eye in the scene's local frame (metres; x east, y north,
/// z up, as ``SceneVertex``), where it looks, and the image it makes.
public struct SceneCamera: Sendable, Hashable {
    /// The eye's position east of the scene's origin, in metres.
    public var x: Double
    /// The eye's position north of the scene's origin, in metres.
    public var y: Double
    /// The eye's height above the scene's origin, in metres (Look Around's cameras ride at about 2.5 m).
    public var z: Double
    /// The direction looked along, in degrees clockwise from north: 0 looks along +y, 90 along +x.
    public var heading: Double
    /// How far the view tilts up, in degrees: 0 is level, positive looks up, negative down.
    public var pitch: Double
    /// The angle between the image's left and right edges, in degrees (more than 0, less than 180).
    public var fieldOfView: Double
    /// The image's width in pixels.
    public var width: Int
    /// The image's height in pixels.
    public var height: Int
    /// The nearest distance drawn, in metres.
    public var near: Double
    /// The farthest distance drawn, in metres; the lighting's fog should have hidden everything
    /// before it, so geometry does not visibly end there.
    public var far: Double

    /// A camera at `x`, `y`, `z` looking along `heading`, tilted by `pitch`.
    public init(x: Double, y: Double, z: Double, heading: Double, pitch: Double = 0, fieldOfView: Double = 90,
                width: Int, height: Int, near: Double = 0.5, far: Double = 1500) {
        self.x = x; self.y = y; self.z = z
        self.heading = heading; self.pitch = pitch; self.fieldOfView = fieldOfView
        self.width = width; self.height = height
        self.near = near; self.far = far
    }

    /// The unit vector the camera looks along.
    public var forward: SIMD3<Double> {
        let h = heading * .pi / 180, p = pitch * .pi / 180
        return SIMD3(sin(h) * cos(p), cos(h) * cos(p), sin(p))
    }

    /// The unit vector toward the image's right edge (always horizontal: the camera does not roll).
    public var right: SIMD3<Double> {
        let h = heading * .pi / 180
        return SIMD3(cos(h), -sin(h), 0)
    }

    /// The unit vector toward the image's top edge.
    public var up: SIMD3<Double> {
        let f = forward, r = right
        // right × forward: with f = +y and r = +x this is +z.
        return SIMD3(r.y * f.z - r.z * f.y, r.z * f.x - r.x * f.z, r.x * f.y - r.y * f.x)
    }

    /// The tangents of half the horizontal and half the vertical field of view: how far the image's
    /// edges lie from its centre at one metre in front of the eye.
    var halfExtents: (x: Double, y: Double) {
        let tx = tan(fieldOfView * .pi / 360)
        return (tx, tx * Double(height) / Double(width))
    }

    /// Why this camera cannot be drawn, or nil.
    var problem: String? {
        for (name, value) in [("x", x), ("y", y), ("z", z), ("heading", heading), ("pitch", pitch),
                              ("field of view", fieldOfView), ("near", near), ("far", far)] where !value.isFinite {
            return "camera \(name) is \(value)"
        }
        guard fieldOfView > 0, fieldOfView < 180 else { return "camera field of view \(fieldOfView)° is not between 0° and 180°" }
        guard abs(pitch) < 90 else { return "camera pitch \(pitch)° is not between -90° and 90°" }
        guard near > 0, far > near else { return "camera near \(near) m and far \(far) m are not 0 < near < far" }
        return nil
    }

    /// The matrix taking a position relative to the eye (world position minus eye) to clip space,
    /// column-major as GL reads it. Relative positions keep single precision where it matters, near
    /// the eye, whatever the scene's origin.
    var eyeRelativeViewProjection: [Float] {
        let r = right, u = up, f = forward
        let (tx, ty) = halfExtents
        // View: rows are right, up and −forward (GL looks down −z). Projection: the usual perspective
        // frustum with x and y scaled by 1 / tan(half angle).
        let a = -(far + near) / (far - near), b = -2 * far * near / (far - near)
        let sx = 1 / tx, sy = 1 / ty
        // Row-major product P × V, then transposed into GL's column-major order.
        let rows: [[Double]] = [
            [sx * r.x, sx * r.y, sx * r.z, 0],
            [sy * u.x, sy * u.y, sy * u.z, 0],
            [-a * f.x, -a * f.y, -a * f.z, b],
            [f.x, f.y, f.z, 0],
        ]
        var m = [Float](repeating: 0, count: 16)
        for row in 0..<4 { for column in 0..<4 { m[column * 4 + row] = Float(rows[row][column]) } }
        return m
    }
}
