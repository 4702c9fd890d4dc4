import Foundation

/// A camera looking at a point (SwiftUI's `MapCamera`).
public struct MapCamera: Hashable, Sendable {
    public var centerCoordinate: CLLocationCoordinate2D
    /// Metres from the camera to the centre.
    public var distance: CLLocationDistance
    public var heading: CLLocationDirection
    public var pitch: Double

    public init(centerCoordinate: CLLocationCoordinate2D, distance: CLLocationDistance, heading: CLLocationDirection = 0, pitch: Double = 0) {
        (self.centerCoordinate, self.distance, self.heading, self.pitch) = (centerCoordinate, distance, heading, pitch)
    }

    public init(_ camera: MKMapCamera) {
        self.init(centerCoordinate: camera.centerCoordinate, distance: camera.centerCoordinateDistance, heading: camera.heading, pitch: camera.pitch)
    }

    public static func == (a: MapCamera, b: MapCamera) -> Bool {
        a.centerCoordinate.latitude == b.centerCoordinate.latitude && a.centerCoordinate.longitude == b.centerCoordinate.longitude
            && a.distance == b.distance && a.heading == b.heading && a.pitch == b.pitch
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(centerCoordinate.latitude)
        hasher.combine(centerCoordinate.longitude)
        hasher.combine(distance)
    }

    var mkCamera: MKMapCamera {
        MKMapCamera(lookingAtCenter: centerCoordinate, fromDistance: distance, pitch: pitch, heading: heading)
    }
}
