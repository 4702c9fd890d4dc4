import Foundation

/// Screen points per map point (MapKit's `MKZoomScale`).
public typealias MKZoomScale = CGFloat

/// Insets from the edges of a view, in screen points (UIKit's `UIEdgeInsets`, AppKit's `NSEdgeInsets`).
public struct MKEdgeInsets: Hashable, Sendable, Codable {
    public var top: CGFloat
    public var left: CGFloat
    public var bottom: CGFloat
    public var right: CGFloat

    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = MKEdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// UIKit's name for ``MKEdgeInsets``, so MapKit code that pads map rects compiles unchanged.
public typealias UIEdgeInsets = MKEdgeInsets
/// AppKit's name for ``MKEdgeInsets``.
public typealias NSEdgeInsets = MKEdgeInsets

/// What a map of a given size in screen points shows: the viewport math behind `MKMapView`'s
/// `region`, `visibleMapRect`, `camera` and `convert` methods, and behind snapshots.
///
/// **Zoom convention.** Zoom levels follow MapLibre: at zoom 0 the whole world is 512 × 512
/// points, and each level doubles it. So one screen point covers 2^(19 − zoom) map points
/// (MapKit's world is 2^28 map points wide), and a 512-point tile at zoom z is a z/x/y tile.
///
/// **Camera distance.** The camera is a pinhole with MapLibre's vertical field of view,
/// 2·atan(1/3) ≈ 36.87°, so it sits 1.5 view heights above the centre: `centerCoordinateDistance`
/// = 1.5 × height × metres per point at the centre latitude.
///
/// **Heading and pitch.** Heading turns the map so that direction points up the screen; pitch
/// tilts the ground plane away from the viewer, up to ``maximumPitch``. ``visibleMapRect`` and
/// ``region`` enclose everything visible, so they grow with heading and pitch.
public struct MapViewport: Hashable, Sendable {
    /// The world's width in screen points at zoom 0.
    public static let worldPointsAtZoomZero: Double = 512
    /// The vertical field of view, in radians: 2·atan(1/3).
    public static let fieldOfView: Double = 2 * atan(1.0 / 3.0)
    /// The steepest pitch the viewport allows, in degrees (as MapLibre's default).
    public static let maximumPitch: Double = 60

    /// The view's size in screen points.
    public var size: CGSize
    /// The coordinate at the centre of the view.
    public var centerCoordinate: CLLocationCoordinate2D
    /// The zoom level (see the zoom convention above).
    public var zoomLevel: Double
    /// Degrees clockwise from true north that the top of the view faces.
    public var heading: CLLocationDirection
    /// Degrees from looking straight down, clamped to 0 … ``maximumPitch`` when used.
    public var pitch: Double

    public init(size: CGSize, centerCoordinate: CLLocationCoordinate2D, zoomLevel: Double,
                heading: CLLocationDirection = 0, pitch: Double = 0) {
        self.size = size
        self.centerCoordinate = centerCoordinate
        self.zoomLevel = zoomLevel.isFinite ? zoomLevel : 0
        self.heading = heading.isFinite ? heading : 0
        self.pitch = pitch.isFinite ? pitch : 0
    }

    /// The viewport that shows `mapRect` whole, north up and flat, keeping `edgePadding`
    /// clear around it (``mapRectThatFits(_:edgePadding:)`` gives what it then shows).
    ///
    /// A zero-size view or a zero-area rect has no scale to fit: the viewport is centred on the
    /// rect at zoom 0 (a null or non-finite rect gives the centre (0, 0)).
    public init(size: CGSize, visibleMapRect mapRect: MKMapRect, edgePadding: MKEdgeInsets = .zero) {
        self.init(size: size, centerCoordinate: CLLocationCoordinate2D(), zoomLevel: 0)
        let fitted = mapRectThatFits(mapRect, edgePadding: edgePadding)
        guard !fitted.isNull, fitted.midX.isFinite, fitted.midY.isFinite else { return }
        centerCoordinate = MKMapPoint(x: fitted.midX, y: fitted.midY).coordinate.normalized
        guard fitted.width > 0, fitted.width.isFinite, size.width > 0, size.height > 0 else { return }
        zoomLevel = 19 - log2(fitted.width / Double(size.width))
    }

    /// The viewport that shows `region` whole, keeping its centre; reading ``region`` back gives
    /// the region adjusted to the view's aspect ratio (``regionThatFits(_:)``), as MapKit does.
    public init(size: CGSize, region: MKCoordinateRegion) {
        self.init(size: size, visibleMapRect: MKMapRect(region))
    }

