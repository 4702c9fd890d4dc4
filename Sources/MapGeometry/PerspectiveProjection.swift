import Foundation

/// ``MapViewport``'s pitched camera as a map between view offsets and the ground plane: a
/// pinhole ``MapViewport``'s 1.5 view heights from the centre, tilted by the pitch, with focal
/// length equal to that distance so the centre keeps scale 1 across the view. The viewport's
/// conversions and the renderer's perspective warp both go through it, so what is drawn and
/// where the map view says it is cannot drift apart.
///
/// Ground offsets are in points at the centre's scale, in the flat view's axes (x right, y down):
/// a heading-rotated flat map shows ground (x, y) at view offset (x, y). Writing
/// D = H·cos p + dy·sin p (H the camera distance, p the pitch), a view offset (dx, dy) from the
/// centre shows the ground at (H·cos p·dx / D, H·dy / D).
public struct PerspectiveProjection: Sendable {
    public let width: Double, height: Double
    public let cosPitch: Double, sinPitch: Double
    /// The camera's distance from the centre, in points.
    public let cameraDistance: Double

    public init(width: Double, height: Double, pitch degrees: Double) {
        (self.width, self.height) = (width, height)
        let radians = degrees * .pi / 180
        (cosPitch, sinPitch) = (cos(radians), sin(radians))
        cameraDistance = MapViewport.cameraHeightInViewHeights * height
    }

    /// The ground seen at a view offset from the centre; nil at and above the horizon.
    public func ground(dx: Double, dy: Double) -> (x: Double, y: Double)? {
        let d = cameraDistance * cosPitch + dy * sinPitch
        guard d > 1e-9 * cameraDistance else { return nil }
        return (cameraDistance * cosPitch * dx / d, cameraDistance * dy / d)
    }

    /// The ground seen at a view offset, a ray at or above the horizon taken as just below it
    /// (a very far point on its line): what a viewport gives for view points beyond its pitched
    /// view, which the steepest pitch keeps off its own rows.
    public func groundClampedBelowHorizon(dx: Double, dy: Double) -> (x: Double, y: Double) {
        let d = max(cameraDistance * cosPitch + dy * sinPitch, 1e-9)
        return (cameraDistance * cosPitch * dx / d, cameraDistance * dy / d)
    }

    /// How far in front of the camera ground `y` points ahead of the centre (negative `y`) lies,
    /// along the view's axis, in points; 0 and below is at or behind the camera.
    public func depth(groundY y: Double) -> Double { cameraDistance - y * sinPitch }

    /// Where a ground offset appears, as an offset from the view's centre; nil behind the camera.
    public func view(groundX x: Double, groundY y: Double) -> (dx: Double, dy: Double)? {
        let depth = depth(groundY: y)
        guard depth > 0 else { return nil }
        return (cameraDistance * x / depth, cameraDistance * y * cosPitch / depth)
    }

    /// How far in front of the camera a point `z` points above the ground offset (x, y) lies,
    /// along the view's axis, in points; 0 and below is at or behind the camera. The camera
    /// stands above ground (0, H·sin p) at height H·cos p.
    public func depth(groundY y: Double, height z: Double) -> Double { cameraDistance - y * sinPitch - z * cosPitch }

    /// Where a point `z` points above a ground offset appears, as an offset from the view's
    /// centre; nil at or behind the camera. Height 0 is ``view(groundX:groundY:)``: the same
    /// pinhole, so what stands on the ground meets the warped flat map where it stands.
    public func view(groundX x: Double, groundY y: Double, height z: Double) -> (dx: Double, dy: Double)? {
        let depth = depth(groundY: y, height: z)
        guard depth > 0 else { return nil }
        return (cameraDistance * x / depth, cameraDistance * (y * cosPitch - z * sinPitch) / depth)
    }

    /// The camera's position: the ground offset below it and its height, in points.
    public var cameraPosition: (x: Double, y: Double, z: Double) { (0, cameraDistance * sinPitch, cameraDistance * cosPitch) }

    /// View points per ground point across the view, on the row `dy` below the centre: 1 at the
    /// centre, more toward the viewer, 0 at the horizon. (Along the view the ground is foreshortened
    /// further, by cos p at the centre.)
    public func scale(atRow dy: Double) -> Double { 1 + dy * sinPitch / (cameraDistance * cosPitch) }

    /// The row offset (from the centre) where ``scale(atRow:)`` is `scale`.
    public func row(atScale scale: Double) -> Double { (scale - 1) * cameraDistance * cosPitch / sinPitch }
}
