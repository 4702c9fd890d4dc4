// A `Map` made live: the engine is an ordinary MKMapView (camera, gestures, annotation views,
// overlays, selection, controls, drawing), and this host keeps it in step with the map the app's
// code describes — content turned into annotations and overlays, the position binding applied and
// written back, selection mapped to tags, camera callbacks and `onChange` observers called. The
// host never draws or hit-tests on its own: the face never copies the engine.

import Foundation
import MapRender

/// Runs a ``Map`` live over an ``MKMapView`` (an OpenMapKit addition: SwiftUI's view graph does
/// this on Apple's systems).
///
/// Give it the code that makes the map — usually the `body` of a struct whose ``State`` holds the
/// position, selection and search results — and drive ``mapView`` as any map view is driven: a
/// `MapWindow(mapHost:)` shows it in a window; tests call the gesture methods, ``tap(at:)``,
/// advance its clock and ``render()``. Before each frame (``update()``) the host evaluates the map
/// again and brings the map view in line:
///
/// - **Content**: markers become marker annotation views, annotations image views of their
///   drawn content, overlays the map view's overlays, ``UserAnnotation`` the user's location.
/// - **Position**: a position binding that changed is applied (`.automatic` frames the content,
///   and again whenever the content changes while it stays automatic; `.userLocation` follows the
///   user, its fallback while the location is unknown); when the person moves the map, the
///   binding is written back as a position ``MapCameraPosition/positionedByUser``.
/// - **Selection**: a tap on a marker or annotation whose tag (or map item, for `MKMapItem`
///   selections) fits the selection binding writes it; a tap on the bare map clears it; the
///   selected marker is drawn larger, as MapKit does. Untagged content cannot be selected. A
///   `MapFeature?` selection selects the map's own labels instead (points of interest,
///   territories, physical features), minus those `mapFeatureSelectionDisabled` excludes.
/// - **Callbacks**: `onMapCameraChange(frequency:_:)` after each camera change,
///   `onChange(of:initial:_:)` when its value changed since the last evaluation,
///   ``Map/onTapGesture(perform:)`` for taps that select nothing.
/// - **Controls**: those of ``Map/mapControls(_:)`` are the map view's own, drawn and working.
///
/// Not thread-safe: use it, its map view and the state its map reads on one thread.
public final class MapHost {
    /// The map view that draws the map and takes the gestures.
    public let mapView: MKMapView
    /// The map as last evaluated.
    public private(set) var map: Map
    private let makeMap: (MapProxy) -> Map
    private let delegate: MapHostDelegate

    // What the map view shows for the content.
    private var contentKey: [String] = []
    private var contentAnnotations: [MapContentAnnotation] = []
    private var contentOverlays: [(overlay: any MKOverlay, renderer: MKOverlayRenderer)] = []
    private var framedContent: MKMapRect?
    /// The position last applied or written back; a binding that still reads it changed nothing.
    private var appliedPosition: MapCameraPosition?
    /// The position is being written back (its binding's setter may make the host update).
    private var writingBack = false
    private var observedValues: [AnyHashable] = []
    private var evaluations = 0

    /// A host of the map `makeMap` makes, in a map view of `frame` whose animations read `clock`,
    /// drawing from `dataSource` (nil: ``MapDataSource/default``).
    public convenience init(frame: CGRect, clock: any MKMapViewClock = MKSystemMapViewClock(), dataSource: MapDataSource? = nil,
                            _ makeMap: @escaping () -> Map) {
        self.init(frame: frame, clock: clock, dataSource: dataSource, reader: { _ in makeMap() })
    }

    /// A host of a map made inside a ``MapReader``, whose proxy converts between the map's points
    /// and coordinates.
    public convenience init(frame: CGRect, clock: any MKMapViewClock = MKSystemMapViewClock(), dataSource: MapDataSource? = nil,
                            _ reader: MapReader) {
        self.init(frame: frame, clock: clock, dataSource: dataSource, reader: reader.content)
    }

    private init(frame: CGRect, clock: any MKMapViewClock, dataSource: MapDataSource?, reader: @escaping (MapProxy) -> Map) {
        mapView = MKMapView(frame: frame, clock: clock)
        mapView.dataSource = dataSource
        makeMap = reader
        delegate = MapHostDelegate()
        map = Map()
        delegate.host = self
        mapView.delegate = delegate
        update()
    }

