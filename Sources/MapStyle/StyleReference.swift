/// One entry of the style specification's reference: what a property (or an array element, or a
/// standalone value such as a filter) may hold. The validator checks documents against these, and
/// the expression compiler reads `propertyType`, `interpolated` and `parameters` (through
/// `ExpressionPropertySpec.init(_:)`) to know which expressions a property accepts.
public struct StylePropertySpec: Sendable {
    /// The property's name ("fill-color"); empty for array element specs.
    public let name: String
    /// The spec's type name: "number", "string", "boolean", "enum", "color", "array", "formatted",
    /// "resolvedImage", "padding", "numberArray", "colorArray", "variableAnchorOffsetCollection",
    /// "projectionDefinition", "sprite", "filter", "*" (anything), or the name of another section
    /// ("light", "sources", "layer", "transition" …) whose properties describe an object.
    public let type: String
    /// For arrays: the element type name, or the name of a section describing the elements.
    public let value: String?
    /// For arrays whose elements may be one of several types (function stops: number, color).
    public let valueTypes: [String]
    /// For arrays whose elements are described inline (video coordinates).
    public var element: StylePropertySpec? { elementBox.first }
    private let elementBox: [StylePropertySpec]
    /// For enums (and arrays of enums): the allowed values, in the specification's order.
    public let values: [JSONValue]
    /// For arrays: the exact number of elements required.
    public let length: Int?
    /// The smallest allowed number (for numbers, and the elements of number arrays).
    public let minimum: Double?
    /// The largest allowed number.
    public let maximum: Double?
    /// What the renderer uses when the document leaves the property out; nil where there is none
    /// (the property is then optional and without effect, or required).
    public let defaultValue: JSONValue?
    /// Whether a document must give the property (only enforced when there is no default).
    public let required: Bool
    /// Whether the property can be animated with a `<name>-transition` object.
    public let transition: Bool
    /// Whether strings may contain `{token}` references to feature properties.
    public let tokens: Bool
    /// "data-driven", "data-constant", "constant", "color-ramp", "cross-faded",
    /// "cross-faded-data-driven"; nil for properties that take no expressions.
    public let propertyType: String?
    /// Whether expressions for this property may interpolate (nil: expressions not allowed).
    public let interpolated: Bool?
    /// The inputs expressions may depend on: "zoom", "feature", "feature-state", "heatmap-density",
    /// "line-progress" …
    public let parameters: [String]
    /// Units for documentation and editors ("pixels", "degrees", "milliseconds").
    public let units: String?
    /// For angles: values wrap around with this period (360 for bearings).
    public let period: Double?

    public init(name: String, type: String, value: String? = nil, valueTypes: [String] = [],
                element: StylePropertySpec? = nil, values: [JSONValue] = [], length: Int? = nil,
                minimum: Double? = nil, maximum: Double? = nil, defaultValue: JSONValue? = nil,
                required: Bool = false, transition: Bool = false, tokens: Bool = false,
                propertyType: String? = nil, interpolated: Bool? = nil, parameters: [String] = [],
                units: String? = nil, period: Double? = nil) {
        self.name = name
        self.type = type
        self.value = value
        self.valueTypes = valueTypes
        self.elementBox = element.map { [$0] } ?? []
        self.values = values
        self.length = length
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.required = required
        self.transition = transition
        self.tokens = tokens
        self.propertyType = propertyType
        self.interpolated = interpolated
        self.parameters = parameters
        self.units = units
        self.period = period
    }

    /// Whether the property accepts expressions (and legacy functions) at all.
    public var acceptsExpressions: Bool { interpolated != nil }
    /// Whether values may depend on feature properties.
    public var isDataDriven: Bool { propertyType == "data-driven" || propertyType == "cross-faded-data-driven" }
    /// Whether values may depend on the zoom level.
    public var isZoomDependent: Bool { parameters.contains("zoom") }
    /// Whether expressions may interpolate between stops.
    public var supportsInterpolation: Bool { interpolated == true }
}

/// A property's value type, as a closed set for code that switches on it (the expression compiler
/// picks the result type it type-checks against from this).
public indirect enum StyleValueType: Hashable, Sendable {
    case number
    case string
    case boolean
    case color
    /// One of the listed values (strings, or numbers for "version").
    case enumeration([JSONValue])
    /// Elements of one type, with a fixed length when given ("text-offset": number × 2).
    case array(of: StyleValueType, length: Int?)
    /// A string or a "format" expression with styled sections.
    case formatted
    /// An image name resolved against the sprite.
    case resolvedImage
    /// 1 to 4 numbers (CSS order), or one number.
    case padding
    /// One number or an array of numbers (per-direction values).
    case numberArray
    /// One color or an array of colors.
    case colorArray
    /// Alternating text anchors and [x, y] offsets.
    case variableAnchorOffsetCollection
    case projectionDefinition
    /// An object described by another section of the specification ("light", "transition" …).
    case object(section: String)
    /// Anything ("metadata", GeoJSON "data").
    case any
    /// A type this version of the library does not model (kept so newer specs still load).
    case other(String)
}

/// How a property may vary, which decides the expressions it accepts and when it is evaluated.
public enum StylePropertyKind: String, Hashable, Sendable {
    /// May depend on zoom and on feature properties.
    case dataDriven = "data-driven"
    /// May depend on zoom only.
    case dataConstant = "data-constant"
    /// Never varies.
    case constant
    /// Evaluated over a ramp input ("heatmap-density", "line-progress") into a texture.
    case colorRamp = "color-ramp"
    /// Image patterns that cross-fade between zoom levels.
    case crossFaded = "cross-faded"
    /// Cross-faded patterns that may also depend on feature properties.
    case crossFadedDataDriven = "cross-faded-data-driven"
}

