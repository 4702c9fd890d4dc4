import Foundation
import MapStyle
import OpenMapKit

/// A marker on a snapshot: Apple's snapshot `Annotation` object.
struct SnapshotAnnotation: Sendable {
    /// Apple's `markerStyle`.
    enum MarkerStyle: String, CaseIterable, Sendable {
        case balloon, dot, large, img
    }

    var point: SnapshotParameters.Place
    var color: StyleColor
    /// Up to three characters in the balloon (MapKit's `glyphText`).
    var glyphText: String?
    var markerStyle: MarkerStyle

    var key: String { "\(point.key)#\(SnapshotJSON.hex(color))#\(glyphText ?? "")#\(markerStyle.rawValue)" }
}

/// A line or shape on a snapshot: Apple's snapshot `Overlay` object (with `OverlayStyle`).
struct SnapshotOverlay: Sendable {
    var points: [CLLocationCoordinate2D]
    var isPolygon: Bool
    var strokeColor: StyleColor
    var lineWidth: Double
    var lineDash: [Double]
    var fillColor: StyleColor?

    var key: String {
        var key = isPolygon ? "polygon" : "polyline"
        key += "#\(SnapshotJSON.hex(strokeColor))#\(lineWidth)#\(lineDash.map { String($0) }.joined(separator: ","))#\(fillColor.map(SnapshotJSON.hex) ?? "")#"
        for point in points { key += "\(point.latitude),\(point.longitude);" }
        return key
    }
}

/// Reads the JSON parameters of a snapshot request (`annotations`, `overlays`, `overlayStyles`,
/// `imgs`) as hostile input: malformed JSON, wrong types, NaN, out-of-range numbers, unknown
/// enum values and too many items are each a 400 naming the parameter, the item and the field.
enum SnapshotJSON {
    /// At most this many annotations per snapshot (Apple does not publish its limit).
    static let maximumAnnotations = 100
    /// Annotations given by address are geocoded one by one; they are limited harder.
    static let maximumAddressAnnotations = 10
    static let maximumOverlays = 20
    /// Points over all overlays.
    static let maximumOverlayPoints = 5_000
    /// Apple allows up to ten custom images per snapshot.
    static let maximumImages = 10
    static let maximumLineWidth = 100.0

    /// MapKit's default marker red and a route blue.
    static let defaultMarkerColor = StyleColor(straightRed: 1, green: 59.0 / 255, blue: 48.0 / 255, alpha: 1)
    static let defaultStrokeColor = StyleColor(straightRed: 0, green: 122.0 / 255, blue: 1, alpha: 1)

    static func parse(_ text: String, parameter: String) throws -> JSONValue {
        do {
            return try JSONValue.parse(text)
        } catch {
            throw APIError.badRequest("parameter \(parameter) is not valid JSON", details: [error.description])
        }
    }

    static func array(_ text: String, parameter: String, maximumCount: Int) throws -> [JSONValue] {
        guard case .array(let items) = try parse(text, parameter: parameter) else {
            throw APIError.badRequest("parameter \(parameter) must be a JSON array")
        }
        guard items.count <= maximumCount else {
            throw APIError.badRequest("parameter \(parameter) has too many items", details: ["at most \(maximumCount), got \(items.count)"])
        }
        return items
    }

    /// How many images `imgs` lists (their URLs are not fetched: see ``SnapshotAnnotation``).
    static func imageCount(_ text: String?) throws -> Int {
        guard let text else { return 0 }
        let items = try array(text, parameter: "imgs", maximumCount: maximumImages)
        for (index, item) in items.enumerated() {
            guard case .object = item else { throw APIError.badRequest("imgs[\(index)] must be an object with a url") }
        }
        return items.count
    }