    /// The edges of the map the app's own views cover (SwiftUI's safe area, e.g. a
    /// `safeAreaInset` of buttons), in points: `.automatic` frames the content inside the rest.
    /// A window showing a panel sets it.
    public var safeAreaInsets = MKEdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

    /// The proxy of the host's map (``MapReader``'s).
    public var proxy: MapProxy { MapProxy(mapView: mapView) }

    // MARK: - Keeping the map view in step

    /// Evaluates the map again and brings the map view in line with it (content, style, controls,
    /// bounds, gestures, position, selection), then calls the `onChange` observers whose values
    /// changed. Returns whether anything the map view shows may have changed. ``render()`` and
    /// ``tap(at:)`` call it; a window calls it before each frame.
    @discardableResult
    public func update() -> Bool {
        guard !writingBack else { return false }
        map = makeMap(proxy)
        evaluations += 1
        var scene = MapScene()
        collect(map.content, into: &scene, MapContentEnvironment())
        var changed = applyContent(scene)
        applyConfiguration()
        changed = applyPosition(scene: scene) || changed
        changed = applySelection() || changed
        runChangeObservers()
        return changed
    }

    /// Draws the map as it is now (after ``update()``).
    public func render() throws -> UIImage {
        update()
        return try mapView.render()
    }

    /// A tap at `point` (in the map's points): taps controls and selects content as the map view
    /// does; a tap that selects nothing clears the selection and calls the map's
    /// ``Map/onTapGesture(perform:)``.
    public func tap(at point: CGPoint) {
        update()
        // A tap on a control or a view is the map view's; only one on the bare map is the map's.
        let hit = mapView.annotationView(at: point) != nil || mapView.isOnControl(point)
        mapView.tap(at: point)
        if !hit { map.tapAction?(point) }
        update()
    }

    /// The map's content: markers and annotations whose look changed are replaced, the others
    /// kept (so a selection survives new content), and overlays made again when any changed.
    private func applyContent(_ scene: MapScene) -> Bool {
        let key = MapHost.key(of: scene)
        guard key != contentKey else { return false }
        contentKey = key
        let itemKeys = MapHost.itemKeys(of: scene)
        var kept: [String: [MapContentAnnotation]] = [:]
        for annotation in contentAnnotations { kept[annotation.key, default: []].append(annotation) }
        var next: [MapContentAnnotation] = [], added: [MapContentAnnotation] = []
        let made = scene.markers.map { MapContentAnnotation(marker: $0, key: "") } + scene.annotations.map { MapContentAnnotation(annotation: $0, key: "") }
        for (index, itemKey) in itemKeys.enumerated() {
            if var same = kept[itemKey], !same.isEmpty {
                next.append(same.removeFirst())
                kept[itemKey] = same
            } else {
                let annotation = made[index].withKey(itemKey)
                next.append(annotation)
                added.append(annotation)
            }
        }
        // Replacing content is not a person's deselection: the binding keeps its value.
        replacingContent = true
        mapView.removeAnnotations(kept.values.flatMap { $0 })
        replacingContent = false
        contentAnnotations = next
        mapView.addAnnotations(added)
        let overlayKeys = scene.overlays.map { "\(MapHost.overlayKey($0.renderer)) \($0.level.rawValue)" }
        if overlayKeys != contentOverlayKeys {
            mapView.removeOverlays(contentOverlays.map(\.overlay))
            contentOverlays = scene.overlays.map { ($0.renderer.overlay, $0.renderer) }
            for (index, overlay) in scene.overlays.enumerated() {
                mapView.addOverlay(contentOverlays[index].overlay, level: overlay.level)
            }
            contentOverlayKeys = overlayKeys
        }
        mapView.showsUserLocation = scene.showsUserLocation
        return true
    }
    private var contentOverlayKeys: [String] = []
    private var replacingContent = false

    /// What the content draws, as text: equal keys draw the same (images are told apart by
    /// identity, so content made again each evaluation with new ones counts as changed).
    static func key(of scene: MapScene) -> [String] {
        itemKeys(of: scene) + scene.overlays.map { "o \(MapHost.overlayKey($0.renderer)) \($0.level.rawValue)" }
            + ["u \(scene.showsUserLocation)"]
    }

    /// Each marker's and annotation's look, as text, markers first.
    static func itemKeys(of scene: MapScene) -> [String] {
        scene.markers.map { "m \($0.coordinate.latitude),\($0.coordinate.longitude) \($0.title ?? "") \($0.tint) \($0.glyphKey) \($0.showsTitle) \(String(describing: $0.tag))" }
            + scene.annotations.map { "a \($0.coordinate.latitude),\($0.coordinate.longitude) \($0.title ?? "") \($0.anchor) \($0.showsTitle) \(String(describing: $0.tag)) \(String(describing: $0.content))" }
    }

