import MapGeometry

/// A MapLibre style document (style specification v8): where the data comes from (sources) and how
/// to draw it (layers, in drawing order). Loading validates the document first, so everything the
/// renderer reads here has the type the specification promises; property values and filters are
/// compiled to expressions as they load (see `StyleProperty.expression`, `StyleLayer.filterExpression`).
public struct Style: Sendable {
    public var version: Int
    public var name: String?
    /// The default camera, used only when the map has not been positioned otherwise.
    public var center: CLLocationCoordinate2D?
    public var zoom: Double?
    public var bearing: Double
    public var pitch: Double
    /// Sources in document order; layers refer to them by id.
    public var sources: [(id: String, source: StyleSource)]
    public var sprite: StyleSprite?
    /// The glyph URL template, with `{fontstack}` and `{range}` tokens.
    public var glyphs: String?
    /// Layers in drawing order (first is drawn first, at the bottom).
    public var layers: [StyleLayer]
    /// The optional root objects, kept as JSON: they are small and their properties are evaluated
    /// like layer properties.
    public var light: JSONObject?
    public var sky: JSONObject?
    public var terrain: JSONObject?
    public var projection: JSONObject?
    public var transition: StyleTransition?
    public var metadata: JSONValue?
    /// Problems that did not prevent loading (validation warnings).
    public var warnings: [StyleValidationError]
    /// The document as loaded, for properties this model does not surface.
    public var json: JSONValue
    /// Images added to the style at run time (MapLibre's `addImage`), by the name `icon-image`
    /// and the `*-pattern` properties use; they take precedence over the sprite's images of the
    /// same name. Not part of the JSON: a document loads with none.
    public var images: [String: StyleImage] = [:]
    /// The pictures of `image` sources given in code rather than by URL (MapLibre Native's
    /// `ImageSource::setImage`), by source identifier; drawn instead of the source's `url`. Not
    /// part of the JSON.
    public var sourceImages: [String: StyleImage] = [:]

    /// Loads a parsed document; throws `StyleError.invalid` with every problem when any is an
    /// error, so a broken style is never half-drawn.
    public init(json: JSONValue) throws(StyleError) {
        try self.init(json: json, lines: nil)
    }

    /// Loads a document from its UTF-8 text: `StyleError.json` if it is not JSON (with line and
    /// column), `StyleError.invalid` if it breaks the specification (with exact lines).
    public init(data: some Collection<UInt8>) throws(StyleError) {
        let bytes = Array(data)
        let parsed: (value: JSONValue, lines: JSONLines)
        do { parsed = try JSONValue.parse(bytes, recordingLines: true) } catch { throw .json(error) }
        try self.init(json: parsed.value, lines: parsed.lines)
    }

    /// Loads a document from a string; see `init(data:)`.
    public init(text: String) throws(StyleError) {
        try self.init(data: Array(text.utf8))
    }

    private init(json: JSONValue, lines: JSONLines?) throws(StyleError) {
        let problems = StyleValidator(root: json, lines: lines).run()
        if problems.contains(where: { $0.severity == .error }) { throw .invalid(problems) }
        guard let root = json.objectValue else { throw .invalid(problems) }
        self.json = json
        warnings = problems
        version = Int(root["version"]?.numberValue ?? 8)
        name = root["name"]?.stringValue
        if let center = root["center"]?.arrayValue?.compactMap(\.numberValue), center.count == 2 {
            self.center = CLLocationCoordinate2D(latitude: center[1], longitude: center[0])
        }
        zoom = root["zoom"]?.numberValue
        bearing = root["bearing"]?.numberValue ?? 0
        pitch = root["pitch"]?.numberValue ?? 0
        sources = (root["sources"]?.objectValue?.members ?? []).compactMap { member in
            member.value.objectValue.flatMap(StyleSource.init).map { (member.key, $0) }
        }
        switch root["sprite"] {
        case .string(let url)?: sprite = .url(url)
        case .array(let sprites)?:
            sprite = .sprites(sprites.compactMap { item in
                guard let id = item["id"]?.stringValue, let url = item["url"]?.stringValue else { return nil }
                return (id, url)
            })
        default: sprite = nil
        }
        glyphs = root["glyphs"]?.stringValue
        let layerObjects = root["layers"]?.arrayValue?.compactMap(\.objectValue) ?? []
        layers = layerObjects.compactMap { StyleLayer(object: $0, all: layerObjects) }
        light = root["light"]?.objectValue
        sky = root["sky"]?.objectValue
        terrain = root["terrain"]?.objectValue
        projection = root["projection"]?.objectValue
        transition = root["transition"]?.objectValue.map(StyleTransition.init)
        metadata = root["metadata"]
    }

    /// The source with the given id.
    public func source(_ id: String) -> StyleSource? { sources.first { $0.id == id }?.source }

    /// The layer with the given id.
    public func layer(_ id: String) -> StyleLayer? { layers.first { $0.id == id } }
}

