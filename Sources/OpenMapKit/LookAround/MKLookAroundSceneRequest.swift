// Where a street-level view can be drawn from (issue 24's first part): MapKit's
// MKLookAroundSceneRequest finds a Look Around scene near a point or a place. Apple has street
// imagery; OpenMapKit draws streets from OpenStreetMap, so a scene exists wherever a person could
// stand on a street, path or square — the walking road graph the import builds — close enough to
// the point. Scenes are drawn by MKLookAroundSnapshotter and LookAroundPreview.

import Foundation
import MapBundle
import MapGeometry
import MapRouting

/// A place a street-level view can be drawn from (MapKit's `MKLookAroundScene`): where a person
/// stands on the street and which way they look.
///
/// Differs from MapKit: MapKit's scene is opaque; here its standpoint and heading are public (an
/// OpenMapKit addition), so code can show where it is. Scenes are drawn from OpenStreetMap, not
/// photographed.
public final class MKLookAroundScene: NSObject, @unchecked Sendable {
    /// Where the viewer stands: on the walkable way nearest the requested point.
    public let coordinate: CLLocationCoordinate2D
    /// Which way the viewer looks, degrees clockwise from north: at the place or point asked
    /// for, or along the street when the point is on it.
    public let heading: CLLocationDirection
    /// The name of the street or path the viewer stands on, when it has one.
    public let streetName: String?
    /// Metres from the requested point (or place) to where the viewer stands.
    public let distance: CLLocationDistance

    init(coordinate: CLLocationCoordinate2D, heading: CLLocationDirection, streetName: String?, distance: CLLocationDistance) {
        (self.coordinate, self.heading, self.streetName, self.distance) = (coordinate, heading, streetName, distance)
        super.init()
    }
}

/// Finds the Look Around scene for a point or a place (MapKit's `MKLookAroundSceneRequest`).
///
/// A scene exists where a person could stand on a street, path or square of the bundle's walking
/// road graph within ``maximumDistance`` of a point (``maximumDistanceFromPlace`` of a place,
/// whose entrance may be set back from the street); the answer is nil elsewhere — at sea, in a
/// forest without paths, outside the bundles. For a place the viewer looks at it from the street;
/// for a point, at the point, or along the street when the point is on it.
///
/// Fails with ``MKError`` for a coordinate that is not one (NaN, out of range) and when the map
/// data has no walking graph; a cancelled request fails with `CancellationError`.
public final class MKLookAroundSceneRequest: NSObject, @unchecked Sendable {
    /// MapKit's completion handler: the scene (nil where there is none), or an error.
    public typealias CompletionHandler = @Sendable (MKLookAroundScene?, (any Error)?) -> Void

    /// The point the scene is for.
    public let coordinate: CLLocationCoordinate2D
    /// The place the scene looks at, for a request made from a map item.
    public let mapItem: MKMapItem?
    /// The bundles whose streets are searched (an OpenMapKit addition); nil uses
    /// ``MapDataSource/default``.
    public var dataSource: MapDataSource?
    private let lifecycle = RequestLifecycle(.oneShot)

    /// How far from a requested point a street may be, in metres.
    public static let maximumDistance: CLLocationDistance = 50
    /// How far from a requested place a street may be, in metres.
    public static let maximumDistanceFromPlace: CLLocationDistance = 120
    /// Closer than this to the street, a point is on it: the viewer looks along the street.
    static let onStreet: CLLocationDistance = 4

    /// A request for the scene nearest `coordinate`.
    public init(coordinate: CLLocationCoordinate2D) {
        self.coordinate = coordinate
        mapItem = nil
        super.init()
    }

    /// A request for a scene looking at `mapItem` from the street in front of it.
    public init(mapItem: MKMapItem) {
        coordinate = mapItem.placemark.coordinate
        self.mapItem = mapItem
        super.init()
    }

    /// Whether the request is running.
    public var isLoading: Bool { lifecycle.isRunning }
    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { lifecycle.isCancelled }
    /// Stops the request; it fails with `CancellationError`.
    public func cancel() { lifecycle.cancel() }

    /// The scene; nil where there is none.
    public var scene: MKLookAroundScene? {
        get async throws { try await getScene() }
    }

    /// The scene; nil where there is none.
    public func getScene() async throws -> MKLookAroundScene? {
        let plan = self.plan()
        return try await lifecycle.start { isCancelled in try plan(isCancelled) }
    }

    /// Looks the scene up and calls `completionHandler` on the main queue.
    public func getSceneWithCompletionHandler(_ completionHandler: @escaping CompletionHandler) {
        let plan = self.plan()
        lifecycle.start(on: .main, { isCancelled in try plan(isCancelled) }) { result in
            switch result {
            case .success(let scene): completionHandler(scene, nil)
            case .failure(let error): completionHandler(nil, error)
            }
        }
    }

    /// Looks on the calling thread (a window's own loop, the command line, the server's workers).
    package func sceneHere() throws -> MKLookAroundScene? {
        try lifecycle.runHere(plan())
    }

    private func plan() -> @Sendable (_ isCancelled: () -> Bool) throws -> MKLookAroundScene? {
        let coordinate = coordinate, isPlace = mapItem != nil, source = dataSource
        return { isCancelled in try Self.scene(at: coordinate, lookingAtPlace: isPlace, source: source, isCancelled: isCancelled) }
    }

    /// The scene for `coordinate`: the nearest walkable point of any bundle, if near enough.
    static func scene(at coordinate: CLLocationCoordinate2D, lookingAtPlace: Bool, source: MapDataSource?,
                      isCancelled: () -> Bool) throws -> MKLookAroundScene? {
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite, abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180 else {
            throw MKError(.unknown, reason: "\(coordinate.latitude),\(coordinate.longitude) is not a coordinate")
        }
        let source = try source ?? MapDataSource.resolved()
        let limit = lookingAtPlace ? maximumDistanceFromPlace : maximumDistance
        var best: SnappedPoint?
        var missing: [String] = []
        for bundle in source.bundles {
            if isCancelled() { throw CancellationError() }
            do throws(RoutingError) {
                let snapped = try bundle.roadGraph(for: .walking).snap(coordinate)
                if snapped.distance <= limit, best == nil || snapped.distance < best!.distance { best = snapped }
            } catch {
                switch error {
                case .noRoadNearby, .invalidInput: continue
                default: missing.append("\(bundle.url.lastPathComponent): \(error)")
                }
            }
        }
        if best == nil, missing.count == source.bundles.count, !missing.isEmpty {
            throw MKError(.serverFailure, reason: "no walking road graph to find streets in (\(missing.joined(separator: "; "))); "
                          + "re-import with `openmapkit import`")
        }
        guard let best else { return nil }
        let heading: CLLocationDirection
        if best.distance > onStreet {
            // Face what was asked for: the place, or the point off the street.
            heading = Geodesic.wgs84.inverse(latitude1: best.coordinate.latitude, longitude1: best.coordinate.longitude,
                                             latitude2: coordinate.latitude, longitude2: coordinate.longitude).azimuth1
        } else {
            heading = best.bearing ?? 0
        }
        return MKLookAroundScene(coordinate: best.coordinate, heading: (heading + 360).truncatingRemainder(dividingBy: 360),
                                 streetName: best.name, distance: best.distance)
    }
}
