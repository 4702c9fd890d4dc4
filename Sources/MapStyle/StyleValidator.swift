/// A value of the document being validated, with the line it starts on and the lines of its parts.
struct StyleNode {
    let value: JSONValue
    let lines: JSONLines?
    /// nil for `null` values, which MapLibre's validator cannot place either.
    let line: Int?

    init(value: JSONValue, lines: JSONLines?, line: Int?) {
        self.value = value
        self.lines = lines
        self.line = value == .null ? nil : line
    }

    func member(_ key: String) -> StyleNode? {
        guard case .object(let object) = value, let child = object[key] else { return nil }
        let childLines = lines?.members[key]
        return StyleNode(value: child, lines: childLines, line: childLines?.line ?? object.line(of: key) ?? line)
    }

    var members: [(key: String, node: StyleNode)] {
        guard case .object(let object) = value else { return [] }
        return object.keys.compactMap { key in member(key).map { (key, $0) } }
    }

    var elements: [StyleNode] {
        guard case .array(let array) = value else { return [] }
        return array.indices.map { index in
            let childLines = lines.flatMap { index < $0.elements.count ? $0.elements[index] : nil }
            return StyleNode(value: array[index], lines: childLines, line: childLines?.line ?? line)
        }
    }
}

/// Checks a document the way MapLibre's `validateStyleMin` does, property by property against
/// `StyleReference`, producing the same messages.
final class StyleValidator {
    typealias ElementValidator = (_ key: String, _ node: StyleNode, _ objectKey: String) -> Void

    private let root: StyleNode
    private var found: [(error: StyleValidationError, sortLine: Int)] = []
    /// "paint" or "layout" while a layer property is being validated.
    private var propertyKind: String?

    private let strict: Bool
    /// The layers and sources, looked up once: every layer checks its id and source against them.
    private lazy var layerNodes: [StyleNode] = root.member("layers")?.elements ?? []
    private lazy var sourceNodes: StyleNode? = root.member("sources")

    init(root: JSONValue, lines: JSONLines?, strict: Bool = false) {
        self.root = StyleNode(value: root, lines: lines, line: lines?.line ?? 1)
        self.strict = strict
    }

    /// Unknown root and layer keys: ignored as in MapLibre, or warnings in strict mode.
    private func unknownKey(_ parentKey: String, _ node: StyleNode, _ name: String) {
        if strict { report(parentKey, node, "unknown property \"\(name)\"", severity: .warning) }
    }

    func run() -> [StyleValidationError] {
        validateObject("", root, specs: StyleReference.root, validators: ["glyphs": { [unowned self] key, node, _ in validateGlyphs(key, node) }],
                       wildcardValidator: { [unowned self] _, node, name in
                           if name != "constants" { unknownKey("", node, name) }
                       })
        if let constants = root.member("constants") {
            report("constants", constants, "constants have been deprecated as of v8")
        }
        // MapLibre sorts by line (a stable sort); problems without a line stay after their predecessor.
        return found.enumerated().sorted { ($0.element.sortLine, $0.offset) < ($1.element.sortLine, $1.offset) }.map(\.element.error)
    }

    // MARK: Reporting

    func report(_ key: String, _ node: StyleNode?, _ message: String, severity: StyleValidationError.Severity = .error,
                identifier: String? = nil) {
        let line = node?.line
        let error = StyleValidationError(message: key.isEmpty ? message : "\(key): \(message)", line: line,
                                         severity: severity, identifier: identifier)
        found.append((error, line ?? found.last?.sortLine ?? 0))
    }

    // MARK: Dispatch

