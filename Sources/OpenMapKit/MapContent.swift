// MapKit for SwiftUI's map content, headless: `Map { Marker(…); MapPolyline(…) }` builds a scene
// that renders to an image (`try await map.snapshot(size:)`) through the same drawing as
// MKMapSnapshotter, with the overlays and annotations drawn in.
//
// Naming: SwiftUI's `MapStyle` would clash with this package's `MapStyle` module (the style
// document), so the style type is `Map.Style`. Code passes it the way SwiftUI code does —
// `.mapStyle(.hybrid(elevation: .realistic))` — and stores it as `Map.Style`.

import Foundation
import MapRender

// MARK: - Content protocol and builder

/// Something shown on a map (SwiftUI's `MapContent`): the built-in markers, annotations and
/// overlays, or your own type whose ``body`` is made of them. Unlike SwiftUI's, it is not bound
/// to the main actor: headless maps are built and rendered on any thread.
public protocol MapContent {
    associatedtype Body: MapContent
    @MapContentBuilder var body: Body { get }
}

extension Never: MapContent {
    public var body: Never { return fatalError("Never has no body") }
}

/// Content that the scene reads directly rather than through its body.
protocol PrimitiveMapContent {
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment)
}

extension PrimitiveMapContent {
    public var body: Never { return fatalError("\(Self.self) is drawn directly") }
}

/// Collects any content: primitives directly, other content through its body.
func collect(_ content: any MapContent, into scene: inout MapScene, _ environment: MapContentEnvironment) {
    if let primitive = content as? PrimitiveMapContent {
        primitive.collect(into: &scene, environment)
    } else {
        collect(content.body, into: &scene, environment)
    }
}

/// Builds map content from a list with `if`, `if let`, `switch` and `for` (SwiftUI's
/// `MapContentBuilder`).
@resultBuilder
public enum MapContentBuilder {
    public static func buildExpression(_ content: any MapContent) -> [any MapContent] { [content] }
    public static func buildBlock() -> [any MapContent] { [] }
    public static func buildBlock(_ parts: [any MapContent]...) -> [any MapContent] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any MapContent]?) -> [any MapContent] { part ?? [] }
    public static func buildEither(first: [any MapContent]) -> [any MapContent] { first }
    public static func buildEither(second: [any MapContent]) -> [any MapContent] { second }
    public static func buildArray(_ parts: [[any MapContent]]) -> [any MapContent] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [any MapContent]) -> [any MapContent] { part }
    public static func buildFinalResult(_ parts: [any MapContent]) -> TupleMapContent { TupleMapContent(parts) }
}

/// Several pieces of content (SwiftUI's `TupleMapContent`).
public struct TupleMapContent: MapContent, PrimitiveMapContent {
    public let value: [any MapContent]
    public init(_ value: [any MapContent]) { self.value = value }
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        for item in value { OpenMapKit.collect(item, into: &scene, environment) }
    }
}

/// No content (SwiftUI's `EmptyMapContent`).
public struct EmptyMapContent: MapContent, PrimitiveMapContent {
    public init() {}
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {}
}

/// Content of any type (SwiftUI's `AnyMapContent`).
public struct AnyMapContent: MapContent, PrimitiveMapContent {
    let base: any MapContent
    public init(_ base: some MapContent) { self.base = base }
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        OpenMapKit.collect(base, into: &scene, environment)
    }
}

/// Content made for each element of a collection (SwiftUI's `ForEach` in a map).
public struct ForEach<Data: RandomAccessCollection, ID: Hashable>: MapContent, PrimitiveMapContent {
    public let data: Data
    let content: (Data.Element) -> any MapContent

    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @MapContentBuilder content: @escaping (Data.Element) -> TupleMapContent) {
        self.data = data
        self.content = content
    }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        for element in data { OpenMapKit.collect(content(element), into: &scene, environment) }
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @MapContentBuilder content: @escaping (Data.Element) -> TupleMapContent) {
        self.init(data, id: \.id, content: content)
    }
}

// MARK: - Modifiers

/// Whether something is shown (SwiftUI's `Visibility`).
public enum Visibility: Sendable, Hashable { case automatic, visible, hidden }

/// Something that colours an overlay: a ``Color`` or a ``Gradient`` (SwiftUI's `ShapeStyle`).
public protocol ShapeStyle: Sendable {}
extension Color: ShapeStyle {}