    /// An overlay renderer's look and shape, as text.
    static func overlayKey(_ renderer: MKOverlayRenderer) -> String {
        var parts = [String(describing: type(of: renderer))]
        if let path = renderer as? MKOverlayPathRenderer {
            parts += ["\(String(describing: path.strokeColor)) \(String(describing: path.fillColor)) \(path.lineWidth) \(String(describing: path.lineDashPattern))"]
        }
        if let shape = renderer.overlay as? MKMultiPoint {
            let points = shape.points()
            parts.append("\(shape.pointCount) \(points.first.map { "\($0.x),\($0.y)" } ?? "") \(points.last.map { "\($0.x),\($0.y)" } ?? "")")
        } else {
            let rect = renderer.overlay.boundingMapRect
            parts.append("\(rect.origin.x),\(rect.origin.y),\(rect.size.width),\(rect.size.height)")
        }
        return parts.joined(separator: " ")
    }

    /// Style, controls, camera bounds and the gestures allowed.
    private func applyConfiguration() {
        let configuration = map.style.configuration
        if type(of: configuration) != type(of: mapView.preferredConfiguration) || map.style.key != appliedStyleKey {
            mapView.preferredConfiguration = configuration
            appliedStyleKey = map.style.key
        }
        map.applyControls(to: mapView)
        // A `MapFeature?` selection makes the map's own labels selectable (MapKit's default for
        // such a map: points of interest, territories and physical features).
        mapView.selectableMapFeatures = map.selection?.selectsFeatures == true ? [.pointsOfInterest, .territories, .physicalFeatures] : []
        let modes = map.interactionModes
        mapView.isScrollEnabled = modes.contains(.pan)
        mapView.isZoomEnabled = modes.contains(.zoom)
        mapView.isRotateEnabled = modes.contains(.rotate)
        mapView.isPitchEnabled = modes.contains(.pitch)
        let boundary = map.bounds?.centerRect.flatMap { MKMapView.CameraBoundary(mapRect: $0) }
        if boundary != mapView.cameraBoundary { mapView.setCameraBoundary(boundary, animated: false) }
        let range = map.bounds.flatMap { bounds -> MKMapView.CameraZoomRange? in
            guard bounds.minimumDistance != nil || bounds.maximumDistance != nil else { return nil }
            return MKMapView.CameraZoomRange(minCenterCoordinateDistance: bounds.minimumDistance ?? 0,
                                             maxCenterCoordinateDistance: bounds.maximumDistance ?? .greatestFiniteMagnitude)
        }
        if range != mapView.cameraZoomRange { mapView.setCameraZoomRange(range, animated: false) }
        if let coordinate = map.userCoordinate, mapView.userLocationProvider == nil {
            mapView.userLocationProvider = MKFixedLocationProvider(location: CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude))
        }
    }
    private var appliedStyleKey: String?

    /// Applies the position binding when it changed; re-frames `.automatic` when the content did.
    private func applyPosition(scene: MapScene) -> Bool {
        let requested = map.positionBinding?.wrappedValue ?? appliedPosition ?? map.position
        let contentFrame = MapHost.frame(of: scene)
        if let applied = appliedPosition, applied == requested {
            // An automatic position keeps framing the content as it changes.
            guard case .automatic = requested.kind, contentFrame != framedContent else { return false }
        }
        appliedPosition = requested
        framedContent = contentFrame
        show(requested, scene: scene)
        return true
    }

    /// Moves the map view to `position`.
    private func show(_ position: MapCameraPosition, scene: MapScene) {
        guard mapView.hasArea else { return }
        switch position.kind {
        case .userLocation(let followsHeading, let fallback):
            mapView.showsUserLocation = true
            if mapView.userLocation.location != nil || mapView.userLocationProvider != nil {
                mapView.setUserTrackingMode(followsHeading ? .followWithHeading : .follow, animated: false)
            }
            if mapView.userLocation.location == nil { show(fallback, scene: scene) }
        default:
            if mapView.userTrackingMode != .none { mapView.setUserTrackingMode(.none, animated: false) }
            let viewport = map.viewport(size: mapView.frame.size, scene: scene, position: position, safeArea: safeAreaInsets)
            mapView.setCamera(viewport.camera, animated: false)
        }
    }

    /// The map points the content covers (nil: none), which `.automatic` frames.
    static func frame(of scene: MapScene) -> MKMapRect? {
        var bounds = MKMapRect.null
        for point in scene.points { bounds = bounds.union(MKMapRect(origin: point, size: MKMapSize(width: 0, height: 0))) }
        for rect in scene.rects where !rect.isNull { bounds = bounds.union(rect) }
        return bounds.isNull ? nil : bounds
    }

    /// Brings the map view's selection in line with the selection binding.
    private func applySelection() -> Bool {
        let wanted = map.selection?.get()
        if map.selection?.selectsFeatures == true {
            // A feature is selected only by a tap; code can clear it.
            guard wanted == nil, let feature = mapView.selectedAnnotations.first(where: { $0 is MKMapFeatureAnnotation }) else { return false }
            mapView.deselectAnnotation(feature, animated: false)
            return true
        }
        let selected = mapView.selectedAnnotations.compactMap { $0 as? MapContentAnnotation }.first
        if let wanted {
            guard selected?.tag != wanted else { return false }
            if let match = contentAnnotations.first(where: { $0.tag == wanted }) {
                mapView.selectAnnotation(match, animated: false)
                return true
            }
            return false
        }
        guard let selected else { return false }
        mapView.deselectAnnotation(selected, animated: false)
        return true
    }

    /// Calls the `onChange` observers whose value differs from the last evaluation's.
    private func runChangeObservers() {
        let observers = map.changeObservers
        let previous = observedValues
        observedValues = observers.map(\.value)
        for (index, observer) in observers.enumerated() {
            if index < previous.count {
                if previous[index] != observer.value { observer.action(previous[index], observer.value) }
            } else if observer.initial, evaluations == 1 || previous.isEmpty {
                observer.action(observer.value, observer.value)
            }
        }
    }

    // MARK: - The map view's news

    fileprivate func selectionChanged(to annotation: (any MKAnnotation)?) {
        guard !replacingContent, let selection = map.selection else { return }
        if let feature = annotation as? MKMapFeatureAnnotation {
            let value = MapFeature(feature)
            if map.featureSelectionDisabled?(value) == true || !selection.selectsFeatures {
                mapView.deselectAnnotation(feature, animated: false)
                return
            }
            writeBack { selection.set(AnyHashable(value)) }
            return
        }
        let tag = (annotation as? MapContentAnnotation)?.tag
        if let tag, !selection.accepts(tag) { return }
        guard selection.get() != tag else { return }
        writeBack { selection.set(tag) }
    }

    fileprivate func cameraChanged(ended: Bool) {
        let camera = MapCamera(mapView.camera)
        let context = MapCameraUpdateContext(camera: camera, region: mapView.region, rect: mapView.visibleMapRect)
        for handler in map.cameraChangeHandlers where ended || handler.frequency == .continuous { handler.action(context) }
        guard ended, mapView.changeReason.intersection(.anyGesture) != [] else { return }
        // The person moved the map: the position is theirs now.
        let position = MapCameraPosition(kind: .positionedByUser(camera))
        appliedPosition = position
        if let binding = map.positionBinding { writeBack { binding.wrappedValue = position } }
    }

    private func writeBack(_ body: () -> Void) {
        writingBack = true
        body()
        writingBack = false
    }
}