    /// Validates a value against a spec; `index` is the position of layers in the layer array.
    func validate(_ key: String, _ node: StyleNode, _ spec: StylePropertySpec, index: Int? = nil) {
        if spec.acceptsExpressions, case .object = node.value {
            StyleFunctionValidator(validator: self, spec: spec, node: node).validate(key)
            return
        }
        if spec.acceptsExpressions, StyleExpressionCheck.isExpression(node.value) {
            validateExpression(key, node, spec, context: .property)
            return
        }
        switch spec.type {
        case "*": return
        case "number": validateNumber(key, node, spec)
        case "string": expectType("string", key, node)
        case "boolean": expectType("boolean", key, node)
        case "color": validateColor(key, node)
        case "enum": validateEnum(key, node, spec.values)
        case "array": validateArray(key, node, spec)
        case "filter": validateFilter(key, node)
        case "layer": validateLayer(key, node, index: index ?? 0)
        case "source": validateSource(key, node)
        case "light", "sky", "terrain", "projection": validateFlatObject(key, node, section: spec.type)
        case "formatted", "resolvedImage":
            if case .string = node.value { return }
            if StyleExpressionCheck.isExpression(node.value) { validateExpression(key, node, spec, context: .property) }
        case "padding": validateNumberOrArray(key, node, spec, element: "number", range: 1...4)
        case "numberArray": validateNumberOrArray(key, node, spec, element: "number", range: nil)
        case "colorArray": validateNumberOrArray(key, node, spec, element: "color", range: nil)
        case "variableAnchorOffsetCollection": validateVariableAnchorOffsets(key, node)
        case "sprite": validateSprite(key, node)
        case "projectionDefinition":
            switch node.value {
            case .string, .array: return
            default: report(key, node, "projection expected, invalid type \"\(node.value.typeName)\" found")
            }
        case "state": expectType("object", key, node)
        case "fontFaces": validateFontFaces(key, node)
        case "promoteId":
            switch node.value {
            case .string: return
            case .object: validateObject(key, node, specs: StyleReference.properties(in: "promoteId") ?? [])
            default: report(key, node, "string expected, \(node.value.typeName) found")
            }
        default:
            if let specs = StyleReference.properties(in: spec.type) {
                validateObject(key, node, specs: specs)
            } else if let valueSpec = StyleReference.valueSpec(spec.type), valueSpec.type != spec.type {
                validate(key, node, valueSpec)
            }
        }
    }

    /// MapLibre's validateObject: unknown keys are errors unless a wildcard handles them; required
    /// keys without defaults must be present.
    func validateObject(_ key: String, _ node: StyleNode, specs: [StylePropertySpec],
                        validators: [String: ElementValidator] = [:], wildcardValidator: ElementValidator? = nil) {
        guard case .object(let object) = node.value else {
            report(key, node, "object expected, \(node.value.typeName) found")
            return
        }
        var byName: [String: StylePropertySpec] = [:]
        for spec in specs { byName[spec.name] = spec }
        let wildcard = byName["*"]
        for (objectKey, child) in node.members {
            let childKey = key.isEmpty ? objectKey : "\(key).\(objectKey)"
            if let validator = validators[objectKey] {
                validator(childKey, child, objectKey)
            } else if let spec = byName[objectKey] {
                validate(childKey, child, spec)
            } else if let wildcardValidator {
                wildcardValidator(childKey, child, objectKey)
            } else if let wildcard {
                validate(childKey, child, wildcard)
            } else {
                report(key, child, "unknown property \"\(objectKey)\"")
            }
        }
        for spec in specs where validators[spec.name] == nil && spec.required && spec.defaultValue == nil && object[spec.name] == nil {
            report(key, node, "missing required property \"\(spec.name)\"")
        }
    }

    // MARK: Primitive types

    @discardableResult
    func expectType(_ type: String, _ key: String, _ node: StyleNode) -> Bool {
        guard node.value.typeName == type else {
            report(key, node, "\(type) expected, \(node.value.typeName) found")
            return false
        }
        return true
    }

    func validateNumber(_ key: String, _ node: StyleNode, _ spec: StylePropertySpec) {
        guard expectType("number", key, node), let number = node.value.numberValue else { return }
        if let minimum = spec.minimum, number < minimum {
            report(key, node, "\(StyleJS.number(number)) is less than the minimum value \(StyleJS.number(minimum))")
        } else if let maximum = spec.maximum, number > maximum {
            report(key, node, "\(StyleJS.number(number)) is greater than the maximum value \(StyleJS.number(maximum))")
        }
    }

