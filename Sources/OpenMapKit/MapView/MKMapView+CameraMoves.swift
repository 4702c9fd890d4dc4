// Camera moves measured in a padding, with durations, timing curves, flights and completion
// handlers (see CameraTransition.swift), and fitting coordinates at any heading: what Mapbox's
// face (MGLMapView) asks of the engine. MapKit's own methods are these with zero padding.

import Foundation
import MapGeometry

extension MKMapView {
    /// What the map shows with its centre measured in `padding`: the coordinate at the centre of
    /// the frame less `padding` (Mapbox's `centerCoordinate` with a content inset).
    func logicalViewport(padding: MKEdgeInsets) -> MapViewport {
        viewport.logical(padding: MKMapView.usable(padding, in: viewport.size))
    }

    /// Moves the camera so that `target`'s centre shows at the centre of the frame less
    /// `padding`, with `target`'s zoom level, heading and pitch (each constrained as every change
    /// is), as `transition` says; the callbacks report `reason`. A target with non-finite values
    /// or an invalid centre changes nothing (its completion still runs).
    func move(to target: MapViewport, padding: MKEdgeInsets, transition: CameraTransition, reason: MapViewChangeReason = .programmatic) {
        let c = target.centerCoordinate
        guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90, target.zoomLevel.isFinite, target.heading.isFinite,
              target.pitch.isFinite else {
            complete(transition.completion)
            return
        }
        let padding = MKMapView.sanitized(padding)
        requestCameraChange(reason: reason) { [self] in
            var logical = target
            logical.size = viewport.size
            logical.centerCoordinate = c.normalized
            logical = constrained(logical)
            let usable = MKMapView.usable(padding, in: viewport.size)
            apply(logical.framed(padding: usable), transition: transition, padding: usable)
        }
    }

    /// `padding`, or zero when it leaves no room in a frame of `size` (as fitting ignores it then).
    static func usable(_ padding: MKEdgeInsets, in size: CGSize) -> MKEdgeInsets {
        padding.left + padding.right < size.width && padding.top + padding.bottom < size.height ? padding : .zero
    }