/// The map view's delegate for a host: gives content annotations their views and reports
/// selection and camera changes.
private final class MapHostDelegate: MKMapViewDelegate {
    weak var host: MapHost?

    func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? {
        (annotation as? MapContentAnnotation)?.makeView()
    }

    func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer {
        host?.renderer(for: overlay) ?? MKOverlayRenderer.defaultRenderer(for: overlay)
    }

    func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation) { host?.selectionChanged(to: annotation) }

    func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation) {
        if mapView.selectedAnnotations.isEmpty { host?.selectionChanged(to: nil) }
    }

    func mapViewDidChangeVisibleRegion(_ mapView: MKMapView) { host?.cameraChanged(ended: false) }

    func mapView(_ mapView: MKMapView, regionDidChangeAnimated animated: Bool) { host?.cameraChanged(ended: true) }
}

extension MapHost {
    /// The renderer the content made for an overlay.
    fileprivate func renderer(for overlay: any MKOverlay) -> MKOverlayRenderer? {
        contentOverlays.first { $0.overlay === overlay }?.renderer
    }
}

/// A marker or annotation of a map's content, as the map view's annotation.
final class MapContentAnnotation: NSObject, MKAnnotation, @unchecked Sendable {
    enum Look {
        case marker(MarkerItem)
        case content(AnnotationItem)
    }
    let look: Look
    let coordinate: CLLocationCoordinate2D
    let title: String?
    let tag: AnyHashable?
    /// Its look as text (see `MapHost.itemKeys(of:)`): content with the same key is kept.
    let key: String

