/// Validates a legacy (pre-expression) function object such as
/// `{"base": 1.5, "stops": [[5, 1], [10, 4]]}`. These still appear in many published styles; the
/// expression engine converts them (`LegacyFunction`) only after this has made sure they are
/// convertible, and MapLibre reports their problems in these terms rather than as expression errors.
struct StyleFunctionValidator {
    let validator: StyleValidator
    let spec: StylePropertySpec
    let node: StyleNode

    private final class State {
        var stopKeyType: String?
        var stopDomainValues: Set<JSONValue> = []
        var previousStopDomainValue: Double?
        var previousStopDomainZoom: Double?
    }

    private var functionType: String? { node.member("type")?.value.stringValue }
    private var hasProperty: Bool { node.member("property") != nil }
    private var isZoomFunction: Bool { functionType != "categorical" && !hasProperty }
    private var isZoomAndPropertyFunction: Bool {
        guard case .array(let stops)? = node.member("stops")?.value, case .array(let first)? = stops.first,
              case .object? = first.first else { return false }
        return true
    }

    func validate(_ key: String) {
        let state = State()
        validator.validateObject(key, node, specs: StyleReference.properties(in: "function") ?? [], validators: [
            "stops": { childKey, child, _ in validateStops(childKey, child, state) },
            "default": { childKey, child, _ in validator.validate(childKey, child, spec) },
        ])
        if functionType == "identity", isZoomFunction {
            validator.report(key, node, "missing required property \"property\"")
        }
        if functionType != "identity", node.member("stops") == nil {
            validator.report(key, node, "missing required property \"stops\"")
        }
        if functionType == "exponential", spec.acceptsExpressions, !spec.supportsInterpolation {
            validator.report(key, node, "exponential functions not supported")
        }
        if !isZoomFunction, !spec.isDataDriven {
            validator.report(key, node, "property functions not supported")
        } else if isZoomFunction, !spec.isZoomDependent {
            validator.report(key, node, "zoom functions not supported")
        }
        if functionType == "categorical" || isZoomAndPropertyFunction, !hasProperty {
            validator.report(key, node, "\"property\" property is required")
        }
    }

    private func validateStops(_ key: String, _ stops: StyleNode, _ state: State) {
        guard case .array(let array) = stops.value else {
            validator.report(key, stops, "array expected, \(stops.value.typeName) found")
            return
        }
        if functionType == "identity" {
            validator.report(key, stops, "identity function may not have a \"stops\" property")
            return
        }
        if array.isEmpty {
            validator.report(key, stops, "array must have at least one stop")
            return
        }
        for (index, stop) in stops.elements.enumerated() {
            validateStop("\(key)[\(index)]", stop, state)
        }
    }

    private func validateStop(_ key: String, _ stop: StyleNode, _ state: State) {
        guard case .array(let array) = stop.value else {
            validator.report(key, stop, "array expected, \(stop.value.typeName) found")
            return
        }
        guard array.count == 2 else {
            validator.report(key, stop, "array length 2 expected, length \(array.count) found")
            return
        }
        let parts = stop.elements
        if isZoomAndPropertyFunction {
            guard case .object = array[0] else {
                validator.report(key, stop, "object expected, \(array[0].typeName) found")
                return
            }
            guard let zoomNode = parts[0].member("zoom") else {
                validator.report(key, stop, "object stop key must have zoom")
                return
            }
            guard parts[0].member("value") != nil else {
                validator.report(key, stop, "object stop key must have value")
                return
            }
            let zoom = zoomNode.value.numberValue
            if let previous = state.previousStopDomainZoom, let zoom, previous > zoom {
                validator.report(key, zoomNode, "stop zoom values must appear in ascending order")
                return
            }
            if zoom != state.previousStopDomainZoom {
                state.previousStopDomainZoom = zoom
                state.previousStopDomainValue = nil
                state.stopDomainValues = []
            }
            validator.validateObject("\(key)[0]", parts[0], specs: [StylePropertySpec(name: "zoom", type: "*")], validators: [
                "zoom": { childKey, child, _ in validator.validateNumber(childKey, child, StylePropertySpec(name: "zoom", type: "number")) },
                "value": { childKey, child, _ in validateDomainValue(childKey, child, state) },
            ])
        } else {
            validateDomainValue("\(key)[0]", parts[0], state, stop: stop)
        }
        if StyleExpressionCheck.isExpression(array[1]) {
            validator.report("\(key)[1]", parts[1], "expressions are not allowed in function stops.")
            return
        }
        validator.validate("\(key)[1]", parts[1], spec)
    }

    /// `stop` stands in for a null domain value when placing the message (null has no line).
    private func validateDomainValue(_ key: String, _ value: StyleNode, _ state: State, stop: StyleNode? = nil) {
        let node = value.value == .null ? (stop ?? value) : value
        let type = value.value.typeName
        if let expected = state.stopKeyType {
            if type != expected {
                validator.report(key, node, "\(type) stop domain type must match previous stop domain type \(expected)")
                return
            }
        } else {
            state.stopKeyType = type
        }
        if !["number", "string", "boolean"].contains(type) {
            validator.report(key, node, "stop domain value must be a number, string, or boolean")
            return
        }
        if type != "number", functionType != "categorical" {
            var message = "number expected, \(type) found"
            if spec.isDataDriven, functionType == nil {
                message += "\nIf you intended to use a categorical function, specify `\"type\": \"categorical\"`."
            }
            validator.report(key, node, message)
            return
        }
        if functionType == "categorical", let number = node.value.numberValue, !number.isFinite || number.rounded(.down) != number {
            validator.report(key, node, "integer expected, found \(StyleJS.number(number))")
            return
        }
        if functionType != "categorical", let number = node.value.numberValue {
            if let previous = state.previousStopDomainValue, number < previous {
                validator.report(key, node, "stop domain values must appear in ascending order")
                return
            }
            state.previousStopDomainValue = number
        }
        if functionType == "categorical" {
            if state.stopDomainValues.contains(node.value) {
                validator.report(key, node, "stop domain values must be unique")
                return
            }
            state.stopDomainValues.insert(node.value)
        }
    }
}