    /// The viewport (centre measured in `padding`) that shows every coordinate inside the frame
    /// less `padding`, turned to `heading` and tilted to `pitch`, at the nearest zoom level allowed
    /// (``MapViewCameraLimits/maximumZoom`` for a single point). Longitudes beyond ±180° are
    /// kept where they are, so a set that crosses the 180th meridian is fitted across it. The fit
    /// is made on the flat map (a pitched camera shows a little more towards the top). Nil for no
    /// valid coordinates or a zero-size frame.
    func fitting(_ coordinates: [CLLocationCoordinate2D], padding: MKEdgeInsets, heading: Double, pitch: Double) -> MapViewport? {
        let size = viewport.size
        guard size.width > 0, size.height > 0 else { return nil }
        let points = coordinates.filter { $0.latitude.isFinite && $0.longitude.isFinite && abs($0.latitude) <= 90 }
            .map(MKMapView.unwrappedMapPoint)
        guard let first = points.first else { return nil }
        // Screen-aligned axes: the map turned by the heading (as MapViewport's ground offsets).
        let theta = (heading.isFinite ? heading : 0) * .pi / 180
        func screen(_ p: MKMapPoint) -> (x: Double, y: Double) {
            let dx = p.x - first.x, dy = p.y - first.y
            return (dx * cos(theta) + dy * sin(theta), -dx * sin(theta) + dy * cos(theta))
        }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            let s = screen(p)
            (minX, maxX, minY, maxY) = (min(minX, s.x), max(maxX, s.x), min(minY, s.y), max(maxY, s.y))
        }
        let usable = MKMapView.usable(padding, in: size)
        let innerW = Double(size.width - usable.left - usable.right), innerH = Double(size.height - usable.top - usable.bottom)
        let width = maxX - minX, height = maxY - minY
        var zoom = cameraLimits.maximumZoom
        if width > 0 || height > 0 {
            let mapPointsPerPoint = max(width / innerW, height / innerH)
            zoom = min(19 - log2(mapPointsPerPoint), cameraLimits.maximumZoom)
        }
        // The middle of the box, back in map points.
        let mx = (minX + maxX) / 2, my = (minY + maxY) / 2
        let centre = MKMapPoint(x: first.x + mx * cos(theta) - my * sin(theta), y: first.y + mx * sin(theta) + my * cos(theta))
        return MapViewport(size: size, centerCoordinate: MKMapView.coordinate(ofUnwrapped: centre).normalized, zoomLevel: zoom,
                           heading: heading.isFinite ? heading : 0, pitch: pitch.isFinite ? pitch : 0)
    }

    /// The map point of `coordinate` with its longitude taken as it is (beyond ±180° lands past
    /// the world's sides), its latitude clamped to Mercator's.
    static func unwrappedMapPoint(_ coordinate: CLLocationCoordinate2D) -> MKMapPoint {
        let latitude = min(max(coordinate.latitude, -MKMercatorMaximumLatitude), MKMercatorMaximumLatitude)
        let y = MKMapPoint(CLLocationCoordinate2D(latitude: latitude, longitude: 0)).y
        return MKMapPoint(x: (coordinate.longitude + 180) / 360 * MKMapSize.worldWidth, y: y)
    }

    /// The coordinate of a map point whose x may lie past the world's sides (its longitude then
    /// lies beyond ±180°).
    static func coordinate(ofUnwrapped point: MKMapPoint) -> CLLocationCoordinate2D {
        let latitude = MKMapPoint(x: MKMapSize.worldWidth / 2, y: min(max(point.y, 0), MKMapSize.worldWidth)).coordinate.latitude
        return CLLocationCoordinate2D(latitude: latitude, longitude: point.x / MKMapSize.worldWidth * 360 - 180)
    }

    /// The smallest south-west / north-east box holding the ground under the corners of `rect`
    /// (view points), its longitudes continuing past ±180° rather than wrapping; nil for a zero-size
    /// map or a non-finite rectangle.
    func unwrappedBounds(of rect: CGRect) -> (sw: CLLocationCoordinate2D, ne: CLLocationCoordinate2D)? {
        guard hasArea, !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else { return nil }
        // The centre's longitude in −180 … 180; the corners continue from it.
        let centre = MKMapPoint(viewport.centerCoordinate.normalized)
        var minLat = Double.infinity, maxLat = -Double.infinity, minLon = Double.infinity, maxLon = -Double.infinity
        for corner in [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                       CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.maxX, y: rect.maxY)] {
            var p = viewport.mapPoint(for: corner)
            guard p.x.isFinite, p.y.isFinite else { return nil }
            // Keep x within half a world of the centre (the viewport may have wrapped it).
            while p.x - centre.x > MKMapSize.worldWidth / 2 { p.x -= MKMapSize.worldWidth }
            while centre.x - p.x > MKMapSize.worldWidth / 2 { p.x += MKMapSize.worldWidth }
            let c = MKMapView.coordinate(ofUnwrapped: p)
            (minLat, maxLat, minLon, maxLon) = (min(minLat, c.latitude), max(maxLat, c.latitude), min(minLon, c.longitude), max(maxLon, c.longitude))
        }
        return (CLLocationCoordinate2D(latitude: minLat, longitude: minLon), CLLocationCoordinate2D(latitude: maxLat, longitude: maxLon))
    }

    /// Where `coordinate` shows, its longitude taken as it is (so a point at −220° lands where
    /// 140° does when that is on screen beside the centre); (NaN, NaN) when it cannot.
    func unwrappedPoint(for coordinate: CLLocationCoordinate2D) -> CGPoint {
        guard hasArea, coordinate.latitude.isFinite, coordinate.longitude.isFinite else { return CGPoint(x: Double.nan, y: Double.nan) }
        return viewport.point(for: MKMapView.unwrappedMapPoint(coordinate))
    }
}