    init(marker: MarkerItem, key: String) {
        (look, coordinate, title, tag, self.key) = (.marker(marker), marker.coordinate, marker.title, marker.tag, key)
    }

    init(annotation: AnnotationItem, key: String) {
        (look, coordinate, title, tag, self.key) = (.content(annotation), annotation.coordinate, annotation.title, annotation.tag, key)
    }

    /// The same content under `key`.
    func withKey(_ key: String) -> MapContentAnnotation {
        switch look {
        case .marker(let item): MapContentAnnotation(marker: item, key: key)
        case .content(let item): MapContentAnnotation(annotation: item, key: key)
        }
    }

    /// Its view: MapKit's marker balloon, or the annotation's content drawn into an image whose
    /// anchor point sits on the coordinate, with the title underneath.
    func makeView() -> MKAnnotationView {
        switch look {
        case .marker(let item):
            let view = MKMarkerAnnotationView(annotation: self, reuseIdentifier: nil)
            view.markerTintColor = UIColor(red: CGFloat(item.tint.red), green: CGFloat(item.tint.green), blue: CGFloat(item.tint.blue), alpha: CGFloat(item.tint.alpha))
            view.contentGlyph = item.glyph
            view.titleVisibility = item.showsTitle ? .adaptive : .hidden
            // Untagged content is not selectable (SwiftUI selects only what has a selection value).
            view.isEnabled = tag != nil
            return view
        case .content(let item):
            let view = MKAnnotationView(annotation: self, reuseIdentifier: nil)
            let size = item.content.contentSize
            if size.width > 0, size.height > 0, let canvas = try? RenderCanvas(width: Double(size.width), height: Double(size.height), scale: 2) {
                item.content.draw(on: canvas, in: CGRect(origin: .zero, size: size))
                view.image = UIImage(canvas: canvas)
                // The image is centred on the coordinate plus the centre offset: move its anchor there.
                view.centerOffset = CGPoint(x: (0.5 - item.anchor.x) * size.width, y: (0.5 - item.anchor.y) * size.height)
            }
            view.contentTitle = item.showsTitle ? item.title : nil
            view.isEnabled = tag != nil
            return view
        }
    }
}

/// Converts between a live map's points and coordinates (SwiftUI's `MapProxy`).
public struct MapProxy {
    let mapView: MKMapView

    /// Where `coordinate` is in the map, in points from its top-left corner; nil when it is not
    /// on the visible ground (behind a pitched camera).
    public func convert(_ coordinate: CLLocationCoordinate2D, to space: CoordinateSpace = .local) -> CGPoint? {
        let point = mapView.convert(coordinate, toPointTo: mapView)
        return point.x.isFinite && point.y.isFinite ? point : nil
    }

    /// The coordinate under `point` (in the map's points); nil when the point shows no ground
    /// (the sky of a pitched camera).
    public func convert(_ point: CGPoint, from space: CoordinateSpace = .local) -> CLLocationCoordinate2D? {
        let coordinate = mapView.convert(point, toCoordinateFrom: mapView)
        return CLLocationCoordinate2DIsValid(coordinate) ? coordinate : nil
    }

    /// The camera now.
    public var camera: MapCamera { MapCamera(mapView.camera) }
    /// The region shown now.
    public var region: MKCoordinateRegion { mapView.region }
}

/// SwiftUI's `CoordinateSpace`: a live map's points are its own (`.local`).
public enum CoordinateSpace: Sendable, Hashable {
    case local, global
}

/// Gives the map it makes a ``MapProxy`` (SwiftUI's `MapReader`); a ``MapHost`` runs it.
public struct MapReader {
    let content: (MapProxy) -> Map
    /// A reader of the map `content` makes with the proxy.
    public init(@MapReaderBuilder _ content: @escaping (MapProxy) -> Map) { self.content = content }
}

/// Lets a ``MapReader``'s closure be written as SwiftUI's: the map as its only statement.
@resultBuilder
public enum MapReaderBuilder {
    public static func buildBlock(_ map: Map) -> Map { map }
}