    static func annotations(_ text: String?, imageCount: Int) throws -> [SnapshotAnnotation] {
        guard let text else { return [] }
        let items = try array(text, parameter: "annotations", maximumCount: maximumAnnotations)
        var result: [SnapshotAnnotation] = []
        var addresses = 0
        for (index, item) in items.enumerated() {
            let name = "annotations[\(index)]"
            guard case .object(let object) = item else { throw APIError.badRequest("\(name) must be an object") }
            guard let pointText = object["point"]?.stringValue else {
                throw APIError.badRequest("\(name).point is required: \"latitude,longitude\" or an address")
            }
            let point = try SnapshotParameters.place(pointText, parameter: "\(name).point")
            if case .address = point {
                addresses += 1
                guard addresses <= maximumAddressAnnotations else {
                    throw APIError.badRequest("annotations may give at most \(maximumAddressAnnotations) points as addresses", details: ["use latitude,longitude"])
                }
            }
            let color = try self.color(object["color"], field: "\(name).color") ?? defaultMarkerColor
            var glyphText: String?
            if let value = object["glyphText"] {
                guard let text = value.stringValue else { throw APIError.badRequest("\(name).glyphText must be a string") }
                guard text.count <= 3, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    throw APIError.badRequest("\(name).glyphText must be at most three printable characters", details: ["got \(QueryParameters.quoted(text))"])
                }
                glyphText = text.isEmpty ? nil : text
            }
            var style = SnapshotAnnotation.MarkerStyle.balloon
            if let value = object["markerStyle"] {
                guard let raw = value.stringValue, let match = SnapshotAnnotation.MarkerStyle(rawValue: raw) else {
                    throw APIError.badRequest("\(name).markerStyle must be one of \(SnapshotAnnotation.MarkerStyle.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                style = match
            }
            if let value = object["imgIdx"] {
                guard let number = value.numberValue, number == number.rounded(), number >= 0, number < Double(imageCount) else {
                    throw APIError.badRequest("\(name).imgIdx must index the imgs parameter", details: ["imgs lists \(imageCount) images"])
                }
            }
            if let value = object["offset"] {
                guard let text = value.stringValue, isNumberPair(text) else {
                    throw APIError.badRequest("\(name).offset must be \"x,y\" in points")
                }
            }
            result.append(SnapshotAnnotation(point: point, color: color, glyphText: glyphText, markerStyle: style))
        }
        return result
    }

    static func overlays(_ text: String?, styles stylesText: String?) throws -> [SnapshotOverlay] {
        let styles = try stylesText.map { try array($0, parameter: "overlayStyles", maximumCount: maximumOverlays) } ?? []
        for (index, style) in styles.enumerated() {
            guard case .object = style else { throw APIError.badRequest("overlayStyles[\(index)] must be an object") }
        }
        guard let text else { return [] }
        let items = try array(text, parameter: "overlays", maximumCount: maximumOverlays)
        var result: [SnapshotOverlay] = []
        var totalPoints = 0
        for (index, item) in items.enumerated() {
            let name = "overlays[\(index)]"
            guard case .object(let own) = item else { throw APIError.badRequest("\(name) must be an object") }
            // The overlay's own fields win over those of the style it names.
            var fields = JSONObject()
            if let value = own["styleIdx"] {
                guard let number = value.numberValue, number == number.rounded(), number >= 0, number < Double(styles.count),
                      case .object(let style) = styles[Int(number)] else {
                    throw APIError.badRequest("\(name).styleIdx must index the overlayStyles parameter", details: ["overlayStyles lists \(styles.count) styles"])
                }
                for member in style.members { fields.set(member.key, member.value) }
            }
            for member in own.members { fields.set(member.key, member.value) }

            var isPolygon = false
            if let value = fields["type"] {
                switch value.stringValue {
                case "polyline", "line": isPolygon = false
                case "polygon": isPolygon = true
                default: throw APIError.badRequest("\(name).type must be polyline or polygon")
                }
            }
            guard case .array(let pointValues) = fields["points"] ?? .null else {
                throw APIError.badRequest("\(name).points is required: an array of \"latitude,longitude\" strings")
            }
            totalPoints += pointValues.count
            guard totalPoints <= maximumOverlayPoints else {
                throw APIError.badRequest("overlays have too many points", details: ["at most \(maximumOverlayPoints) in all"])
            }
            let points = try pointValues.enumerated().map { try coordinate($0.element, field: "\(name).points[\($0.offset)]") }
            guard points.count >= (isPolygon ? 3 : 2) else {
                throw APIError.badRequest("\(name) needs at least \(isPolygon ? 3 : 2) points", details: ["got \(points.count)"])
            }
            var stroke = try color(fields["strokeColor"], field: "\(name).strokeColor") ?? defaultStrokeColor
            if let opacity = try number(fields["strokeOpacity"], field: "\(name).strokeOpacity", in: 0...1) { stroke.a *= opacity }
            let lineWidth = try number(fields["lineWidth"], field: "\(name).lineWidth", in: 0...maximumLineWidth) ?? 3
            var dash: [Double] = []
            if let value = fields["lineDash"] {
                guard case .array(let lengths) = value, lengths.count <= 16 else {
                    throw APIError.badRequest("\(name).lineDash must be an array of at most 16 lengths in points")
                }
                dash = try lengths.enumerated().map { try number($0.element, field: "\(name).lineDash[\($0.offset)]", in: 0...1000)! }
                if !dash.isEmpty, dash.allSatisfy({ $0 == 0 }) {
                    throw APIError.badRequest("\(name).lineDash must have a length above zero")
                }
            }
            var fill: StyleColor?
            if isPolygon {
                fill = try color(fields["fillColor"], field: "\(name).fillColor")
                    ?? StyleColor(straightRed: stroke.r, green: stroke.g, blue: stroke.b, alpha: 0.25)
                if let opacity = try number(fields["fillOpacity"], field: "\(name).fillOpacity", in: 0...1) { fill!.a *= opacity }
            }
            result.append(SnapshotOverlay(points: points, isPolygon: isPolygon, strokeColor: stroke, lineWidth: lineWidth, lineDash: dash, fillColor: fill))
        }
        return result
    }

    /// A colour as Apple's snapshots write them (hex without `#`, `RRGGBB` or `RGB`) or as CSS
    /// does (`#hex`, names, `rgb()`); nil when absent.
    static func color(_ value: JSONValue?, field: String) throws -> StyleColor? {
        guard let value else { return nil }
        guard let text = value.stringValue, text.count <= 64 else {
            throw APIError.badRequest("\(field) must be a colour such as FF0000, #FF0000 or red")
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let bareHex = [3, 6, 8].contains(trimmed.count) && trimmed.allSatisfy(\.isHexDigit)
        guard let color = StyleColor.parse(bareHex ? "#" + trimmed : trimmed) else {
            throw APIError.badRequest("\(field) is not a colour", details: ["got \(QueryParameters.quoted(text)); use FF0000, #FF0000 or a CSS name"])
        }
        return color
    }

    static func number(_ value: JSONValue?, field: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let value else { return nil }
        guard let number = value.numberValue, number.isFinite else { throw APIError.badRequest("\(field) must be a number") }
        guard range.contains(number) else {
            throw APIError.badRequest("\(field) must be between \(range.lowerBound) and \(range.upperBound)", details: ["got \(number)"])
        }
        return number
    }

    /// A point of an overlay: `"lat,lon"` (Apple's form) or `[lat, lon]`.
    static func coordinate(_ value: JSONValue, field: String) throws -> CLLocationCoordinate2D {
        switch value {
        case .string(let text):
            return try QueryParameters.coordinate(text, parameter: field)
        case .array(let pair) where pair.count == 2:
            guard let lat = pair[0].numberValue, let lon = pair[1].numberValue else { break }
            return try QueryParameters.coordinate("\(lat),\(lon)", parameter: field)
        default:
            break
        }
        throw APIError.badRequest("\(field) must be \"latitude,longitude\"")
    }

    static func isNumberPair(_ text: String) -> Bool {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { Double($0.trimmingCharacters(in: .whitespaces)).map(\.isFinite) ?? false }
    }

    /// `RRGGBBAA` for cache keys.
    static func hex(_ color: StyleColor) -> String {
        func byte(_ value: Double) -> String {
            let v = Int((min(max(value, 0), 1) * 255).rounded())
            return String(format: "%02X", v)
        }
        return byte(color.r) + byte(color.g) + byte(color.b) + byte(color.a)
    }
}
