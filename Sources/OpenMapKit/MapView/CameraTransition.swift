// What a camera change may ask of the map view beyond MapKit's `animated: Bool`: a duration, a
// timing curve, Mapbox's "powered flight" path, a padding the centre is measured in, a reason
// reported to the delegate and a completion handler. MapKit's face animates with its fixed curve;
// Mapbox's face (MGLMapView) passes these through `MKMapView.move(to:padding:transition:)`.

import Foundation
import MapGeometry
import MapStyle

/// A timing curve for animations (Core Animation's `CAMediaTimingFunction`): a cubic Bézier
/// from (0, 0) to (1, 1) whose two control points say how the fraction of the change done
/// follows the fraction of the time gone.
///
/// Differs from Core Animation: a plain value (not an `NSObject`), usable only where OpenMapKit
/// takes a timing function (Mapbox's camera methods); ``value(at:)`` evaluates it.
public final class CAMediaTimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// The control points' coordinates: (c1x, c1y, c2x, c2y).
    private let c1x: Double, c1y: Double, c2x: Double, c2y: Double

    /// One of Core Animation's named curves.
    public convenience init(name: CAMediaTimingFunctionName) {
        switch name {
        case .linear: self.init(controlPoints: 0, 0, 1, 1)
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        }
    }

    /// A curve through the control points (c1x, c1y) and (c2x, c2y). The x coordinates are
    /// clamped to 0 … 1 (Core Animation requires it); non-finite values read as those of the
    /// linear curve.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        func clean(_ v: Float, _ fallback: Double, clamp: Bool) -> Double {
            guard v.isFinite else { return fallback }
            return clamp ? min(max(Double(v), 0), 1) : Double(v)
        }
        self.c1x = clean(c1x, 0, clamp: true)
        self.c1y = clean(c1y, 0, clamp: false)
        self.c2x = clean(c2x, 1, clamp: true)
        self.c2y = clean(c2y, 1, clamp: false)
    }

    /// Copies control point `idx` (0 … 3: the start (0, 0), the two control points, the end
    /// (1, 1)) into `ptr[0]` and `ptr[1]`, as Core Animation does; other indices copy nothing.
    public func getControlPoint(at idx: Int, values ptr: UnsafeMutablePointer<Float>) {
        let point: (Double, Double)
        switch idx {
        case 0: point = (0, 0)
        case 1: point = (c1x, c1y)
        case 2: point = (c2x, c2y)
        case 3: point = (1, 1)
        default: return
        }
        ptr[0] = Float(point.0)
        ptr[1] = Float(point.1)
    }

    /// The fraction of the change done when `x` of the time has gone (an OpenMapKit addition):
    /// the curve's y where its x is `x` (clamped to 0 … 1), solved to 1e-7.
    public func value(at x: Double) -> Double {
        guard x.isFinite else { return 1 }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return UnitBezier(c1x, c1y, c2x, c2y).solve(x, epsilon: 1e-7)
    }

    public static func == (a: CAMediaTimingFunction, b: CAMediaTimingFunction) -> Bool {
        a.c1x == b.c1x && a.c1y == b.c1y && a.c2x == b.c2x && a.c2y == b.c2y
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(c1x)
        hasher.combine(c1y)
        hasher.combine(c2x)
        hasher.combine(c2y)
    }

    public var description: String { "CAMediaTimingFunction(\(c1x), \(c1y), \(c2x), \(c2y))" }
}

/// The names of Core Animation's predefined timing curves (`CAMediaTimingFunctionName`).
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Constant speed: control points (0, 0) and (1, 1).
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// Starting slowly: (0.42, 0) and (1, 1).
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// Ending slowly: (0, 0) and (0.58, 1).
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// Starting and ending slowly: (0.42, 0) and (0.58, 1).
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// Core Animation's default curve: (0.25, 0.1) and (0.25, 1).
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// Why the camera moves, reported to faces that tell their delegate (Mapbox's
/// `MGLCameraChangeReason` bits; MapKit's face ignores it).
struct MapViewChangeReason: OptionSet, Hashable {
    let rawValue: UInt
    static let programmatic = MapViewChangeReason(rawValue: 1 << 0)
    static let resetNorth = MapViewChangeReason(rawValue: 1 << 1)
    static let gesturePan = MapViewChangeReason(rawValue: 1 << 2)
    static let gesturePinch = MapViewChangeReason(rawValue: 1 << 3)
    static let gestureRotate = MapViewChangeReason(rawValue: 1 << 4)
    static let gestureZoomIn = MapViewChangeReason(rawValue: 1 << 5)
    static let gestureZoomOut = MapViewChangeReason(rawValue: 1 << 6)
    static let gestureOneFingerZoom = MapViewChangeReason(rawValue: 1 << 7)
    static let gestureTilt = MapViewChangeReason(rawValue: 1 << 8)
    static let transitionCancelled = MapViewChangeReason(rawValue: 1 << 16)