// `.stroke(.blue, lineWidth: 5)` and `.foregroundStyle(.purple)` name colours as SwiftUI does.
extension ShapeStyle where Self == Color {
    public static var red: Color { Color.red }
    public static var orange: Color { Color.orange }
    public static var yellow: Color { Color.yellow }
    public static var green: Color { Color.green }
    public static var mint: Color { Color.mint }
    public static var teal: Color { Color.teal }
    public static var cyan: Color { Color.cyan }
    public static var blue: Color { Color.blue }
    public static var indigo: Color { Color.indigo }
    public static var purple: Color { Color.purple }
    public static var pink: Color { Color.pink }
    public static var brown: Color { Color.brown }
    public static var gray: Color { Color.gray }
    public static var black: Color { Color.black }
    public static var white: Color { Color.white }
    public static var clear: Color { Color.clear }
    public static var primary: Color { Color.primary }
    public static var secondary: Color { Color.secondary }
    public static var background: Color { Color.background }
}

/// Colours spread along a line (SwiftUI's `Gradient`); a polyline stroked with it is drawn by
/// ``MKGradientPolylineRenderer``.
public struct Gradient: ShapeStyle, Hashable {
    public struct Stop: Hashable, Sendable {
        public var color: Color
        public var location: CGFloat
        public init(color: Color, location: CGFloat) { (self.color, self.location) = (color, location) }
    }
    public var stops: [Stop]
    public init(colors: [Color]) {
        stops = colors.enumerated().map { Stop(color: $1, location: colors.count > 1 ? CGFloat($0) / CGFloat(colors.count - 1) : 0) }
    }
    public init(stops: [Stop]) { self.stops = stops }
}

/// How a line is stroked (SwiftUI's `StrokeStyle`).
public struct StrokeStyle: Hashable, Sendable {
    public var lineWidth: CGFloat
    public var lineCap: CGLineCap
    public var lineJoin: CGLineJoin
    public var miterLimit: CGFloat
    public var dash: [CGFloat]
    public var dashPhase: CGFloat
    public init(lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter, miterLimit: CGFloat = 10,
                dash: [CGFloat] = [], dashPhase: CGFloat = 0) {
        (self.lineWidth, self.lineCap, self.lineJoin, self.miterLimit, self.dash, self.dashPhase) = (lineWidth, lineCap, lineJoin, miterLimit, dash, dashPhase)
    }
}

/// What modifiers pass down to the content they wrap; the innermost modifier wins.
struct MapContentEnvironment {
    var tint: Color?
    var titles = Visibility.automatic
    var foreground: (any ShapeStyle)?
    var stroke: (any ShapeStyle)?
    var strokeStyle: StrokeStyle?
    var level: MKOverlayLevel?
}

/// Content with a modifier applied.
public struct ModifiedMapContent: MapContent, PrimitiveMapContent {
    let content: any MapContent
    let modify: (inout MapContentEnvironment) -> Void
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        var inner = environment
        modify(&inner)
        OpenMapKit.collect(content, into: &scene, inner)
    }
}

extension MapContent {
    private func modified(_ modify: @escaping (inout MapContentEnvironment) -> Void) -> ModifiedMapContent {
        ModifiedMapContent(content: self, modify: modify)
    }

    /// The colour of markers (their balloon).
    public func tint(_ color: Color) -> ModifiedMapContent { modified { $0.tint = color } }
    /// Shows or hides the titles of markers and annotations.
    public func annotationTitles(_ visibility: Visibility) -> ModifiedMapContent { modified { $0.titles = visibility } }
    /// The fill of polygons and circles.
    public func foregroundStyle(_ style: some ShapeStyle) -> ModifiedMapContent { modified { $0.foreground = style } }
    /// The outline of overlays: a colour or gradient, `lineWidth` points wide.
    public func stroke(_ style: some ShapeStyle, lineWidth: CGFloat) -> ModifiedMapContent {
        modified {
            $0.stroke = style
            $0.strokeStyle = StrokeStyle(lineWidth: lineWidth, lineCap: .round, lineJoin: .round)
        }
    }
    /// The outline of overlays with a full stroke style.
    public func stroke(_ style: some ShapeStyle, style strokeStyle: StrokeStyle) -> ModifiedMapContent {
        modified {
            $0.stroke = style
            $0.strokeStyle = strokeStyle
        }
    }
    /// The outline's width, in the default colour.
    public func stroke(lineWidth: CGFloat) -> ModifiedMapContent {
        modified { $0.strokeStyle = StrokeStyle(lineWidth: lineWidth, lineCap: .round, lineJoin: .round) }
    }
    public func strokeStyle(style: StrokeStyle) -> ModifiedMapContent { modified { $0.strokeStyle = style } }
    /// Where overlays sit among the map's layers (default: above roads, below labels).
    public func mapOverlayLevel(level: MKOverlayLevel) -> ModifiedMapContent { modified { $0.level = level } }
    /// A selection tag; headless maps have no selection, so it changes nothing drawn.
    public func tag(_ tag: some Hashable) -> ModifiedMapContent { modified { _ in } }
}