    /// Uses the expression language's color parser, so a color the validator accepts is exactly one
    /// the renderer can draw.
    func validateColor(_ key: String, _ node: StyleNode) {
        guard expectType("color", key, node, typeName: "string"), let text = node.value.stringValue else { return }
        if StyleColor.parse(text) == nil {
            report(key, node, "color expected, \(StyleJS.stringify(node.value)) found")
        }
    }

    private func expectType(_ expected: String, _ key: String, _ node: StyleNode, typeName: String) -> Bool {
        guard node.value.typeName == typeName else {
            report(key, node, "\(expected) expected, \(node.value.typeName) found")
            return false
        }
        return true
    }

    func validateEnum(_ key: String, _ node: StyleNode, _ values: [JSONValue]) {
        guard !values.contains(node.value) else { return }
        let list = values.map { value in value.stringValue ?? StyleJS.stringify(value) }.joined(separator: ", ")
        report(key, node, "expected one of [\(list)], \(StyleJS.stringify(node.value)) found")
    }

    func validateArray(_ key: String, _ node: StyleNode, _ spec: StylePropertySpec) {
        guard case .array(let array) = node.value else {
            report(key, node, "array expected, \(node.value.typeName) found")
            return
        }
        if let length = spec.length, array.count != length {
            report(key, node, "array length \(length) expected, length \(array.count) found")
            return
        }
        let elementSpec = spec.element ?? StylePropertySpec(name: "", type: spec.value ?? "*", values: spec.values)
        for (index, element) in node.elements.enumerated() {
            validate("\(key)[\(index)]", element, elementSpec, index: index)
        }
    }

    private func validateNumberOrArray(_ key: String, _ node: StyleNode, _ spec: StylePropertySpec, element: String,
                                       range: ClosedRange<Int>?) {
        let elementSpec = StylePropertySpec(name: "", type: element, minimum: spec.minimum, maximum: spec.maximum)
        guard case .array(let array) = node.value else {
            validate(key, node, elementSpec)
            return
        }
        if let range {
            guard range.contains(array.count) else {
                report(key, node, "padding requires 1 to 4 values; \(array.count) values found")
                return
            }
        } else if array.isEmpty {
            report(key, node, "array length at least 1 expected, length 0 found")
            return
        }
        for (index, child) in node.elements.enumerated() { validate("\(key)[\(index)]", child, elementSpec) }
    }

    private func validateVariableAnchorOffsets(_ key: String, _ node: StyleNode) {
        guard case .array(let array) = node.value else {
            report(key, node, "variableAnchorOffsetCollection requires a non-empty array of even length")
            return
        }
        guard !array.isEmpty, array.count % 2 == 0 else {
            report(key, node, "variableAnchorOffsetCollection requires a non-empty array of even length")
            return
        }
        let anchors = StyleReference.property("text-anchor", in: "layout_symbol")?.values ?? []
        let offset = StylePropertySpec(name: "", type: "array", value: "number", length: 2)
        for (index, child) in node.elements.enumerated() {
            if index % 2 == 0 {
                validateEnum("\(key)[\(index)]", child, anchors)
            } else {
                validateArray("\(key)[\(index)]", child, offset)
            }
        }
    }

    private func validateSprite(_ key: String, _ node: StyleNode) {
        switch node.value {
        case .string: return
        case .array:
            var seen: Set<String> = []
            for (index, child) in node.elements.enumerated() {
                let childKey = "\(key)[\(index)]"
                validateObject(childKey, child, specs: [StylePropertySpec(name: "id", type: "string", required: true),
                                                        StylePropertySpec(name: "url", type: "string", required: true)])
                if let id = child.member("id")?.value.stringValue {
                    if seen.contains(id) {
                        report(childKey, child, "all the sprites' ids must be unique, but \(id) is duplicated")
                    }
                    seen.insert(id)
                }
            }
        default: report(key, node, "string expected, \(node.value.typeName) found")
        }
    }