    /// The viewport a camera sees in a view of `size`.
    public init(size: CGSize, camera: MKMapCamera) {
        self.init(size: size, centerCoordinate: camera.centerCoordinate,
                  zoomLevel: MapViewport.zoomLevel(forCenterCoordinateDistance: camera.centerCoordinateDistance,
                                                   latitude: camera.centerCoordinate.latitude, viewHeight: Double(size.height)),
                  heading: camera.heading, pitch: camera.pitch)
    }

    /// Map points per screen point: 2^(19 − zoom).
    public var mapPointsPerPoint: Double { exp2(19 - zoomLevel) }

    /// Screen points per map point.
    public var zoomScale: MKZoomScale { MKZoomScale(1 / mapPointsPerPoint) }

    /// Metres per screen point at the centre latitude.
    public var metersPerPoint: CLLocationDistance {
        mapPointsPerPoint * MKMetersPerMapPointAtLatitude(centerCoordinate.latitude)
    }

    /// Metres from the centre coordinate to the camera.
    public var centerCoordinateDistance: CLLocationDistance {
        MapViewport.cameraHeightInViewHeights * Double(size.height) * metersPerPoint
    }

    /// The camera of this viewport.
    public var camera: MKMapCamera {
        MKMapCamera(lookingAtCenter: centerCoordinate, fromDistance: centerCoordinateDistance,
                    pitch: effectivePitch, heading: heading)
    }

    /// The zoom level at which a camera `distance` metres from a point at `latitude` shows a view
    /// `viewHeight` points tall.
    public static func zoomLevel(forCenterCoordinateDistance distance: CLLocationDistance, latitude: CLLocationDegrees,
                                 viewHeight: Double) -> Double {
        guard distance > 0, viewHeight > 0 else { return 0 }
        let metersPerPoint = distance / (cameraHeightInViewHeights * viewHeight)
        return 19 - log2(metersPerPoint / MKMetersPerMapPointAtLatitude(latitude))
    }

    /// 0.5 / tan(fov / 2) = 1.5: the camera's distance from the centre in view heights.
    static let cameraHeightInViewHeights = 0.5 / tan(fieldOfView / 2)

    /// The bounding rectangle of everything visible. It may reach past the world's sides
    /// (``MKMapRect/spans180thMeridian``).
    public var visibleMapRect: MKMapRect {
        let w = Double(size.width), h = Double(size.height)
        let corners = [CGPoint(x: 0, y: 0), CGPoint(x: w, y: 0), CGPoint(x: 0, y: h), CGPoint(x: w, y: h)]
        var rect = MKMapRect.null
        for corner in corners {
            let p = mapPoint(for: corner)
            rect = rect.union(MKMapRect(x: p.x, y: p.y, width: 0, height: 0))
        }
        return rect
    }

    /// The region enclosing everything visible.
    public var region: MKCoordinateRegion { MKCoordinateRegion(visibleMapRect) }

    /// `region` grown (never shrunk) about its centre to the view's aspect ratio in projected space.
    public func regionThatFits(_ region: MKCoordinateRegion) -> MKCoordinateRegion {
        MKCoordinateRegion(mapRectThatFits(MKMapRect(region)))
    }

    /// The rectangle with the view's aspect ratio that shows `mapRect` whole, centred, inside the
    /// view less `edgePadding` (in screen points). Padding that leaves no room is ignored.
    public func mapRectThatFits(_ mapRect: MKMapRect, edgePadding: MKEdgeInsets = .zero) -> MKMapRect {
        guard !mapRect.isNull else { return .null }
        let w = Double(size.width), h = Double(size.height)
        guard w > 0, h > 0 else { return mapRect }
        var left = Double(edgePadding.left), top = Double(edgePadding.top)
        var innerW = w - left - Double(edgePadding.right), innerH = h - top - Double(edgePadding.bottom)
        if innerW <= 0 || innerH <= 0 { (left, top, innerW, innerH) = (0, 0, w, h) }
        let scale = max(mapRect.width / innerW, mapRect.height / innerH)
        return MKMapRect(x: mapRect.midX - (left + innerW / 2) * scale, y: mapRect.midY - (top + innerH / 2) * scale,
                         width: w * scale, height: h * scale)
    }

    /// Where `coordinate` appears in the view, in points from the top-left corner. A point that
    /// the pitched camera cannot see (behind it) comes back as (NaN, NaN).
    public func convert(_ coordinate: CLLocationCoordinate2D) -> CGPoint {
        point(for: MKMapPoint(unwrapped(coordinate)))
    }

    /// The coordinate shown at `point` (in points from the top-left corner).
    public func convert(_ point: CGPoint) -> CLLocationCoordinate2D {
        mapPoint(for: point).coordinate.normalized
    }

