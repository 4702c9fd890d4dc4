// Naming: SwiftUI's `MapStyle` would clash with this package's `MapStyle` module (the style
// document), so the style type is `Map.Style`. Code passes it the way SwiftUI code does —
// `.mapStyle(.hybrid(elevation: .realistic))` — and stores it as `Map.Style`.

import Foundation

/// A map scene (SwiftUI's `Map`): content, a camera position, a style and, for a map people use,
/// selection, controls and camera callbacks.
///
/// Drawn two ways: as an image with ``snapshot(size:scale:dataSource:)``, or live in a
/// ``MapHost``, which runs the map over an ``MKMapView`` (in a window, or headless in tests):
/// gestures move it and write the position binding back, taps select content and write the
/// selection binding, controls are drawn and work, and the code that makes the map runs again
/// before each frame so that state changes show.
///
/// Differs from MapKit: it is not a SwiftUI view; the widgets around a map (buttons, sheets)
/// are the app's own.
public struct Map {
    /// The camera position (read from the position binding when there is one).
    public var position: MapCameraPosition
    /// The style (SwiftUI's `MapStyle`; see the note at the top of this file).
    public var style: Style = .standard
    /// Where the user is, for ``UserAnnotation`` and `.userLocation` positions when no location
    /// provider is given (an OpenMapKit addition); nil when unknown. Set it with
    /// ``userLocation(_:)``.
    public var userCoordinate: CLLocationCoordinate2D?
    let content: TupleMapContent
    /// What a live map writes back and calls (see MapInteraction.swift).
    var positionBinding: Binding<MapCameraPosition>?
    var selection: MapSelectionBinding?
    var bounds: MapCameraBounds?
    var interactionModes: MapInteractionModes = .all
    var scope: Namespace.ID?
    var controls: [any MapControl]?
    var cameraChangeHandlers: [(frequency: MapCameraUpdateFrequency, action: (MapCameraUpdateContext) -> Void)] = []
    var changeObservers: [MapChangeObserver] = []
    var tapAction: ((CGPoint) -> Void)?
    var featureSelectionDisabled: ((MapFeature) -> Bool)?

    public init(initialPosition: MapCameraPosition = .automatic, bounds: MapCameraBounds? = nil,
                interactionModes: MapInteractionModes = .all, scope: Namespace.ID? = nil,
                @MapContentBuilder content: () -> TupleMapContent = { TupleMapContent([]) }) {
        position = initialPosition
        self.content = content()
        (self.bounds, self.interactionModes, self.scope) = (bounds, interactionModes, scope)
    }

    /// A map whose position a ``MapHost`` keeps in `position`: applied when it changes, written
    /// back as the person moves the map.
    public init(position: Binding<MapCameraPosition>, bounds: MapCameraBounds? = nil,
                interactionModes: MapInteractionModes = .all, scope: Namespace.ID? = nil,
                @MapContentBuilder content: () -> TupleMapContent = { TupleMapContent([]) }) {
        self.init(initialPosition: position.wrappedValue, bounds: bounds, interactionModes: interactionModes, scope: scope, content: content)
        positionBinding = position
    }

    /// A map whose selected content a ``MapHost`` writes to `selection`: a marker or annotation
    /// tagged with a value of its type (``MapContent/tag(_:)``), or, for `MKMapItem` selections,
    /// a ``Marker/init(item:)``.
    public init<SelectionValue: Hashable>(position: Binding<MapCameraPosition>, bounds: MapCameraBounds? = nil,
                                          interactionModes: MapInteractionModes = .all, selection: Binding<SelectionValue?>,
                                          scope: Namespace.ID? = nil, @MapContentBuilder content: () -> TupleMapContent = { TupleMapContent([]) }) {
        self.init(position: position, bounds: bounds, interactionModes: interactionModes, scope: scope, content: content)
        self.selection = MapSelectionBinding(selection)
    }

    /// A map with a selection that starts at `initialPosition`.
    public init<SelectionValue: Hashable>(initialPosition: MapCameraPosition = .automatic, bounds: MapCameraBounds? = nil,
                                          interactionModes: MapInteractionModes = .all, selection: Binding<SelectionValue?>,
                                          scope: Namespace.ID? = nil, @MapContentBuilder content: () -> TupleMapContent = { TupleMapContent([]) }) {
        self.init(initialPosition: initialPosition, bounds: bounds, interactionModes: interactionModes, scope: scope, content: content)
        self.selection = MapSelectionBinding(selection)
    }

    /// A map with a selection, at the automatic position.
    public init<SelectionValue: Hashable>(selection: Binding<SelectionValue?>, scope: Namespace.ID? = nil,
                                          @MapContentBuilder content: () -> TupleMapContent = { TupleMapContent([]) }) {
        self.init(initialPosition: .automatic, selection: selection, scope: scope, content: content)
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

    /// The view `position` shows at `size`; `.automatic` frames the content inside `safeArea`
    /// (the part of the map the app's own views do not cover).
    func viewport(size: CGSize, scene: MapScene, position: MapCameraPosition, safeArea: MKEdgeInsets = MKEdgeInsets(top: 0, left: 0, bottom: 0, right: 0)) -> MapViewport {
        switch position.kind {
        case .region(let region): return MapViewport(size: size, region: region)
        case .rect(let rect): return MapViewport(size: size, visibleMapRect: rect)
        case .camera(let camera):
            return MapViewport(size: size, camera: camera.mkCamera)
        case .item(let item):
            // A place with an extent (a bay, a park) is fitted; a point is shown at the single-marker zoom.
            if let region = item.placemark.region as? CLCircularRegion, region.radius > 100 {
                let side = region.radius * 2
                return MapViewport(size: size, region: MKCoordinateRegion(center: region.center, latitudinalMeters: side, longitudinalMeters: side))
            }
            return MapViewport(size: size, centerCoordinate: item.placemark.coordinate, zoomLevel: Self.singlePointZoom)
        case .userLocation(_, let fallback):
            guard let userLocation = userCoordinate else { return viewport(size: size, scene: scene, position: fallback, safeArea: safeArea) }
            return MapViewport(size: size, centerCoordinate: userLocation, zoomLevel: Self.singlePointZoom)
        case .positionedByUser(let camera):
            return MapViewport(size: size, camera: camera.mkCamera)
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
            let padding = Self.automaticPadding
            return MapViewport(size: size, visibleMapRect: bounds,
                               edgePadding: MKEdgeInsets(top: padding.top + safeArea.top, left: padding.left + safeArea.left,
                                                         bottom: padding.bottom + safeArea.bottom, right: padding.right + safeArea.right))
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