    static let anyGesture: MapViewChangeReason = [.gesturePan, .gesturePinch, .gestureRotate, .gestureZoomIn, .gestureZoomOut,
                                                  .gestureOneFingerZoom, .gestureTilt]
}

/// How a camera change runs (see ``MKMapView/move(to:padding:transition:)``).
struct CameraTransition {
    /// Seconds; 0 (or less) jumps. For a flight, nil is the duration MapLibre derives from the
    /// path's length.
    var duration: TimeInterval? = 0
    /// The timing curve; nil is the engine's own ease-in-out (MapKit's face), or for a flight
    /// MapLibre's default ease (0, 0, 0.25, 1).
    var timing: CAMediaTimingFunction?
    /// Whether the path is Mapbox's powered flight (zoom out, pan, zoom in).
    var flies = false
    /// The zoom level the flight must reach at its peak (Mapbox's `peakAltitude`); nil for
    /// the path's natural peak.
    var peakZoom: Double?
    /// Called once when the change ends: after it lands, after it is interrupted by another
    /// change or a gesture (MapLibre's transition-finish rule), or at once when it changes
    /// nothing or jumps. Runs after the change's callbacks, outside them, so it may move the
    /// camera again.
    var completion: (() -> Void)?

    static var jump: CameraTransition { CameraTransition() }
}

/// Mapbox's "powered flight" (van Wijk & Nuij, "Smooth and efficient zooming and panning", 2003),
/// as MapLibre's `Transform::flyTo`: the visible span w(s) and the distance u(s) along the path as
/// functions of the path length s in ρ-screenfuls, with ρ = 1.42 (or the ρ that makes the path
/// peak at a given zoom). Spans and distances are in points at the start zoom.
struct FlightPath: Equatable {
    let startZoom: Double
    let endZoom: Double
    let rho: Double
    let r0: Double
    let w0: Double
    let w1: Double
    let u1: Double
    let isClose: Bool
    /// The path's length in ρ-screenfuls.
    let length: Double

    /// MapLibre's average speed: 1.2 ρ-screenfuls per second.
    static let velocity = 1.2
    /// MapLibre's ρ: the mean of what van Wijk's study's participants chose.
    static let defaultRho = 1.42

    /// The path from `a` to `b` (their centres, zooms) seen in a view whose padded area is
    /// `span` points across (the larger side, as MapLibre's w₀). `peakZoom`, when given, is
    /// lowered to the lower end's zoom and clamped to `zoomLimits`, then fixes ρ.
    init(from a: MapViewport, to b: MapViewport, span: Double, peakZoom: Double?, zoomLimits: ClosedRange<Double>) {
        startZoom = a.zoomLevel
        endZoom = b.zoomLevel
        let scale = exp2(startZoom - 19)  // points per map point at the start zoom
        let start = MKMapPoint(a.centerCoordinate), end = MKMapPoint(b.centerCoordinate)
        var dx = end.x - start.x
        if dx > MKMapSize.worldWidth / 2 { dx -= MKMapSize.worldWidth }
        if dx < -MKMapSize.worldWidth / 2 { dx += MKMapSize.worldWidth }
        let distance = hypot(dx, end.y - start.y) * scale
        let w0 = max(span, 1)
        let w1 = w0 / exp2(endZoom - startZoom)
        let u1 = distance
        var rho = FlightPath.defaultRho
        if let peakZoom {
            var minimum = min(peakZoom, startZoom, endZoom)
            minimum = min(max(minimum, zoomLimits.lowerBound), zoomLimits.upperBound)
            let wMax = w0 / exp2(minimum - startZoom)
            rho = u1 != 0 ? (wMax / u1 * 2).squareRoot() : 1
        }
        let rho2 = rho * rho
        func r(_ descent: Bool) -> Double {
            let b = (w1 * w1 - w0 * w0 + (descent ? -1 : 1) * rho2 * rho2 * u1 * u1) / (2 * (descent ? w1 : w0) * rho2 * u1)
            return log((b * b + 1).squareRoot() - b)
        }
        let r0 = u1 != 0 ? r(false) : .infinity
        let r1 = u1 != 0 ? r(true) : .infinity
        let isClose = abs(u1) < 1e-6 || !r0.isFinite || !r1.isFinite
        (self.w0, self.w1, self.u1, self.rho, self.r0, self.isClose) = (w0, w1, u1, rho, r0, isClose)
        length = isClose ? abs(log(w1 / w0)) / rho : (r1 - r0) / rho
    }