// MARK: - Markers and annotations

/// A balloon marker (SwiftUI's `Marker`): a glyph — the pin, an SF Symbols name, up to three
/// letters or an image — on a balloon in the tint colour (red by default), titled underneath.
public struct Marker: MapContent, PrimitiveMapContent {
    let title: String
    let coordinate: CLLocationCoordinate2D
    let glyph: MarkerItem.Glyph

    public init(_ title: String, coordinate: CLLocationCoordinate2D) {
        (self.title, self.coordinate, glyph) = (title, coordinate, .pin)
    }

    /// A marker whose glyph is the icon matching an SF Symbols name (the pin when none does).
    public init(_ title: String, systemImage: String, coordinate: CLLocationCoordinate2D) {
        (self.title, self.coordinate, glyph) = (title, coordinate, MarkerItem.glyph(systemImage: systemImage))
    }

    /// A marker showing up to three letters; longer monograms are cut to their first three.
    public init(_ title: String, monogram: Text, coordinate: CLLocationCoordinate2D) {
        (self.title, self.coordinate, glyph) = (title, coordinate, .text(String(monogram.string.prefix(3))))
    }

    /// A marker showing an image.
    public init(_ title: String, image: UIImage, coordinate: CLLocationCoordinate2D) {
        (self.title, self.coordinate, glyph) = (title, coordinate, .image(image))
    }

    /// A marker for a map item: titled with its name, its glyph and tint from its category (a
    /// fork and knife on orange for a restaurant), else the pin on red.
    public init(item: MKMapItem) {
        title = item.name ?? ""
        coordinate = item.placemark.coordinate
        let icon = item.pointOfInterestCategory.flatMap(Marker.icon(for:))
        glyph = icon.map(MarkerItem.Glyph.icon) ?? .pin
        categoryTint = icon?.categoryColor
    }

    var categoryTint: RenderColor?

    /// The point-of-interest icon of a category: that of its first OpenMapTiles class or subclass
    /// that has one.
    static func icon(for category: MKPointOfInterestCategory) -> PointOfInterestIcon? {
        for name in category.openMapTilesClasses + category.openMapTilesSubclasses {
            if let icon = PointOfInterestIcon(openMapTilesClass: name) { return icon }
        }
        return nil
    }

    /// A marker showing the image named `image`: there are no asset catalogues on Linux, so the
    /// name is a PNG file's path; the pin is shown when it cannot be read.
    public init(_ title: String, image: String, coordinate: CLLocationCoordinate2D) {
        (self.title, self.coordinate) = (title, coordinate)
        glyph = UIImage(contentsOfFile: image).map { .image($0) } ?? .pin
    }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        var item = MarkerItem(coordinate: coordinate, title: title,
                              tint: environment.tint?.renderColor ?? categoryTint ?? MarkerItem.defaultTint, glyph: glyph)
        item.showsTitle = environment.titles != .hidden
        scene.markers.append(item)
        scene.points.append(MKMapPoint(coordinate))
    }
}

/// Custom content at a coordinate (SwiftUI's `Annotation`), placed so that `anchor` of the
/// content sits on the coordinate (default: its centre), with the title underneath.
public struct Annotation: MapContent, PrimitiveMapContent {
    let title: String
    let coordinate: CLLocationCoordinate2D
    let anchor: UnitPoint
    let content: any AnnotationContent

