// Limits on a map view's camera: where its centre may go and how near or far it may be.

import Foundation

/// The sentinel for "no limit" on either side of a ``MKMapView/CameraZoomRange`` (MapKit's
/// `MKMapCameraZoomDefault`). OpenMapKit uses −1: a distance no camera can have.
public let MKMapCameraZoomDefault: CLLocationDistance = -1

extension MKMapView {
    /// The area the map's centre must stay in (MapKit's `MKMapView.CameraBoundary`). Every camera
    /// change — by code or by gesture — that would move the centre outside is clamped to the
    /// nearest point inside.
    public final class CameraBoundary: Equatable, Sendable, CustomStringConvertible {
        /// The boundary as a map rectangle.
        public let mapRect: MKMapRect
        /// The boundary as a region.
        public var region: MKCoordinateRegion { MKCoordinateRegion(mapRect) }

        /// A boundary covering `mapRect`; nil when it is null, empty or not finite.
        public init?(mapRect: MKMapRect) {
            guard !mapRect.isNull, mapRect.minX.isFinite, mapRect.minY.isFinite, mapRect.width.isFinite, mapRect.height.isFinite,
                  mapRect.width > 0, mapRect.height > 0 else { return nil }
            self.mapRect = mapRect
        }

        /// A boundary covering `region`; nil when the region is invalid or empty.
        public convenience init?(coordinateRegion region: MKCoordinateRegion) {
            guard region.isValid, region.span.latitudeDelta > 0, region.span.longitudeDelta > 0 else { return nil }
            self.init(mapRect: MKMapRect(region))
        }

        /// An independent copy (MapKit's NSCopying).
        public func copy() -> CameraBoundary { CameraBoundary(validated: mapRect) }

        private init(validated mapRect: MKMapRect) { self.mapRect = mapRect }

        public static func == (a: CameraBoundary, b: CameraBoundary) -> Bool { a.mapRect == b.mapRect }

        public var description: String { "MKMapView.CameraBoundary(mapRect: \(mapRect))" }

        /// The point inside the boundary nearest `point`, trying `point`'s copies one world to
        /// either side so a boundary across the 180th meridian is reached the short way.
        func clamp(_ point: MKMapPoint) -> MKMapPoint {
            var best = point, bestDistance = Double.infinity
            for shift in [0, MKMapSize.worldWidth, -MKMapSize.worldWidth] {
                let x = point.x + shift
                let cx = min(max(x, mapRect.minX), mapRect.maxX), cy = min(max(point.y, mapRect.minY), mapRect.maxY)
                let d = abs(cx - x) + abs(cy - point.y)
                if d < bestDistance { (best, bestDistance) = (MKMapPoint(x: cx, y: cy), d) }
            }
            return best
        }
    }

    /// How near and how far the camera may be from the map's centre, in metres (MapKit's
    /// `MKMapView.CameraZoomRange`). A side given as ``MKMapCameraZoomDefault`` is not limited.
    public final class CameraZoomRange: Equatable, Sendable, CustomStringConvertible {
        /// The nearest the camera may come, in metres; ``MKMapCameraZoomDefault`` for no limit.
        public let minCenterCoordinateDistance: CLLocationDistance
        /// The farthest the camera may go, in metres; ``MKMapCameraZoomDefault`` for no limit.
        public let maxCenterCoordinateDistance: CLLocationDistance

        /// A range between the two distances; nil when one is negative (other than the
        /// default sentinel), not finite, or the minimum exceeds the maximum.
        public init?(minCenterCoordinateDistance: CLLocationDistance, maxCenterCoordinateDistance: CLLocationDistance) {
            func valid(_ d: CLLocationDistance) -> Bool { d == MKMapCameraZoomDefault || (d.isFinite && d >= 0) }
            guard valid(minCenterCoordinateDistance), valid(maxCenterCoordinateDistance) else { return nil }
            if minCenterCoordinateDistance != MKMapCameraZoomDefault, maxCenterCoordinateDistance != MKMapCameraZoomDefault,
               minCenterCoordinateDistance > maxCenterCoordinateDistance { return nil }
            self.minCenterCoordinateDistance = minCenterCoordinateDistance
            self.maxCenterCoordinateDistance = maxCenterCoordinateDistance
        }

        /// A range limited only nearer than `minCenterCoordinateDistance`.
        public convenience init?(minCenterCoordinateDistance: CLLocationDistance) {
            self.init(minCenterCoordinateDistance: minCenterCoordinateDistance, maxCenterCoordinateDistance: MKMapCameraZoomDefault)
        }

        /// A range limited only farther than `maxCenterCoordinateDistance`.
        public convenience init?(maxCenterCoordinateDistance: CLLocationDistance) {
            self.init(minCenterCoordinateDistance: MKMapCameraZoomDefault, maxCenterCoordinateDistance: maxCenterCoordinateDistance)
        }

        /// The unlimited range (what a map view starts with).
        static let unlimited = CameraZoomRange(minCenterCoordinateDistance: MKMapCameraZoomDefault,
                                               maxCenterCoordinateDistance: MKMapCameraZoomDefault)!

        /// An independent copy (MapKit's NSCopying).
        public func copy() -> CameraZoomRange {
            CameraZoomRange(minCenterCoordinateDistance: minCenterCoordinateDistance, maxCenterCoordinateDistance: maxCenterCoordinateDistance)!
        }

        public static func == (a: CameraZoomRange, b: CameraZoomRange) -> Bool {
            a.minCenterCoordinateDistance == b.minCenterCoordinateDistance && a.maxCenterCoordinateDistance == b.maxCenterCoordinateDistance
        }

        public var description: String {
            "MKMapView.CameraZoomRange(min: \(minCenterCoordinateDistance) m, max: \(maxCenterCoordinateDistance) m)"
        }
    }
}