    private func validateFontFaces(_ key: String, _ node: StyleNode) {
        guard expectType("object", key, node) else { return }
        for (fontKey, child) in node.members {
            let childKey = "\(key).\(fontKey)"
            switch child.value {
            case .string: continue
            case .array:
                for (index, face) in child.elements.enumerated() {
                    validateObject("\(childKey)[\(index)]", face, specs: [
                        StylePropertySpec(name: "url", type: "string", required: true),
                        StylePropertySpec(name: "unicode-range", type: "array", value: "string"),
                    ])
                }
            default: report(childKey, child, "string or array expected, \(child.value.typeName) found")
            }
        }
    }

    private func validateGlyphs(_ key: String, _ node: StyleNode) {
        guard expectType("string", key, node), let url = node.value.stringValue else { return }
        if !url.contains("{fontstack}") { report(key, node, "\"glyphs\" url must include a \"{fontstack}\" token") }
        if !url.contains("{range}") { report(key, node, "\"glyphs\" url must include a \"{range}\" token") }
    }

    /// Light, sky, terrain and projection: keys are reported without a prefix, as MapLibre does.
    private func validateFlatObject(_ key: String, _ node: StyleNode, section: String) {
        guard expectType("object", key, node) else { return }
        let specs = StyleReference.properties(in: section) ?? []
        for (propertyKey, child) in node.members {
            if propertyKey.hasSuffix("-transition"),
               let base = StyleReference.property(String(propertyKey.dropLast("-transition".count)), in: section), base.transition {
                validateObject(propertyKey, child, specs: StyleReference.properties(in: "transition") ?? [])
            } else if let spec = StyleReference.property(propertyKey, in: section) {
                validate(propertyKey, child, spec)
            } else {
                report(propertyKey, child, "unknown property \"\(propertyKey)\"")
            }
        }
        if section == "terrain" {
            for spec in specs where spec.required && node.member(spec.name) == nil {
                report(key, node, "missing required property \"\(spec.name)\"")
            }
            if let source = node.member("source"), let name = source.value.stringValue {
                if let sourceNode = sourceNodes?.member(name) {
                    if let type = sourceNode.member("type")?.value.stringValue, type != "raster-dem" {
                        report("source", source, "terrain cannot be used with a source of type \(type), it only be used with a \"raster-dem\" source type")
                    }
                } else {
                    report("source", source, "source \"\(name)\" not found")
                }
            }
        }
    }

    // MARK: Sources

    private func validateSource(_ key: String, _ node: StyleNode) {
        guard case .object = node.value else {
            report(key, node, "object expected, \(node.value.typeName) found")
            return
        }
        guard let typeNode = node.member("type"), typeNode.value != .string(""), typeNode.value != .null,
              typeNode.value != .bool(false), typeNode.value != .number(0) else {
            report(key, node, "\"type\" is required")
            return
        }
        let type = typeNode.value.stringValue ?? ""
        switch type {
        case "vector", "raster", "raster-dem", "geojson", "video", "image":
            validateObject(key, node, specs: StyleReference.source(for: type) ?? [])
            if type == "geojson", let clusterProperties = node.member("clusterProperties"), case .object = clusterProperties.value {
                for (name, property) in clusterProperties.members {
                    let elements = property.elements
                    guard elements.count >= 2 else { continue }
                    validateClusterExpression("\(key).\(name).map", elements[1], elements[1].value)
                    // A bare operator name stands for folding each feature's value into the total.
                    let reduce: JSONValue = if case .string(let op) = elements[0].value {
                        .array([.string(op), .array([.string("accumulated")]), .array([.string("get"), .string(name)])])
                    } else {
                        elements[0].value
                    }
                    validateClusterExpression("\(key).\(name).reduce", elements[0], reduce)
                }
            }
        case "canvas":
            report(key, nil, "Please use runtime APIs to add canvas sources, rather than including them in stylesheets.",
                   identifier: "source.canvas")
        default:
            // The source types are the specification's "source_*" sections.
            let types = (StyleReference.sectionLists["source"] ?? []).map { section in
                JSONValue.string(String(section.dropFirst("source_".count).map { $0 == "_" ? "-" : $0 }))
            }
            validateEnum("\(key).type", typeNode, types)
        }
    }

