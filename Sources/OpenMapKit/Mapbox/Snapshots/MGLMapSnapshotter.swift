// Mapbox's snapshotter: a still image of a style at a camera, drawn by a headless MGLMapView (the
// Mapbox face over the one engine), so a snapshot shows what a map view with the same style and
// camera shows — its logo and attribution included, as Mapbox's snapshots carry them — and the
// request's life (loading, cancelling, the completion on the main queue) is MapKit's snapshotter's
// (RequestLifecycle).

import Foundation
import MapGeometry

/// What a snapshot shows (Mapbox's `MGLMapSnapshotOptions`): a style, a camera or a zoom level or a
/// coordinate box, an image size and scale.
public final class MGLMapSnapshotOptions: @unchecked Sendable {
    /// The style to draw: a Mapbox style URL (drawn with OpenMapKit's built-in styles, as
    /// ``MGLStyle`` maps them), a file URL of a MapLibre style, or an `http(s)` URL.
    public let styleURL: URL
    /// The image's size in points.
    public let size: CGSize
    /// The viewpoint: centre, heading and pitch, and (unless ``zoomLevel`` or
    /// ``coordinateBounds`` says otherwise) the altitude.
    public var camera: MGLMapCamera
    /// The zoom level; 0 (the default) takes the zoom from the camera's altitude. Non-zero, it
    /// wins over the altitude, as Mapbox documents.
    public var zoomLevel: Double = 0
    /// The box to show; when not empty it wins over the camera's centre and the zoom level.
    public var coordinateBounds = MGLCoordinateBounds(sw: CLLocationCoordinate2D(), ne: CLLocationCoordinate2D())
    /// Pixels per point (default 1; Mapbox defaults to the screen's scale, which Linux has none of).
    public var scale: CGFloat = 1
    /// Whether the logo is drawn (default true, as Mapbox's).
    public var showsLogo = true
    /// Where the map's data comes from (an OpenMapKit addition); nil uses ``MapDataSource/default``.
    public var dataSource: MapDataSource?

    /// Options for a snapshot of `styleURL` (nil: Mapbox Streets) seen by `camera`, `size` points large.
    public init(styleURL: URL?, camera: MGLMapCamera, size: CGSize) {
        self.styleURL = styleURL ?? MGLStyle.streetsStyleURL
        self.camera = camera
        self.size = size
    }

    /// A copy whose later changes do not reach the snapshot being drawn.
    func frozen() -> MGLMapSnapshotOptions {
        let copy = MGLMapSnapshotOptions(styleURL: styleURL, camera: MGLMapCamera(lookingAtCenter: camera.centerCoordinate,
                                                                                   altitude: camera.altitude, pitch: camera.pitch,
                                                                                   heading: camera.heading), size: size)
        copy.zoomLevel = zoomLevel
        copy.coordinateBounds = coordinateBounds
        copy.scale = scale
        copy.showsLogo = showsLogo
        copy.dataSource = dataSource
        return copy
    }
}

/// A finished snapshot (Mapbox's `MGLMapSnapshot`): the image and the conversions between its
/// points and coordinates.
public final class MGLMapSnapshot: @unchecked Sendable {
    /// The image, ``MGLMapSnapshotOptions/size`` points at the options' scale.
    public let image: UIImage
    private let projection: MGLMapProjection

    init(image: UIImage, projection: MGLMapProjection) {
        self.image = image
        self.projection = projection
    }

    /// Where `coordinate` is in the image, in points.
    public func point(for coordinate: CLLocationCoordinate2D) -> CGPoint { projection.convert(coordinate) }

    /// The coordinate at `point` (in points) of the image.
    public func coordinate(for point: CGPoint) -> CLLocationCoordinate2D { projection.convert(point) }
}

/// Mapbox's completion handler: a snapshot, or an error.
public typealias MGLMapSnapshotCompletionHandler = @Sendable (MGLMapSnapshot?, (any Error)?) -> Void