/// Where sprite images come from: one URL (without the `.json`/`.png` suffix), or several named ones.
public enum StyleSprite: Sendable {
    case url(String)
    case sprites([(id: String, url: String)])
}

/// How long property changes animate, in milliseconds.
public struct StyleTransition: Sendable, Hashable {
    public var duration: Double
    public var delay: Double

    public init(duration: Double = 300, delay: Double = 0) {
        self.duration = duration
        self.delay = delay
    }

    /// A `transition` object as written: `duration` and `delay` in milliseconds, 300 and 0 when left out.
    public init(_ object: JSONObject) {
        duration = object["duration"]?.numberValue ?? 300
        delay = object["delay"]?.numberValue ?? 0
    }
}

/// A data source. One struct for all kinds, because most fields are shared (TileJSON fields for
/// tiled sources, a URL for media) and the renderer switches on `type` anyway.
public struct StyleSource: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case vector
        case raster
        case rasterDEM = "raster-dem"
        case geojson
        case image
        case video
    }

    public var type: Kind
    /// A TileJSON URL (tiled sources) or the media URL (image).
    public var url: String?
    /// Tile URL templates with `{z}/{x}/{y}` tokens.
    public var tiles: [String]
    public var minzoom: Double
    public var maxzoom: Double
    /// Pixel size of raster tiles (512 in the specification's default).
    public var tileSize: Double?
    /// "xyz" or "tms".
    public var scheme: String
    /// [west, south, east, north] in degrees.
    public var bounds: [Double]?
    public var attribution: String?
    /// GeoJSON sources: inline GeoJSON or a URL string.
    public var data: JSONValue?
    /// Video sources: the video URLs, best format first.
    public var urls: [String]
    /// Image and video sources: the corners [top-left, top-right, bottom-right, bottom-left].
    public var coordinates: [CLLocationCoordinate2D]
    /// All of the source's members as written.
    public var properties: JSONObject

    /// A source read from its JSON object as a style's `sources` member holds it; nil when its
    /// `type` is missing or unknown.
    public init?(_ object: JSONObject) {
        guard let typeName = object["type"]?.stringValue, let type = Kind(rawValue: typeName) else { return nil }
        self.type = type
        properties = object
        url = object["url"]?.stringValue
        tiles = object["tiles"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let spec = StyleReference.source(for: typeName) ?? []
        func specDefault(_ name: String) -> Double? { spec.first { $0.name == name }?.defaultValue?.numberValue }
        minzoom = object["minzoom"]?.numberValue ?? specDefault("minzoom") ?? 0
        maxzoom = object["maxzoom"]?.numberValue ?? specDefault("maxzoom") ?? 22
        tileSize = object["tileSize"]?.numberValue ?? specDefault("tileSize")
        scheme = object["scheme"]?.stringValue ?? "xyz"
        bounds = object["bounds"]?.arrayValue?.compactMap(\.numberValue)
        attribution = object["attribution"]?.stringValue
        data = object["data"]
        urls = object["urls"]?.arrayValue?.compactMap(\.stringValue) ?? []
        coordinates = (object["coordinates"]?.arrayValue ?? []).compactMap { corner in
            guard let pair = corner.arrayValue?.compactMap(\.numberValue), pair.count == 2 else { return nil }
            return CLLocationCoordinate2D(latitude: pair[1], longitude: pair[0])
        }
    }
}