    public init(_ title: String, coordinate: CLLocationCoordinate2D, anchor: UnitPoint = .center,
                @AnnotationContentBuilder content: () -> ZStack) {
        (self.title, self.coordinate, self.anchor) = (title, coordinate, anchor)
        self.content = content()
    }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        var item = AnnotationItem(coordinate: coordinate, title: title, anchor: anchor, content: content)
        item.showsTitle = environment.titles != .hidden
        scene.annotations.append(item)
        scene.points.append(MKMapPoint(coordinate))
    }
}

/// The user's location (SwiftUI's `UserAnnotation`): the blue dot, where ``Map/userLocation`` is.
public struct UserAnnotation: MapContent, PrimitiveMapContent {
    public init() {}
    public init(anchor: UnitPoint) {}
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        scene.showsUserLocation = true
    }
}

// MARK: - Overlays

/// A polyline (SwiftUI's `MapPolyline`); stroked blue, 3 points wide, unless `.stroke` says otherwise.
public struct MapPolyline: MapContent, PrimitiveMapContent {
    /// How segments follow the Earth: straight on the map, or along great circles.
    public struct ContourStyle: Hashable, Sendable {
        let geodesic: Bool
        public static let straight = ContourStyle(geodesic: false)
        public static let geodesic = ContourStyle(geodesic: true)
    }

    let polyline: MKPolyline

    public init(_ polyline: MKPolyline) { self.polyline = polyline }

    public init(coordinates: [CLLocationCoordinate2D], contourStyle: ContourStyle = .straight) {
        polyline = contourStyle.geodesic ? MKGeodesicPolyline(coordinates: coordinates) : MKPolyline(coordinates: coordinates)
    }

    public init(points: [MKMapPoint], contourStyle: ContourStyle = .straight) {
        polyline = contourStyle.geodesic ? MKGeodesicPolyline(points: points) : MKPolyline(points: points)
    }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        let renderer: MKPolylineRenderer
        if let gradient = environment.stroke as? Gradient {
            let gradientRenderer = MKGradientPolylineRenderer(polyline: polyline)
            gradientRenderer.setColors(gradient.stops.map { $0.color.uiColor }, locations: gradient.stops.map(\.location))
            renderer = gradientRenderer
        } else {
            renderer = MKPolylineRenderer(polyline: polyline)
            renderer.strokeColor = ((environment.stroke as? Color) ?? (environment.foreground as? Color) ?? .blue).uiColor
        }
        scene.apply(environment.strokeStyle ?? StrokeStyle(lineWidth: 3, lineCap: .round, lineJoin: .round), to: renderer)
        scene.addOverlay(renderer, environment)
    }
}

/// A polygon (SwiftUI's `MapPolygon`); filled with its foreground style (translucent blue by
/// default) and stroked only when `.stroke` is given.
public struct MapPolygon: MapContent, PrimitiveMapContent {
    let polygon: MKPolygon
    public init(_ polygon: MKPolygon) { self.polygon = polygon }
    public init(coordinates: [CLLocationCoordinate2D]) { polygon = MKPolygon(coordinates: coordinates) }
    public init(points: [MKMapPoint]) { polygon = MKPolygon(points: points) }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        let renderer = MKPolygonRenderer(polygon: polygon)
        scene.fillAndStroke(renderer, environment)
    }
}

/// A circle of a radius in metres (SwiftUI's `MapCircle`), styled as ``MapPolygon``.
public struct MapCircle: MapContent, PrimitiveMapContent {
    let circle: MKCircle
    public init(_ circle: MKCircle) { self.circle = circle }
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance) { circle = MKCircle(center: center, radius: radius) }
    /// The largest circle centred in `mapRect`.
    public init(mapRect: MKMapRect) { circle = MKCircle(mapRect: mapRect) }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        scene.fillAndStroke(MKCircleRenderer(circle: circle), environment)
    }
}

/// What a map's content amounts to: things to draw and the points `.automatic` must frame.
struct MapScene {
    var markers: [MarkerItem] = []
    var annotations: [AnnotationItem] = []
    var overlays: [(renderer: MKOverlayRenderer, level: MKOverlayLevel)] = []
    var showsUserLocation = false
    /// Everything the content covers, for automatic framing.
    var points: [MKMapPoint] = []
    var rects: [MKMapRect] = []