    // MARK: Layers

    private func validateLayer(_ key: String, _ layer: StyleNode, index: Int) {
        guard case .object = layer.value else {
            report(key, layer, "object expected, \(layer.value.typeName) found")
            return
        }
        let typeNode = layer.member("type")
        let refNode = layer.member("ref")
        if !isTruthy(typeNode?.value), !isTruthy(refNode?.value) {
            report(key, layer, "either \"type\" or \"ref\" is required")
        }
        var type = typeNode?.value.stringValue
        let layers = layerNodes
        let idNode = layer.member("id")
        if let idNode, isTruthy(idNode.value) {
            for other in layers.prefix(index) where other.member("id")?.value == idNode.value {
                let previous = other.member("id")?.line.map(String.init) ?? "undefined"
                report(key, idNode, "duplicate layer id \(StyleJS.stringify(idNode.value)), previously used at line \(previous)")
            }
        }
        if let refNode {
            for property in ["type", "source", "source-layer", "filter", "layout"] {
                if let child = layer.member(property) { report(key, child, "\"\(property)\" is prohibited for ref layers") }
            }
            let parent = layers.first { $0.member("id")?.value == refNode.value && $0.member("id")?.value != nil }
            if let parent {
                if parent.member("ref") != nil {
                    report(key, refNode, "ref cannot reference another ref layer")
                } else {
                    type = parent.member("type")?.value.stringValue
                }
            } else {
                report(key, refNode, "ref layer \"\(refNode.value.stringValue ?? StyleJS.stringify(refNode.value))\" not found")
            }
        } else if type != "background" {
            let layerID = layer.member("id")?.value.stringValue ?? "undefined"
            if let sourceNode = layer.member("source"), isTruthy(sourceNode.value) {
                let sourceName = sourceNode.value.stringValue ?? StyleJS.stringify(sourceNode.value)
                let source = sourceNodes?.member(sourceName)
                let sourceType = source?.member("type")?.value.stringValue
                if source == nil {
                    report(key, sourceNode, "source \"\(sourceName)\" not found")
                } else if sourceType == "vector", type == "raster" {
                    report(key, sourceNode, "layer \"\(layerID)\" requires a raster source")
                } else if sourceType != "raster-dem", type == "hillshade" || type == "color-relief" {
                    report(key, sourceNode, "layer \"\(layerID)\" requires a raster-dem source")
                } else if sourceType == "raster", type != "raster" {
                    report(key, sourceNode, "layer \"\(layerID)\" requires a vector source")
                } else if sourceType == "vector", !isTruthy(layer.member("source-layer")?.value) {
                    report(key, layer, "layer \"\(layerID)\" must specify a \"source-layer\"")
                } else if sourceType == "raster-dem", type != "hillshade", type != "color-relief" {
                    report(key, sourceNode, "raster-dem source can only be used with layer type 'hillshade' or 'color-relief'.")
                } else if type == "line", layer.member("paint")?.member("line-gradient") != nil,
                          sourceType != "geojson" || !isTruthy(source?.member("lineMetrics")?.value) {
                    report(key, layer, "layer \"\(layerID)\" specifies a line-gradient, which requires a GeoJSON source with `lineMetrics` enabled.")
                }
            } else {
                report(key, layer, "missing required property \"source\"")
            }
        }
        if type == "raster", let paint = layer.member("paint"), paint.member("resampling") != nil,
           paint.member("raster-resampling") != nil {
            let layerID = layer.member("id")?.value.stringValue ?? "undefined"
            report(key, paint, "layer \"\(layerID)\" redundantly specifies \"resampling\" and \"raster-resampling\" paint properties, but only one is allowed. It is advised to use \"resampling\".")
        }
        let layerType = type ?? ""
        validateObject(key, layer, specs: StyleReference.layer, validators: [
            "type": { [unowned self] childKey, child, _ in
                if let spec = StyleReference.property("type", in: "layer") { validate(childKey, child, spec) }
            },
            "filter": { [unowned self] childKey, child, _ in validateFilter(childKey, child) },
            "layout": { [unowned self] childKey, child, _ in
                validateObject(childKey, child, specs: [], wildcardValidator: { [unowned self] propertyKey, property, name in
                    validateProperty(propertyKey, property, name: name, layerType: layerType, kind: "layout")
                })
            },
            "paint": { [unowned self] childKey, child, _ in
                validateObject(childKey, child, specs: [], wildcardValidator: { [unowned self] propertyKey, property, name in
                    validateProperty(propertyKey, property, name: name, layerType: layerType, kind: "paint")
                })
            },
        ], wildcardValidator: { [unowned self] _, node, name in
            if name != "ref" { unknownKey(key, node, name) }
        })
    }

