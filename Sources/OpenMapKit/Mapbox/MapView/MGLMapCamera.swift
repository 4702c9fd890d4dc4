// Mapbox's camera object: centre, altitude (or viewing distance), pitch and heading.

import Foundation
import MapGeometry

/// A viewpoint above the map (Mapbox's `MGLMapCamera`): the coordinate looked at, the eye's
/// altitude and straight-line distance, the pitch and the heading.
///
/// A class, as in Mapbox: ``MGLMapView/camera`` hands out a new one on every read; assigning
/// shares. ``copy()`` makes an independent one.
///
/// Differs from Mapbox: altitudes and distances use OpenMapKit's camera (the one `MKMapCamera`
/// uses, see ``MGLAltitudeForZoomLevel(_:_:_:_:)``), so a camera read from a map view at a given
/// zoom level has an altitude about 24% lower than Mapbox's would; `roll` is not supported (the
/// map cannot roll).
public final class MGLMapCamera: CustomStringConvertible {
    /// The coordinate at the centre of the view (or of its padded area).
    public var centerCoordinate: CLLocationCoordinate2D
    /// Degrees clockwise from true north that the top of the view faces. A negative heading
    /// given to a map view leaves its heading unchanged.
    public var heading: CLLocationDirection
    /// Degrees from looking straight down; setting it keeps ``altitude``.
    public var pitch: CGFloat {
        didSet { storedDistance = MGLMapCamera.distance(altitude: altitude, pitch: pitch) }
    }
    /// Metres from the eye to the ground, straight down. Setting it updates ``viewingDistance``
    /// for the current pitch.
    public var altitude: CLLocationDistance {
        didSet { storedDistance = MGLMapCamera.distance(altitude: altitude, pitch: pitch) }
    }
    private var storedDistance: CLLocationDistance

    /// Metres from the eye to ``centerCoordinate`` in a straight line. Setting it updates
    /// ``altitude`` for the current pitch.
    public var viewingDistance: CLLocationDistance {
        get { storedDistance }
        set {
            storedDistance = newValue
            altitude = newValue * cos(Double(pitch) * .pi / 180)
            storedDistance = newValue
        }
    }

    /// A camera with every property 0 (Mapbox's `+camera`).
    public init() {
        centerCoordinate = CLLocationCoordinate2D()
        heading = 0
        pitch = 0
        altitude = 0
        storedDistance = 0
    }

    /// A camera `altitude` metres above the ground, tilted `pitch` degrees, facing `heading`,
    /// looking at `centerCoordinate`.
    public convenience init(lookingAtCenter centerCoordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, pitch: CGFloat,
                            heading: CLLocationDirection) {
        self.init()
        self.centerCoordinate = centerCoordinate
        self.heading = heading
        self.pitch = pitch
        self.altitude = altitude
        // Observers do not run inside initialisers.
        storedDistance = MGLMapCamera.distance(altitude: altitude, pitch: pitch)
    }

    /// A camera `distance` metres from `centerCoordinate` in a straight line, tilted `pitch`
    /// degrees, facing `heading`.
    public convenience init(lookingAtCenter centerCoordinate: CLLocationCoordinate2D, acrossDistance distance: CLLocationDistance,
                            pitch: CGFloat, heading: CLLocationDirection) {
        self.init(lookingAtCenter: centerCoordinate, altitude: distance * cos(Double(pitch) * .pi / 180), pitch: pitch, heading: heading)
        storedDistance = distance
    }

    /// Mapbox's deprecated initialiser, which takes `distance` as an altitude (as Mapbox does);
    /// use ``init(lookingAtCenter:altitude:pitch:heading:)`` or
    /// ``init(lookingAtCenter:acrossDistance:pitch:heading:)``.
    @available(*, deprecated, message: "Use init(lookingAtCenter:acrossDistance:pitch:heading:) or init(lookingAtCenter:altitude:pitch:heading:).")
    public convenience init(lookingAtCenter centerCoordinate: CLLocationCoordinate2D, fromDistance distance: CLLocationDistance,
                            pitch: CGFloat, heading: CLLocationDirection) {
        self.init(lookingAtCenter: centerCoordinate, altitude: distance, pitch: pitch, heading: heading)
    }

    /// A camera at `eyeCoordinate`, `eyeAltitude` metres up, looking at `centerCoordinate`:
    /// the heading is the azimuth from eye to centre, the pitch follows from the ground distance
    /// and the altitude (as `MKMapCamera`'s initialiser of the same shape).
    public convenience init(lookingAtCenter centerCoordinate: CLLocationCoordinate2D, fromEyeCoordinate eyeCoordinate: CLLocationCoordinate2D,
                            eyeAltitude: CLLocationDistance) {
        let camera = MKMapCamera(lookingAtCenter: centerCoordinate, fromEyeCoordinate: eyeCoordinate, eyeAltitude: eyeAltitude)
        self.init(lookingAtCenter: centerCoordinate, altitude: eyeAltitude, pitch: CGFloat(camera.pitch), heading: camera.heading)
        storedDistance = camera.centerCoordinateDistance
    }

    /// The straight-line distance for an altitude at a pitch.
    private static func distance(altitude: CLLocationDistance, pitch: CGFloat) -> CLLocationDistance {
        let cosine = cos(Double(pitch) * .pi / 180)
        return cosine > 1e-12 ? altitude / cosine : altitude
    }

    /// Whether the cameras differ only negligibly: coordinates within 1e-7°, altitudes within a
    /// millimetre, pitches and headings within 1e-6°.
    public func isEqual(to otherCamera: MGLMapCamera) -> Bool {
        abs(centerCoordinate.latitude - otherCamera.centerCoordinate.latitude) < 1e-7
            && abs(normalizedLongitude(centerCoordinate.longitude - otherCamera.centerCoordinate.longitude)) < 1e-7
            && abs(altitude - otherCamera.altitude) < 1e-3 && abs(Double(pitch - otherCamera.pitch)) < 1e-6
            && abs(normalizedLongitude(heading - otherCamera.heading)) < 1e-6
    }

    /// An independent copy (Mapbox's NSCopying).
    public func copy() -> MGLMapCamera {
        let camera = MGLMapCamera(lookingAtCenter: centerCoordinate, altitude: altitude, pitch: pitch, heading: heading)
        camera.storedDistance = storedDistance
        return camera
    }

    public var description: String {
        "MGLMapCamera(center: \(centerCoordinate.latitude),\(centerCoordinate.longitude), altitude: \(altitude) m, pitch: \(pitch)°, heading: \(heading)°)"
    }
}

extension MGLMapCamera: Equatable {
    /// Exact equality of every property (Mapbox's `isEqual:`); see ``isEqual(to:)`` for the tolerant one.
    public static func == (a: MGLMapCamera, b: MGLMapCamera) -> Bool {
        a.centerCoordinate == b.centerCoordinate && a.altitude == b.altitude && a.pitch == b.pitch && a.heading == b.heading
    }
}
