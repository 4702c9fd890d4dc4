// Naming: SwiftUI's `MapStyle` would clash with this package's `MapStyle` module (the style
// document), so the style type is `Map.Style`. Code passes it the way SwiftUI code does —
// `.mapStyle(.hybrid(elevation: .realistic))` — and stores it as `Map.Style`.

import Foundation

/// A map scene (SwiftUI's `Map`), rendered headless with ``snapshot(size:scale:dataSource:)``.
///
/// Differs from MapKit: it is not a SwiftUI view but a description drawn into an image on
/// demand; nothing is interactive (no selection, no controls), and the user's location is
/// whatever ``userLocation(_:)`` gives.
public struct Map {
    /// The camera position.
    public var position: MapCameraPosition
    /// The style (SwiftUI's `MapStyle`; see the note at the top of this file).
    public var style: Style = .standard
    /// Where the user is, for ``UserAnnotation`` and `.userLocation` positions (an OpenMapKit
    /// addition: there is no location service here); nil when unknown. Set it with
    /// ``userLocation(_:)``.
    public var userCoordinate: CLLocationCoordinate2D?
    let content: TupleMapContent

    public init(initialPosition: MapCameraPosition = .automatic, @MapContentBuilder content: () -> TupleMapContent = { TupleMapContent([]) }) {
        position = initialPosition
        self.content = content()
    }

    public init(position: Binding<MapCameraPosition>, @MapContentBuilder content: () -> TupleMapContent = { TupleMapContent([]) }) {
        self.init(initialPosition: position.wrappedValue, content: content)
    }

    /// SwiftUI's `Map(position:selection:content:)`; selection does not change what is drawn.
    public init<Selection>(position: Binding<MapCameraPosition>, selection: Binding<Selection>,
                           @MapContentBuilder content: () -> TupleMapContent) {
        self.init(initialPosition: position.wrappedValue, content: content)
    }

    /// The map drawn in `style`.
    public func mapStyle(_ style: Style) -> Map {
        var copy = self
        copy.style = style
        return copy
    }

    /// The map with the user at `coordinate` (nil: unknown).
    public func userLocation(_ coordinate: CLLocationCoordinate2D?) -> Map {
        var copy = self
        copy.userCoordinate = coordinate
        return copy
    }

    /// The padding `.automatic` keeps around content: room above for balloons, below for titles.
    static let automaticPadding = MKEdgeInsets(top: 48, left: 28, bottom: 24, right: 28)
    /// The zoom `.automatic` uses for a single point.
    static let singlePointZoom = 16.0

    /// The view the map shows at `size`.
    public func viewport(size: CGSize) -> MapViewport {
        var scene = MapScene()
        collect(content, into: &scene, MapContentEnvironment())
        return viewport(size: size, scene: scene, position: position)
    }

    func viewport(size: CGSize, scene: MapScene, position: MapCameraPosition) -> MapViewport {
        switch position.kind {
        case .region(let region): return MapViewport(size: size, region: region)
        case .rect(let rect): return MapViewport(size: size, visibleMapRect: rect)
        case .camera(let camera):
            return MapViewport(size: size, camera: camera.mkCamera)
        case .item(let item):
            return MapViewport(size: size, centerCoordinate: item.placemark.coordinate, zoomLevel: Self.singlePointZoom)
        case .userLocation(let fallback):
            guard let userLocation = userCoordinate else { return viewport(size: size, scene: scene, position: fallback) }
            return MapViewport(size: size, centerCoordinate: userLocation, zoomLevel: Self.singlePointZoom)
        case .automatic:
            var bounds = MKMapRect.null
            for point in scene.points { bounds = bounds.union(MKMapRect(origin: point, size: MKMapSize(width: 0, height: 0))) }
            for rect in scene.rects where !rect.isNull { bounds = bounds.union(rect) }
            if scene.showsUserLocation, let userLocation = userCoordinate {
                bounds = bounds.union(MKMapRect(origin: MKMapPoint(userLocation), size: MKMapSize(width: 0, height: 0)))
            }
            guard !bounds.isNull else { return MapViewport(size: size, visibleMapRect: .world) }
            let single = MapViewport(size: size, centerCoordinate: MKMapPoint(x: bounds.midX, y: bounds.midY).coordinate,
                                     zoomLevel: Self.singlePointZoom)
            // Content smaller than half a single point's view is centred at that zoom, like one marker.
            if bounds.width <= single.visibleMapRect.width / 2, bounds.height <= single.visibleMapRect.height / 2 {
                return single
            }
            return MapViewport(size: size, visibleMapRect: bounds, edgePadding: Self.automaticPadding)
        }
    }

    /// The snapshotter options that draw this map at `size` and `scale`.
    public func snapshotOptions(size: CGSize, scale: CGFloat = 1) -> MKMapSnapshotter.Options {
        var scene = MapScene()
        collect(content, into: &scene, MapContentEnvironment())
        let options = MKMapSnapshotter.Options()
        options.size = size
        options.scale = scale
        options.mapRect = .world
        let viewport = viewport(size: size, scene: scene, position: position)
        options.camera = viewport.camera
        options.preferredConfiguration = style.configuration
        for overlay in scene.overlays { options.addOverlay(overlay.renderer, level: overlay.level) }
        options.markers = scene.markers
        options.customAnnotations = scene.annotations
        options.userLocation = scene.showsUserLocation ? userCoordinate : nil
        return options
    }

    /// Renders the map with its content drawn in.
    public func snapshot(size: CGSize, scale: CGFloat = 1, dataSource: MapDataSource? = nil) async throws -> MKMapSnapshotter.Snapshot {
        let options = snapshotOptions(size: size, scale: scale)
        let snapshotter = dataSource.map { MKMapSnapshotter(options: options, dataSource: $0) } ?? MKMapSnapshotter(options: options)
        return try await snapshotter.start()
    }
}