/// Draws still images of a style (Mapbox's `MGLMapSnapshotter`).
///
/// ```swift
/// let camera = MGLMapCamera(lookingAtCenter: monaco, altitude: 2000, pitch: 0, heading: 0)
/// let options = MGLMapSnapshotOptions(styleURL: MGLStyle.streetsStyleURL, camera: camera, size: CGSize(width: 400, height: 300))
/// options.zoomLevel = 15
/// MGLMapSnapshotter(options: options).start { snapshot, error in
///     let png = snapshot?.image.pngData()
/// }
/// ```
///
/// Differs from Mapbox: `start(completionHandler:)` calls back on the main queue, which on Linux
/// runs only when the program runs it (`dispatchMain()`, `RunLoop.main`, an async `main`);
/// ``start(with:completionHandler:)`` names another queue and ``start()`` is the async form (an
/// OpenMapKit addition). A snapshotter draws one snapshot at a time: starting it while it draws
/// fails with `MKError.loadingThrottled`. The overlay handler of newer SDKs
/// (`start(overlayHandler:completionHandler:)`) and the snapshotter's own `style` are not
/// supported.
public final class MGLMapSnapshotter: @unchecked Sendable {
    private let lock = NSLock()
    private var storedOptions: MGLMapSnapshotOptions
    private let lifecycle = RequestLifecycle(.restartable, busyReason: "the snapshotter is already drawing a snapshot")

    /// A snapshotter for `options`.
    public init(options: MGLMapSnapshotOptions) {
        storedOptions = options
    }

    /// What the next snapshot shows; changing it does not change a snapshot being drawn.
    public var options: MGLMapSnapshotOptions {
        get { lock.withLock { storedOptions } }
        set { lock.withLock { storedOptions = newValue } }
    }

    /// Whether a snapshot is being drawn.
    public var isLoading: Bool { lifecycle.isRunning }

    /// Stops the snapshot being drawn: its completion handler gets a cancellation error.
    public func cancel() { lifecycle.cancel() }

    /// Draws a snapshot and calls `completionHandler` on the main queue.
    public func start(completionHandler: @escaping MGLMapSnapshotCompletionHandler) {
        start(with: .main, completionHandler: completionHandler)
    }

    /// Draws a snapshot and calls `completionHandler` on `queue`.
    public func start(with queue: DispatchQueue, completionHandler: @escaping MGLMapSnapshotCompletionHandler) {
        let options = options.frozen()
        lifecycle.start(on: queue, { isCancelled in try Self.draw(options, isCancelled: isCancelled) }) { $0.deliver(to: completionHandler) }
    }

    /// Draws a snapshot (an OpenMapKit addition: the async form).
    public func start() async throws -> MGLMapSnapshot {
        let options = options.frozen()
        return try await lifecycle.start { isCancelled in try Self.draw(options, isCancelled: isCancelled) }
    }

    /// The snapshot `options` describe, drawn by a map view of its size.
    static func draw(_ options: MGLMapSnapshotOptions, isCancelled: () -> Bool) throws -> MGLMapSnapshot {
        let size = options.size
        guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else {
            throw MKError(.unknown, reason: "snapshot size \(size.width) × \(size.height) is not a positive size")
        }
        guard options.scale > 0, options.scale.isFinite, options.scale <= 8 else {
            throw MKError(.unknown, reason: "snapshot scale \(options.scale) is not between 0 and 8")
        }
        let map = MGLMapView(frame: CGRect(origin: .zero, size: size), styleURL: options.styleURL, clock: MKManualMapViewClock())
        map.dataSource = options.dataSource
        map.contentScaleFactor = options.scale
        map.logoView.isHidden = !options.showsLogo
        map.camera = options.camera
        if options.zoomLevel != 0 { map.zoomLevel = options.zoomLevel }
        if !MGLCoordinateBoundsIsEmpty(options.coordinateBounds) { map.setVisibleCoordinateBounds(options.coordinateBounds, animated: false) }
        // A style that fails to load fails the snapshot (a map view would draw an empty map).
        let failures = StyleFailureRecorder()
        map.delegate = failures
        map.finishLoadingStyle()
        if let error = failures.error { throw error }
        if isCancelled() { throw CancellationError() }
        let image = try map.render()
        return MGLMapSnapshot(image: image, projection: map.mapProjection())
    }
}

/// Keeps the error a snapshot's map view reports when its style fails to load.
private final class StyleFailureRecorder: MGLMapViewDelegate {
    var error: (any Error)?
    func mapViewDidFailLoadingMap(_ mapView: MGLMapView, withError error: any Error) { self.error = error }
}
