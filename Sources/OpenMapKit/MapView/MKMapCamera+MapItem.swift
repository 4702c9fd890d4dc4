// MapKit's camera framing a place: MKMapCamera(lookingAt:forViewSize:allowPitch:), from the
// place's extent in the index (its placemark's region) and the size of the view it is for.

import Foundation
import MapGeometry

extension MKMapCamera {
    /// A camera framing `mapItem` in a view of `viewSize` points (MapKit's
    /// `init(lookingAt:forViewSize:allowPitch:)`): centred on the item, north up, from the
    /// distance that shows the item's whole extent (its placemark's region: a town, a park or a
    /// lake whole; a café at street level) with a margin.
    ///
    /// With `allowPitch`, an item framed from closer than ``MKMapCamera/pitchedFramingDistance``
    /// (a building, a square, a small park) is seen at 45° from the same distance, as MapKit
    /// tilts toward the small places it frames; larger ones stay flat. (MapKit does not document
    /// its angles; these are OpenMapKit's.) An item with an invalid coordinate, or an empty or
    /// non-finite view size, gives a camera looking at the item's coordinate from 1,000 m.
    public convenience init(lookingAt mapItem: MKMapItem, forViewSize viewSize: CGSize, allowPitch: Bool) {
        let coordinate = mapItem.placemark.coordinate
        guard CLLocationCoordinate2DIsValid(coordinate), viewSize.width.isFinite, viewSize.height.isFinite,
              viewSize.width > 0, viewSize.height > 0 else {
            self.init(lookingAtCenter: coordinate, fromDistance: 1000, pitch: 0, heading: 0)
            return
        }
        let viewport = MapViewport(size: viewSize, visibleMapRect: mapItem.framingRect, edgePadding: MKMapCamera.framingPadding)
        let distance = viewport.centerCoordinateDistance
        let pitch = allowPitch && distance < MKMapCamera.pitchedFramingDistance ? MKMapCamera.framingPitch : 0
        self.init(lookingAtCenter: coordinate, fromDistance: distance, pitch: pitch, heading: 0)
    }

    /// The same camera as ``init(lookingAt:forViewSize:allowPitch:)`` (MapKit's Objective-C
    /// spelling, which Swift also offers).
    public convenience init(lookingAtMapItem mapItem: MKMapItem, forViewSize viewSize: CGSize, allowPitch: Bool) {
        self.init(lookingAt: mapItem, forViewSize: viewSize, allowPitch: allowPitch)
    }

    /// Items framed from closer than this many metres are tilted when pitch is allowed.
    public static let pitchedFramingDistance: CLLocationDistance = 3000

    /// The tilt of a pitched framing, in degrees.
    static let framingPitch = 45.0
    /// The margin left around a framed item, in points.
    static let framingPadding = MKEdgeInsets(top: 40, left: 40, bottom: 40, right: 40)
}

extension MKMapItem {
    /// The square, in map points, that holds the item's extent: its placemark's region (the
    /// circle reaching its outline's corners in the index), at least 100 m around it so a point
    /// is framed with its street.
    var framingRect: MKMapRect {
        let coordinate = placemark.coordinate
        let radius = max((placemark.region as? CLCircularRegion).map { $0.radius.isFinite ? $0.radius : 0 } ?? 0, 100)
        let points = radius * MKMapPointsPerMeterAtLatitude(coordinate.latitude)
        let center = MKMapPoint(coordinate)
        return MKMapRect(x: center.x - points, y: center.y - points, width: 2 * points, height: 2 * points)
    }
}
