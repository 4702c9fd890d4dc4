import Foundation

/// A virtual viewpoint above the map: where it looks, from how far, tilted how much, facing where.
///
/// A class, as in MapKit: assigning a camera shares it; call ``copy()`` for an independent one.
public final class MKMapCamera: CustomStringConvertible {
    /// The coordinate at the centre of the view.
    public var centerCoordinate: CLLocationCoordinate2D
    /// Metres from the centre coordinate to the camera, along the line of sight.
    public var centerCoordinateDistance: CLLocationDistance
    /// Degrees clockwise from true north that the top of the view faces.
    public var heading: CLLocationDirection
    /// Degrees from looking straight down (0) toward the horizon.
    public var pitch: Double

    /// The camera looking straight down at (0, 0) from 0 m, facing north.
    public init() {
        centerCoordinate = CLLocationCoordinate2D()
        centerCoordinateDistance = 0
        heading = 0
        pitch = 0
    }

    /// A camera `distance` metres from `centerCoordinate` along a line tilted `pitch` degrees
    /// from vertical, facing `heading`.
    public convenience init(lookingAtCenter centerCoordinate: CLLocationCoordinate2D, fromDistance distance: CLLocationDistance,
                            pitch: Double, heading: CLLocationDirection) {
        self.init()
        self.centerCoordinate = centerCoordinate
        self.centerCoordinateDistance = distance
        self.pitch = pitch
        self.heading = heading
    }

    /// A camera at `eyeCoordinate`, `eyeAltitude` metres up, looking at `centerCoordinate`.
    /// The heading is the geodesic azimuth from eye to centre; the pitch follows from the ground
    /// distance and the altitude. An eye straight above the centre looks down, facing north.
    public convenience init(lookingAtCenter centerCoordinate: CLLocationCoordinate2D,
                            fromEyeCoordinate eyeCoordinate: CLLocationCoordinate2D, eyeAltitude: CLLocationDistance) {
        let path = Geodesic.wgs84.inverse(latitude1: eyeCoordinate.latitude, longitude1: eyeCoordinate.longitude,
                                          latitude2: centerCoordinate.latitude, longitude2: centerCoordinate.longitude)
        let ground = path.distance
        let heading = ground > 0 ? (path.azimuth1 < 0 ? path.azimuth1 + 360 : path.azimuth1) : 0
        self.init(lookingAtCenter: centerCoordinate, fromDistance: (ground * ground + eyeAltitude * eyeAltitude).squareRoot(),
                  pitch: atan2(ground, eyeAltitude) * 180 / .pi, heading: heading)
    }

    /// Height of the camera above the ground, in metres (MapKit's deprecated `altitude`):
    /// `centerCoordinateDistance · cos(pitch)`. Setting it keeps the pitch.
    public var altitude: CLLocationDistance {
        get { centerCoordinateDistance * cos(pitch * .pi / 180) }
        set { centerCoordinateDistance = newValue / cos(pitch * .pi / 180) }
    }

    /// An independent copy (MapKit's NSCopying).
    public func copy() -> MKMapCamera {
        MKMapCamera(lookingAtCenter: centerCoordinate, fromDistance: centerCoordinateDistance, pitch: pitch, heading: heading)
    }

    public var description: String {
        "MKMapCamera(center: \(centerCoordinate.latitude),\(centerCoordinate.longitude), distance: \(centerCoordinateDistance) m, pitch: \(pitch)°, heading: \(heading)°)"
    }
}

extension MKMapCamera: Equatable {
    public static func == (a: MKMapCamera, b: MKMapCamera) -> Bool {
        a.centerCoordinate == b.centerCoordinate && a.centerCoordinateDistance == b.centerCoordinateDistance
            && a.heading == b.heading && a.pitch == b.pitch
    }
}