extension StylePropertySpec {
    /// `type` as a closed enumeration.
    public var valueType: StyleValueType {
        switch type {
        case "number": return .number
        case "string": return .string
        case "boolean": return .boolean
        case "color": return .color
        case "enum": return .enumeration(values)
        case "array":
            let elementType: StyleValueType
            if let element {
                elementType = element.valueType
            } else if let value, value == "enum" {
                elementType = .enumeration(values)
            } else if let value {
                elementType = StylePropertySpec(name: "", type: value).valueType
            } else {
                elementType = .any
            }
            return .array(of: elementType, length: length)
        case "formatted": return .formatted
        case "resolvedImage": return .resolvedImage
        case "padding": return .padding
        case "numberArray": return .numberArray
        case "colorArray": return .colorArray
        case "variableAnchorOffsetCollection": return .variableAnchorOffsetCollection
        case "projectionDefinition": return .projectionDefinition
        case "*": return .any
        default: return StyleReference.isSection(type) ? .object(section: type) : .other(type)
        }
    }

    /// `propertyType` as an enumeration; nil for values that take no expressions.
    public var kind: StylePropertyKind? { propertyType.flatMap(StylePropertyKind.init(rawValue:)) }
}

/// The MapLibre style specification v8 as a lookup table, compiled into the library by
/// `Scripts/generate-style-reference.py` so that nothing is read from disk at run time.
public enum StyleReference {
    private static let sectionTable: [String: [StylePropertySpec]] = {
        var table: [String: [StylePropertySpec]] = [:]
        for section in generatedSections { table[section.name] = section.properties }
        return table
    }()
    private static let sectionIndex: [String: [String: StylePropertySpec]] = {
        var table: [String: [String: StylePropertySpec]] = [:]
        for section in generatedSections {
            var map: [String: StylePropertySpec] = [:]
            for property in section.properties { map[property.name] = property }
            table[section.name] = map
        }
        return table
    }()

    /// All section names ("$root", "layer", "paint_fill" …) in the specification's order.
    public static var sectionNames: [String] { generatedSections.map(\.name) }

    /// The properties of a section in the specification's order; nil for unknown sections.
    public static func properties(in section: String) -> [StylePropertySpec]? { sectionTable[section] }

    /// One property of a section.
    public static func property(_ name: String, in section: String) -> StylePropertySpec? {
        sectionIndex[section]?[name]
    }

    /// Whether `section` names a group of properties (so a spec of that type describes an object).
    public static func isSection(_ section: String) -> Bool { sectionIndex[section] != nil }

    /// Named lists of sections: "source" → the "source_*" sections, "layout" → "layout_*", "paint" → "paint_*".
    public static var sectionLists: [String: [String]] { generatedSectionLists }

    /// A standalone value spec ("filter", "function_stop", "geometry_type", "expression_name" …).
    public static func valueSpec(_ name: String) -> StylePropertySpec? { generatedValueSpecs[name] }

    /// The root properties of a style document.
    public static var root: [StylePropertySpec] { sectionTable["$root"] ?? [] }
    /// The properties every layer has (id, type, source, filter …).
    public static var layer: [StylePropertySpec] { sectionTable["layer"] ?? [] }
    /// The layer types, in the specification's order.
    public static var layerTypes: [String] { property("type", in: "layer")?.values.compactMap(\.stringValue) ?? [] }

    /// Layout properties of a layer type ("fill", "symbol" …); nil for unknown types.
    public static func layout(for layerType: String) -> [StylePropertySpec]? { sectionTable["layout_" + layerType] }
    /// Paint properties of a layer type; nil for unknown types.
    public static func paint(for layerType: String) -> [StylePropertySpec]? { sectionTable["paint_" + layerType] }

    /// The properties of a source type ("vector", "raster-dem" …); nil for unknown types.
    public static func source(for sourceType: String) -> [StylePropertySpec]? {
        sectionTable["source_" + String(sourceType.map { $0 == "-" ? "_" : $0 })]
    }

    /// Names of expression operators the specification defines, for telling an expression from a
    /// literal array.
    public static let expressionOperators: Set<String> = Set(valueSpec("expression_name")?.values.compactMap(\.stringValue) ?? [])
}

extension ExpressionPropertySpec {
    /// The expression rules of a reference entry. The validator and `Style` compile property values
    /// with this, so both read what an expression may do from the same generated table rather than
    /// from `v8.json` at run time.
    public init(_ spec: StylePropertySpec) {
        let type: ExpressionType? = if spec.type == "array" {
            .array(spec.value.flatMap(ExpressionType.named) ?? .value, spec.length)
        } else {
            ExpressionType.named(spec.type)
        }
        // Entries without an "expression" section have no parameters; like `init(json:)`, treat
        // them as unrestricted (they only reach the compiler through Style, never the validator).
        let restricted = spec.acceptsExpressions
        self.init(type: type,
                  allowsZoom: !restricted || spec.parameters.contains("zoom"),
                  allowsFeature: (!restricted || spec.parameters.contains("feature"))
                      && spec.propertyType != "data-constant" && spec.propertyType != "constant",
                  interpolated: spec.interpolated ?? false,
                  tokens: spec.tokens,
                  enumValues: spec.values.compactMap(\.stringValue),
                  defaultValue: spec.defaultValue)
    }
}