    /// The duration MapLibre gives a flight with no duration: its length at 1.2 ρ-screenfuls per second.
    var defaultDuration: TimeInterval { length.isFinite ? max(length / FlightPath.velocity, 0) : 0 }

    /// The visible span at `s` ρ-screenfuls along, relative to the start's.
    private func w(_ s: Double) -> Double {
        isClose ? exp((w1 < w0 ? -1 : 1) * rho * s) : cosh(r0) / cosh(r0 + rho * s)
    }

    /// The fraction of the ground distance covered at `s`.
    private func u(_ s: Double) -> Double {
        isClose ? 0 : w0 * (cosh(r0) * tanh(r0 + rho * s) - sinh(r0)) / (rho * rho) / u1
    }

    /// The zoom level and the fraction of the way (centre) at eased progress `k` (0 … 1).
    func state(at k: Double) -> (zoom: Double, fraction: Double) {
        if k >= 1 { return (endZoom, 1) }
        let s = k * length
        var zoom = startZoom + log2(1 / w(s))
        if !zoom.isFinite { zoom = endZoom }
        let fraction = u(s)
        return (zoom, fraction.isFinite ? fraction : k)
    }
}

extension MapViewport {
    /// The view point that a padding's centre is at: the middle of the frame less `padding`.
    func paddedCenter(_ padding: MKEdgeInsets) -> CGPoint {
        CGPoint(x: (Double(size.width) + Double(padding.left) - Double(padding.right)) / 2,
                y: (Double(size.height) + Double(padding.top) - Double(padding.bottom)) / 2)
    }

    /// This viewport with its centre replaced by the coordinate shown at the padded area's centre
    /// (what Mapbox calls the centre when the view has insets). Zero padding changes nothing.
    func logical(padding: MKEdgeInsets) -> MapViewport {
        guard padding != .zero, size.width > 0, size.height > 0 else { return self }
        let p = mapPoint(for: paddedCenter(padding))
        guard p.x.isFinite, p.y.isFinite else { return self }
        var v = self
        v.centerCoordinate = MapViewportAnchor.wrapped(p).coordinate.normalized
        return v
    }

    /// The viewport (same zoom, heading and pitch) that shows this viewport's centre at the
    /// padded area's centre: the inverse of ``logical(padding:)``.
    func framed(padding: MKEdgeInsets) -> MapViewport {
        guard padding != .zero, size.width > 0, size.height > 0 else { return self }
        return moved(MKMapPoint(centerCoordinate), to: paddedCenter(padding))
    }

    /// This viewport moved so that map point `anchor` shows at `point` (exact when flat; a few
    /// refinements when pitched, where the scale varies across the view).
    func moved(_ anchor: MKMapPoint, to point: CGPoint) -> MapViewport {
        guard anchor.x.isFinite, anchor.y.isFinite else { return self }
        var next = self
        for _ in 0..<6 {
            let now = next.mapPoint(for: point)
            guard now.x.isFinite, now.y.isFinite else { break }
            var dx = anchor.x - now.x
            if dx > MKMapSize.worldWidth / 2 { dx -= MKMapSize.worldWidth }
            if dx < -MKMapSize.worldWidth / 2 { dx += MKMapSize.worldWidth }
            let dy = anchor.y - now.y
            if abs(dx) < 1e-6, abs(dy) < 1e-6 { break }
            let c = MKMapPoint(next.centerCoordinate)
            next.centerCoordinate = MapViewportAnchor.wrapped(MKMapPoint(x: c.x + dx, y: c.y + dy)).coordinate.normalized
        }
        return next
    }
}

extension MKEdgeInsets {
    /// The sum of two insets, side by side.
    static func + (a: MKEdgeInsets, b: MKEdgeInsets) -> MKEdgeInsets {
        MKEdgeInsets(top: a.top + b.top, left: a.left + b.left, bottom: a.bottom + b.bottom, right: a.right + b.right)
    }

    /// The insets `t` of the way from `a` to `b`.
    static func interpolate(_ a: MKEdgeInsets, _ b: MKEdgeInsets, _ t: Double) -> MKEdgeInsets {
        func mix(_ x: CGFloat, _ y: CGFloat) -> CGFloat { x + (y - x) * CGFloat(t) }
        return MKEdgeInsets(top: mix(a.top, b.top), left: mix(a.left, b.left), bottom: mix(a.bottom, b.bottom), right: mix(a.right, b.right))
    }
}