    /// The view rectangle (in points) that encloses `region`.
    public func convert(_ region: MKCoordinateRegion) -> CGRect {
        let rect = MKMapRect(MKCoordinateRegion(center: unwrapped(region.center), span: region.span))
        let corners = [MKMapPoint(x: rect.minX, y: rect.minY), MKMapPoint(x: rect.maxX, y: rect.minY),
                       MKMapPoint(x: rect.minX, y: rect.maxY), MKMapPoint(x: rect.maxX, y: rect.maxY)].map(point(for:))
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// The region enclosing the view rectangle `rect` (in points).
    public func convert(_ rect: CGRect) -> MKCoordinateRegion {
        let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                       CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.maxX, y: rect.maxY)]
        var box = MKMapRect.null
        for corner in corners {
            let p = mapPoint(for: corner)
            box = box.union(MKMapRect(x: p.x, y: p.y, width: 0, height: 0))
        }
        return MKCoordinateRegion(box)
    }

    // MARK: - Screen ↔ map

    /// The pitch drawn and used for conversions: ``pitch`` clamped to 0 … ``maximumPitch``.
    public var effectivePitch: Double { min(max(pitch, 0), MapViewport.maximumPitch) }

    /// The map point under a view point: undo the perspective onto the ground plane, then the
    /// heading, then scale. Ground offsets are in points at the centre's scale.
    public func mapPoint(for point: CGPoint) -> MKMapPoint {
        let dx = Double(point.x) - Double(size.width) / 2
        let dy = Double(point.y) - Double(size.height) / 2
        let (gx, gy) = groundOffset(screenDX: dx, screenDY: dy)
        // Screen-aligned ground vector (x right, y down) turned by the heading into map axes.
        let theta = heading * .pi / 180
        let mx = gx * cos(theta) - gy * sin(theta)
        let my = gx * sin(theta) + gy * cos(theta)
        let center = MKMapPoint(centerCoordinate)
        let scale = mapPointsPerPoint
        return MKMapPoint(x: center.x + mx * scale, y: center.y + my * scale)
    }

    /// The view point showing a map point (the inverse of ``mapPoint(for:)``).
    public func point(for mapPoint: MKMapPoint) -> CGPoint {
        let (gx, gy) = groundOffset(of: mapPoint)
        guard let (dx, dy) = screenOffset(groundX: gx, groundY: gy) else { return CGPoint(x: Double.nan, y: Double.nan) }
        return CGPoint(x: Double(size.width) / 2 + dx, y: Double(size.height) / 2 + dy)
    }

    /// How far in front of the camera a map point lies, along the view's axis, in view heights
    /// (the centre is at 1.5; 0 is the camera's plane, negative is behind it). It is linear in
    /// the map point, so a segment between a point in front and one behind crosses any depth at
    /// the fraction found by interpolating the two depths. A flat viewport sees everything at 1.5.
    public func cameraDepth(of mapPoint: MKMapPoint) -> Double {
        guard effectivePitch != 0, size.height > 0 else { return MapViewport.cameraHeightInViewHeights }
        return projection.depth(groundY: groundOffset(of: mapPoint).y) / Double(size.height)
    }

    /// The pitched camera's projection (see ``PerspectiveProjection``).
    public var projection: PerspectiveProjection {
        PerspectiveProjection(width: Double(size.width), height: Double(size.height), pitch: effectivePitch)
    }

    /// A map point as a ground offset from the centre, in points at the centre's scale, in the
    /// view's axes (the heading undone; x right, y down).
    private func groundOffset(of mapPoint: MKMapPoint) -> (x: Double, y: Double) {
        let center = MKMapPoint(centerCoordinate)
        let scale = mapPointsPerPoint
        let mx = (mapPoint.x - center.x) / scale, my = (mapPoint.y - center.y) / scale
        let theta = heading * .pi / 180
        return (mx * cos(theta) + my * sin(theta), -mx * sin(theta) + my * cos(theta))
    }

    /// Where the ray through a view offset meets the ground, as a ground offset (x right, y down).
    private func groundOffset(screenDX dx: Double, screenDY dy: Double) -> (x: Double, y: Double) {
        if effectivePitch == 0 { return (dx, dy) }
        return projection.groundClampedBelowHorizon(dx: dx, dy: dy)
    }

    /// The inverse of ``groundOffset(screenDX:screenDY:)``; nil for ground behind the camera.
    private func screenOffset(groundX x: Double, groundY y: Double) -> (Double, Double)? {
        if effectivePitch == 0 { return (x, y) }
        return projection.view(groundX: x, groundY: y)
    }

    /// The coordinate with its longitude moved by whole turns to lie within 180° of the centre,
    /// so points just across the 180th meridian land beside the centre, not a world away.
    private func unwrapped(_ coordinate: CLLocationCoordinate2D) -> CLLocationCoordinate2D {
        let offset = normalizedLongitude(coordinate.longitude - centerCoordinate.longitude)
        return CLLocationCoordinate2D(latitude: coordinate.latitude, longitude: centerCoordinate.longitude + offset)
    }
}
