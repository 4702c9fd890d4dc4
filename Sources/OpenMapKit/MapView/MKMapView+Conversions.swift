// MKMapView's conversions between the map (coordinates, regions) and the view (points, rects).

import Foundation
import MapGeometry

extension MKMapView {
    /// Where a point of this map view lies in `view`'s coordinates (nil: the window's). Map views
    /// here are not nested, so every frame is in window coordinates.
    private func translate(_ point: CGPoint, to view: MKMapView?) -> CGPoint {
        let target = view.map { $0 === self ? CGPoint.zero : $0.frame.origin } ?? .zero
        let origin = view === self ? CGPoint.zero : frame.origin
        return CGPoint(x: point.x + origin.x - target.x, y: point.y + origin.y - target.y)
    }

    private func translate(_ point: CGPoint, from view: MKMapView?) -> CGPoint {
        let source = view.map { $0 === self ? CGPoint.zero : $0.frame.origin } ?? .zero
        let origin = view === self ? CGPoint.zero : frame.origin
        return CGPoint(x: point.x + source.x - origin.x, y: point.y + source.y - origin.y)
    }

    /// Where `coordinate` appears, in `view`'s coordinates (pass the map view itself for its own;
    /// nil for the window's). Invalid coordinates, coordinates behind a pitched camera and a
    /// zero-size map give (NaN, NaN).
    public func convert(_ coordinate: CLLocationCoordinate2D, toPointTo view: MKMapView?) -> CGPoint {
        guard hasArea, coordinate.latitude.isFinite, coordinate.longitude.isFinite, abs(coordinate.latitude) <= 90 else {
            return CGPoint(x: Double.nan, y: Double.nan)
        }
        return translate(viewport.convert(coordinate), to: view)
    }

    /// The coordinate under `point`, given in `view`'s coordinates (the map view itself, or nil for
    /// the window). A non-finite point or a zero-size map gives `kCLLocationCoordinate2DInvalid`.
    /// Points beyond a pitched map's horizon give the farthest ground the camera sees that way.
    public func convert(_ point: CGPoint, toCoordinateFrom view: MKMapView?) -> CLLocationCoordinate2D {
        guard hasArea, point.x.isFinite, point.y.isFinite else { return kCLLocationCoordinate2DInvalid }
        let c = viewport.convert(translate(point, from: view))
        return CLLocationCoordinate2DIsValid(c) ? c : kCLLocationCoordinate2DInvalid
    }

    /// The rectangle, in `view`'s coordinates, that encloses `region`. Invalid regions and a
    /// zero-size map give `CGRect.null`.
    public func convert(_ region: MKCoordinateRegion, toRectTo view: MKMapView?) -> CGRect {
        guard hasArea, MKMapView.isUsable(region) else { return .null }
        let rect = viewport.convert(region)
        guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else { return .null }
        let origin = translate(rect.origin, to: view)
        return CGRect(origin: origin, size: rect.size)
    }

    /// The region enclosing `rect`, given in `view`'s coordinates. Non-finite rectangles and a
    /// zero-size map give the empty region at (0, 0).
    public func convert(_ rect: CGRect, toRegionFrom view: MKMapView?) -> MKCoordinateRegion {
        guard hasArea, !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else {
            return MKCoordinateRegion()
        }
        let origin = translate(rect.origin, from: view)
        return viewport.convert(CGRect(origin: origin, size: rect.size))
    }
}