    mutating func addOverlay(_ renderer: MKOverlayRenderer, _ environment: MapContentEnvironment) {
        // SwiftUI maps put overlays above roads by default (MKMapView's default is above labels).
        overlays.append((renderer, environment.level ?? .aboveRoads))
        rects.append(renderer.overlay.boundingMapRect)
    }

    mutating func fillAndStroke(_ renderer: MKOverlayPathRenderer, _ environment: MapContentEnvironment) {
        renderer.fillColor = ((environment.foreground as? Color) ?? Color.blue.opacity(0.3)).uiColor
        if let stroke = environment.stroke as? Color {
            renderer.strokeColor = stroke.uiColor
            apply(environment.strokeStyle ?? StrokeStyle(lineWidth: 1), to: renderer)
        } else if let style = environment.strokeStyle {
            renderer.strokeColor = UIColor.systemBlue
            apply(style, to: renderer)
        }
        addOverlay(renderer, environment)
    }

    func apply(_ style: StrokeStyle, to renderer: MKOverlayPathRenderer) {
        renderer.lineWidth = style.lineWidth
        renderer.lineCap = style.lineCap
        renderer.lineJoin = style.lineJoin
        renderer.miterLimit = style.miterLimit
        renderer.lineDashPattern = style.dash.isEmpty ? nil : style.dash.map { NSNumber(value: Double($0)) }
        renderer.lineDashPhase = style.dashPhase
    }
}

// MARK: - Camera

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

/// Where a map looks (SwiftUI's `MapCameraPosition`).
public struct MapCameraPosition: Sendable {
    indirect enum Kind: Sendable {
        case automatic
        case region(MKCoordinateRegion)
        case rect(MKMapRect)
        case camera(MapCamera)
        case userLocation(fallback: MapCameraPosition)
        case item(MKMapItem)
    }
    let kind: Kind

    /// Frames all the map's content, with room for markers and their titles.
    public static let automatic = MapCameraPosition(kind: .automatic)
    public static func region(_ region: MKCoordinateRegion) -> MapCameraPosition { MapCameraPosition(kind: .region(region)) }
    public static func rect(_ rect: MKMapRect) -> MapCameraPosition { MapCameraPosition(kind: .rect(rect)) }
    public static func camera(_ camera: MapCamera) -> MapCameraPosition { MapCameraPosition(kind: .camera(camera)) }
    /// Shows a map item, centred at the single-marker zoom.
    public static func item(_ item: MKMapItem, allowsAutomaticPitch: Bool = false) -> MapCameraPosition {
        MapCameraPosition(kind: .item(item))
    }
    /// The map item shown, for an `.item` position.
    public var item: MKMapItem? { if case .item(let item) = kind { item } else { nil } }
    /// Centres on the user's location (``Map/userLocation``), or uses `fallback` when it is unknown.
    public static func userLocation(followsHeading: Bool = false, fallback: MapCameraPosition) -> MapCameraPosition {
        MapCameraPosition(kind: .userLocation(fallback: fallback))
    }

    public var region: MKCoordinateRegion? { if case .region(let region) = kind { region } else { nil } }
    public var rect: MKMapRect? { if case .rect(let rect) = kind { rect } else { nil } }
    public var camera: MapCamera? { if case .camera(let camera) = kind { camera } else { nil } }
    /// Whether the position follows the user's location.
    public var followsUserLocation: Bool { if case .userLocation = kind { true } else { false } }
    /// Whether a person moved the map; headless maps are only positioned by code.
    public var positionedByUser: Bool { false }
}

/// A value that can be read and written elsewhere (SwiftUI's `Binding`), for the `position:`
/// initialiser.
public struct Binding<Value> {
    let get: () -> Value
    let set: (Value) -> Void
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { (self.get, self.set) = (get, set) }
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
}

// MARK: - Map

/// A map scene (SwiftUI's `Map`), rendered headless with ``snapshot(size:scale:dataSource:)``.
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

// MARK: - Controls

/// A map control (SwiftUI's compass, scale, buttons…). Controls are interactive UI, so headless
/// maps accept them, for source compatibility, and draw none.
public protocol MapControl {}
public struct MapCompass: MapControl { public init() {} }
public struct MapScaleView: MapControl { public init() {} }
public struct MapUserLocationButton: MapControl { public init() {} }
public struct MapPitchToggle: MapControl { public init() {} }
public struct MapZoomStepper: MapControl { public init() {} }
public struct MapPitchSlider: MapControl { public init() {} }