/// One layer: which features (source, source-layer, zoom range, filter) and how to draw them.
public struct StyleLayer: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case background, fill, line, circle, symbol, raster, hillshade, heatmap
        case fillExtrusion = "fill-extrusion"
        case colorRelief = "color-relief"
    }

    public var id: String
    public var type: Kind
    public var source: String?
    public var sourceLayer: String?
    public var minzoom: Double?
    public var maxzoom: Double?
    /// The filter as written: legacy (["==", "class", "park"]) or an expression.
    public var filter: JSONValue? { didSet { filterExpression = filter.flatMap(Self.compileFilter) } }
    /// `filter` compiled to a boolean expression (legacy filters converted first); nil only without
    /// a filter. A feature is drawn when this evaluates to true; evaluation errors count as false.
    public private(set) var filterExpression: MapStyle.Expression?
    /// Layout properties in document order (placement, visibility: evaluated when tiles are laid out).
    public var layout: [StyleProperty]
    /// Paint properties in document order (evaluated every frame).
    public var paint: [StyleProperty]
    public var metadata: JSONValue?

    init?(object: JSONObject, all: [JSONObject]) {
        guard let id = object["id"]?.stringValue else { return nil }
        var typeName = object["type"]?.stringValue
        if let ref = object["ref"]?.stringValue, let parent = all.first(where: { $0["id"]?.stringValue == ref }) {
            typeName = parent["type"]?.stringValue
        }
        guard let typeName, let type = Kind(rawValue: typeName) else { return nil }
        self.id = id
        self.type = type
        source = object["source"]?.stringValue
        sourceLayer = object["source-layer"]?.stringValue
        minzoom = object["minzoom"]?.numberValue
        maxzoom = object["maxzoom"]?.numberValue
        filter = object["filter"]
        filterExpression = filter.flatMap(Self.compileFilter)
        metadata = object["metadata"]
        layout = Self.properties(object["layout"]?.objectValue, section: "layout_" + typeName)
        paint = Self.properties(object["paint"]?.objectValue, section: "paint_" + typeName)
    }

    /// Filters are compiled as booleans (unlike validation, which follows MapLibre in leaving the
    /// type open), so evaluation always yields true or false. One that validates but cannot be a
    /// boolean (["+", 1, 2]) becomes `false`: hiding the layer's features is safer than a nil a
    /// renderer could read as "no filter" and draw everything.
    static func compileFilter(_ filter: JSONValue) -> MapStyle.Expression? {
        let input = StyleExpressionCheck.isExpressionFilter(filter) ? filter : StyleExpressionCheck.convertLegacyFilter(filter, forEvaluation: true)
        if let input, let compiled = try? MapStyle.Expression.parse(input, expected: .boolean) { return compiled }
        return try? MapStyle.Expression.parse(.bool(false), expected: .boolean)
    }

    private static func properties(_ object: JSONObject?, section: String) -> [StyleProperty] {
        guard let object else { return [] }
        return object.members.enumerated().map { offset, member in
            StyleProperty(name: member.key, value: member.value, spec: StyleReference.property(member.key, in: section),
                          line: object.line(of: member.key))
        }
    }

    /// The value of a layout property as written, nil when the document leaves it to the default.
    public func layoutValue(_ name: String) -> JSONValue? { layout.first { $0.name == name }?.value }
    /// The value of a paint property as written.
    public func paintValue(_ name: String) -> JSONValue? { paint.first { $0.name == name }?.value }

    /// Whether the layer is drawn at all ("visibility": "none" hides it without removing it).
    public var isVisible: Bool { layoutValue("visibility") != .string("none") }
}

/// A paint or layout property as written in the document, with its specification and its compiled
/// form, so a renderer evaluates `expression` per feature and zoom and never re-reads the JSON.
public struct StyleProperty: Sendable {
    public var name: String
    /// The value as written. Changing it (or `spec`) recompiles `expression`, so the two never disagree.
    public var value: JSONValue { didSet { expression = Self.compile(value, spec: spec) } }
    /// nil for "<name>-transition" entries and properties the specification does not define.
    public var spec: StylePropertySpec? { didSet { expression = Self.compile(value, spec: spec) } }
    public var line: Int?
    /// `value` compiled against the property's expression rules: expressions as they are, legacy
    /// functions converted, constants wrapped (colors parsed, `{token}` strings turned into
    /// lookups). nil for transitions, for properties that take no expressions ("*-transition",
    /// unknown names) and for values that do not compile, which a validated `Style` never holds.
    public private(set) var expression: MapStyle.Expression?

    public init(name: String, value: JSONValue, spec: StylePropertySpec?, line: Int? = nil) {
        self.name = name
        self.value = value
        self.spec = spec
        self.line = line
        expression = Self.compile(value, spec: spec)
    }

    /// The transition timing ("fill-color-transition"), when the property is one.
    public var isTransition: Bool { name.hasSuffix("-transition") }

    static func compile(_ value: JSONValue, spec: StylePropertySpec?) -> MapStyle.Expression? {
        guard let spec, spec.acceptsExpressions else { return nil }
        return try? MapStyle.Expression.parse(expressionInput(value, spec: spec, convertFunctions: false), propertySpec: ExpressionPropertySpec(spec))
    }

    /// A property value as written in a document (a constant, a legacy function or an
    /// expression) as the expression it stands for, in JSON: constants wrapped in `literal` where
    /// they would otherwise read as expressions, `{token}` strings of token properties turned into
    /// lookups, legacy functions converted. For code that shows or edits every value as an
    /// expression (Mapbox's runtime-styling API).
    public static func expressionJSON(_ value: JSONValue, spec: StylePropertySpec) -> JSONValue {
        expressionInput(value, spec: spec, convertFunctions: true)
    }

    private static func expressionInput(_ value: JSONValue, spec: StylePropertySpec, convertFunctions: Bool) -> JSONValue {
        if LegacyFunction.isFunction(value) {
            return convertFunctions ? LegacyFunction.convert(value, spec: ExpressionPropertySpec(spec)) : value
        }
        if StyleExpressionCheck.isExpression(value) { return value }
        // A constant: arrays and objects would otherwise read as expressions. Tokens in
        // constant strings are resolved per feature, as MapLibre's symbol layout does.
        if spec.tokens, case .string(let text) = value { return LegacyFunction.tokenString(text) }
        return LegacyFunction.literal(value)
    }
}

extension Array where Element == StyleProperty {
    /// The property with the given name (`layer.paint["fill-color"]`); properties are few per
    /// layer, so a linear search beats keeping a dictionary in step with the array.
    public subscript(name: String) -> StyleProperty? { first { $0.name == name } }
}