    private func isTruthy(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?, .bool(false)?, .string("")?: false
        case .number(let n)?: n != 0 && !n.isNaN
        default: true
        }
    }

    /// A paint or layout property. This is where a property's value meets its specification;
    /// expression values go on to `validateExpression`, which compiles them.
    private func validateProperty(_ key: String, _ node: StyleNode, name: String, layerType: String, kind: String) {
        // Layers of unknown types have already been reported; their properties cannot be checked.
        let sectionName = "\(kind)_\(layerType)"
        guard StyleReference.isSection(sectionName) else { return }
        if kind == "paint", name.hasSuffix("-transition"),
           let base = StyleReference.property(String(name.dropLast("-transition".count)), in: sectionName), base.transition {
            validateObject(key, node, specs: StyleReference.properties(in: "transition") ?? [])
            return
        }
        guard let spec = StyleReference.property(name, in: sectionName) else {
            report(key, node, "unknown property \"\(name)\"")
            return
        }
        if case .string(let text) = node.value, spec.isDataDriven, !spec.tokens,
           text.hasPrefix("{"), text.hasSuffix("}"), text.count > 2, !text.dropFirst().dropLast().contains("}") {
            let token = String(text.dropFirst().dropLast())
            report(key, node, "\"\(name)\" does not support interpolation syntax\nUse an identity property function instead: `{ \"type\": \"identity\", \"property\": \(StyleJS.quote(token)) }`.")
            return
        }
        if layerType == "symbol" {
            if name == "text-field", root.member("glyphs") == nil {
                report(key, node, "use of \"text-field\" requires a style \"glyphs\" property")
            }
            if name == "text-font", case .object = node.value, node.member("type")?.value == .string("identity") {
                report(key, node, "\"text-font\" does not support identity functions")
            }
        }
        propertyKind = kind
        validate(key, node, spec)
        propertyKind = nil
    }

    // MARK: Filters

    func validateFilter(_ key: String, _ node: StyleNode) {
        if StyleExpressionCheck.isExpressionFilter(node.value) {
            validateExpression(key, node, StyleReference.valueSpec("filter") ?? StylePropertySpec(name: "filter", type: "boolean"),
                               context: .filter)
        } else {
            validateLegacyFilter(key, node)
        }
    }

    private func validateLegacyFilter(_ key: String, _ node: StyleNode) {
        guard case .array(let array) = node.value else {
            report(key, node, "array expected, \(node.value.typeName) found")
            return
        }
        guard !array.isEmpty else {
            report(key, node, "filter array must have at least 1 element")
            return
        }
        let elements = node.elements
        validateEnum("\(key)[0]", elements[0], StyleReference.valueSpec("filter_operator")?.values ?? [])
        let op = array[0].stringValue ?? ""
        switch op {
        case "<", "<=", ">", ">=", "==", "!=", "in", "!in":
            if ["<", "<=", ">", ">="].contains(op), array.count >= 2, array[1] == .string("$type") {
                report(key, node, "\"$type\" cannot be use with operator \"\(op)\"")
            }
            if !["in", "!in"].contains(op), array.count != 3 {
                report(key, node, "filter array for operator \"\(op)\" must have 3 elements")
            }
            if array.count >= 2 {
                if array[1].typeName != "string" {
                    report("\(key)[1]", elements[1], "string expected, \(array[1].typeName) found")
                }
                for index in 2..<max(array.count, 2) {
                    if array[1] == .string("$type") {
                        validateEnum("\(key)[\(index)]", elements[index], StyleReference.valueSpec("geometry_type")?.values ?? [])
                    } else if !["string", "number", "boolean"].contains(array[index].typeName) {
                        report("\(key)[\(index)]", elements[index], "string, number, or boolean expected, \(array[index].typeName) found")
                    }
                }
            }
        case "any", "all", "none":
            for index in 1..<max(array.count, 1) { validateLegacyFilter("\(key)[\(index)]", elements[index]) }
        case "has", "!has":
            if array.count != 2 {
                report(key, node, "filter array for \"\(op)\" operator must have 2 elements")
            } else if array[1].typeName != "string" {
                report("\(key)[1]", elements[1], "string expected, \(array[1].typeName) found")
            }
        default: break
        }
    }

    // MARK: Expressions

    /// Cluster properties aggregate features on the source side, once per cluster: there is no
    /// camera and no feature state there, and no property spec to give an expected type.
    private func validateClusterExpression(_ key: String, _ node: StyleNode, _ value: JSONValue) {
        do {
            let compiled = try Expression.parse(value)
            if !compiled.isZoomConstant || !compiled.isStateConstant {
                report(key, node, "\"zoom\" and \"feature-state\" expressions are not supported with cluster properties.")
            }
        } catch {
            for item in error.items { report(key + item.key, node, item.message) }
        }
    }

    enum ExpressionContext { case property, filter }

    /// Checks an expression value by compiling it, as MapLibre's validator does: parse and type
    /// errors come from the expression engine, with their key suffixes ("[1]", "[2][0]" …) appended
    /// to `key` and the line of the whole expression.
    func validateExpression(_ key: String, _ node: StyleNode, _ spec: StylePropertySpec, context: ExpressionContext) {
        if context == .filter {
            for problem in StyleExpressionCheck.mixedLegacyFilters(node.value) {
                report(key + problem.path.map { "[\($0)]" }.joined(), node, problem.message, severity: .warning)
            }
        }
        let compiled: Expression
        do {
            switch context {
            case .filter:
                // MapLibre validates filters without an expected type (`{value: "boolean"}` has no
                // `type`), so a filter that cannot produce a boolean (["+", 1, 2]) is not an error
                // here; `StyleLayer.filterExpression` then matches nothing.
                compiled = try Expression.parse(node.value)
            case .property:
                // Checks the result type, and which inputs and zoom curves the property allows.
                compiled = try Expression.parse(node.value, propertySpec: ExpressionPropertySpec(spec))
            }
        } catch {
            for item in error.items { report(key + item.key, node, item.message) }
            return
        }
        switch context {
        case .filter:
            if !compiled.isStateConstant {
                report(key, node, "\"feature-state\" data expressions are not supported with filters.")
            }
        case .property:
            if spec.name == "text-font", !StyleExpressionCheck.outputsAreLiterals(node.value) {
                report(key, node, "Invalid data expression for \"text-font\". Output values must be contained as literals within the expression.")
                return
            }
            if !compiled.isStateConstant, propertyKind == "layout" {
                report(key, node, "\"feature-state\" data expressions are not supported with layout properties.")
            }
        }
    }
}