/// Builds a list of map controls (SwiftUI's `MapControlBuilder`).
@resultBuilder
public enum MapControlBuilder {
    public static func buildExpression(_ control: any MapControl) -> [any MapControl] { [control] }
    public static func buildBlock(_ parts: [any MapControl]...) -> [any MapControl] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any MapControl]?) -> [any MapControl] { part ?? [] }
    public static func buildEither(first: [any MapControl]) -> [any MapControl] { first }
    public static func buildEither(second: [any MapControl]) -> [any MapControl] { second }
}

extension Map {
    /// The controls shown over the map; headless maps draw none (see ``MapControl``).
    public func mapControls(@MapControlBuilder _ content: () -> [any MapControl]) -> Map { self }
}

extension Map {
    /// How a map is drawn (SwiftUI's `MapStyle`): the standard street map, imagery, or hybrid.
    public struct Style: Sendable {
        /// Whether terrain is drawn in relief (snapshots are drawn flat for now).
        public enum Elevation: Sendable { case automatic, flat, realistic }
        /// How strongly the map's own features are drawn.
        public enum StandardEmphasis: Sendable { case automatic, muted }

        enum Kind: Sendable { case standard(StandardEmphasis), hybrid, imagery }
        let kind: Kind
        let pointsOfInterest: PointOfInterestCategories

        public static let standard = Style(kind: .standard(.automatic), pointsOfInterest: .all)
        public static let imagery = Style(kind: .imagery, pointsOfInterest: .all)
        public static let hybrid = Style(kind: .hybrid, pointsOfInterest: .all)

        public static func standard(elevation: Elevation = .automatic, emphasis: StandardEmphasis = .automatic,
                                    pointsOfInterest: PointOfInterestCategories = .all, showsTraffic: Bool = false) -> Style {
            Style(kind: .standard(emphasis), pointsOfInterest: pointsOfInterest)
        }

        public static func hybrid(elevation: Elevation = .automatic, pointsOfInterest: PointOfInterestCategories = .all,
                                  showsTraffic: Bool = false) -> Style {
            Style(kind: .hybrid, pointsOfInterest: pointsOfInterest)
        }

        public static func imagery(elevation: Elevation = .automatic) -> Style {
            Style(kind: .imagery, pointsOfInterest: .all)
        }

        var configuration: MKMapConfiguration {
            switch kind {
            case .standard(let emphasis):
                let configuration = MKStandardMapConfiguration(emphasisStyle: emphasis == .muted ? .muted : .default)
                configuration.pointOfInterestFilter = pointsOfInterest.filter
                return configuration
            case .hybrid:
                let configuration = MKHybridMapConfiguration()
                configuration.pointOfInterestFilter = pointsOfInterest.filter
                return configuration
            case .imagery:
                return MKImageryMapConfiguration()
            }
        }
    }
}

/// Which points of interest a SwiftUI map shows (SwiftUI's `PointOfInterestCategories`).
public struct PointOfInterestCategories: Sendable, ExpressibleByArrayLiteral {
    let filter: MKPointOfInterestFilter?

    public static let all = PointOfInterestCategories(filter: nil)
    public static let excludingAll = PointOfInterestCategories(filter: .excludingAll)
    public static func including(_ categories: [MKPointOfInterestCategory]) -> PointOfInterestCategories {
        PointOfInterestCategories(filter: MKPointOfInterestFilter(including: categories))
    }
    public static func including(_ categories: MKPointOfInterestCategory...) -> PointOfInterestCategories { including(categories) }
    public static func excluding(_ categories: [MKPointOfInterestCategory]) -> PointOfInterestCategories {
        PointOfInterestCategories(filter: MKPointOfInterestFilter(excluding: categories))
    }
    public static func excluding(_ categories: MKPointOfInterestCategory...) -> PointOfInterestCategories { excluding(categories) }

    init(filter: MKPointOfInterestFilter?) { self.filter = filter }
    /// The listed categories only.
    public init(arrayLiteral categories: MKPointOfInterestCategory...) { filter = MKPointOfInterestFilter(including: categories) }
}
