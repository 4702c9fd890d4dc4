// The GeoJSON writer: the value model → compact RFC 7946 JSON. See `GeoJSON.serialized()`.

import Foundation

struct GeoJSONWriter {
    private(set) var output: [UInt8] = []
    private var path: [JSONPathComponent] = []

    mutating func write(_ document: GeoJSON) throws(GeoJSONError) {
        switch document {
        case .geometry(let geometry):
            try write(geometry)
        case .feature(let feature):
            try write(feature)
        case .featureCollection(let features):
            append("{\"type\":\"FeatureCollection\",\"features\":[")
            path.append(.key("features"))
            for (index, feature) in features.enumerated() {
                if index > 0 { append(",") }
                path.append(.index(index))
                try write(feature)
                path.removeLast()
            }
            path.removeLast()
            append("]}")
        }
    }

    private mutating func write(_ feature: GeoJSONFeature) throws(GeoJSONError) {
        append("{\"type\":\"Feature\"")
        if let id = feature.id {
            append(",\"id\":")
            if feature.idIsNumeric, GeoJSONWriter.isJSONNumber(id) {
                append(id)
            } else {
                JSONEscaping.appendQuoted(id, to: &output)
            }
        }
        if let bbox = feature.bbox {
            append(",\"bbox\":[")
            for (index, value) in bbox.enumerated() {
                if index > 0 { append(",") }
                try appendNumber(value, at: [.key("bbox"), .index(index)])
            }
            append("]")
        }
        append(",\"geometry\":")
        if let geometry = feature.geometry {
            path.append(.key("geometry"))
            try write(geometry)
            path.removeLast()
        } else {
            append("null")
        }
        append(",\"properties\":")
        if let properties = feature.properties {
            try appendProperties(properties)
        } else {
            append("null")
        }
        append("}")
    }

    private mutating func write(_ geometry: GeoJSONGeometry) throws(GeoJSONError) {
        append("{\"type\":\"")
        append(geometry.typeName)
        if case .geometryCollection(let members) = geometry {
            append("\",\"geometries\":[")
            path.append(.key("geometries"))
            for (index, member) in members.enumerated() {
                if index > 0 { append(",") }
                path.append(.index(index))
                try write(member)
                path.removeLast()
            }
            path.removeLast()
            append("]}")
            return
        }
        append("\",\"coordinates\":")
        path.append(.key("coordinates"))
        switch geometry {
        case .point(let position):
            try appendPosition(position)
        case .multiPoint(let positions), .lineString(let positions):
            try appendPositions(positions, closed: false)
        case .multiLineString(let lines):
            try appendList(lines) { (w: inout GeoJSONWriter, line) throws(GeoJSONError) in try w.appendPositions(line, closed: false) }
        case .polygon(let rings):
            try appendRings(rings)
        case .multiPolygon(let polygons):
            try appendList(polygons) { (w: inout GeoJSONWriter, rings) throws(GeoJSONError) in try w.appendRings(rings) }
        case .geometryCollection:
            break
        }
        path.removeLast()
        append("}")
    }

    private mutating func appendRings(_ rings: [[GeoJSONPosition]]) throws(GeoJSONError) {
        try appendList(rings) { (w: inout GeoJSONWriter, ring) throws(GeoJSONError) in try w.appendPositions(ring, closed: true) }
    }

    private mutating func appendList<T>(_ items: [T], _ body: (inout GeoJSONWriter, T) throws(GeoJSONError) -> Void) throws(GeoJSONError) {
        append("[")
        for (index, item) in items.enumerated() {
            if index > 0 { append(",") }
            path.append(.index(index))
            try body(&self, item)
            path.removeLast()
        }
        append("]")
    }

    /// Positions; with `closed`, the first position is repeated at the end unless it is already.
    private mutating func appendPositions(_ positions: [GeoJSONPosition], closed: Bool) throws(GeoJSONError) {
        append("[")
        for (index, position) in positions.enumerated() {
            if index > 0 { append(",") }
            path.append(.index(index))
            try appendPosition(position)
            path.removeLast()
        }
        if closed, let first = positions.first, let last = positions.last,
           positions.count == 1 || first.longitude != last.longitude || first.latitude != last.latitude {
            append(",")
            try appendPosition(first)
        }
        append("]")
    }

    private mutating func appendPosition(_ position: GeoJSONPosition) throws(GeoJSONError) {
        append("[")
        try appendNumber(position.longitude, at: [.index(0)])
        append(",")
        try appendNumber(position.latitude, at: [.index(1)])
        if let altitude = position.altitude {
            append(",")
            try appendNumber(altitude, at: [.index(2)])
        }
        append("]")
    }

    private mutating func appendNumber(_ value: Double, at below: [JSONPathComponent]) throws(GeoJSONError) {
        guard value.isFinite else {
            throw GeoJSONError(kind: .unwritable, path: JSONPathComponent.format(path + below),
                               problem: "\(value) cannot be written as a JSON number")
        }
        append(GeoJSONWriter.numberText(value))
    }

    private mutating func appendProperties(_ properties: Data) throws(GeoJSONError) {
        let bytes = Array(properties)
        let tape: JSONTape
        do {
            tape = try JSONTape.scan(bytes, allowByteOrderMark: false)
        } catch {
            throw GeoJSONError(kind: .unwritable, path: JSONPathComponent.format(path + [.key("properties")]),
                               problem: "properties are not valid JSON: \(error.message)")
        }
        switch tape.kind(0) {
        case .object: output.append(contentsOf: bytes)
        case .null: append("null")
        default:
            throw GeoJSONError(kind: .unwritable, path: JSONPathComponent.format(path + [.key("properties")]),
                               problem: "properties must be a JSON object, found \(tape.kindName(0))")
        }
    }

    private mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }

    /// The shortest text that reads back to `value`; whole numbers below 10^15 without a fraction.
    static func numberText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"   // Swift prints the shortest round-tripping form, e.g. 0.1, 1e-07, 1e+20
    }

    /// Whether `text` is one JSON number literal.
    static func isJSONNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, let tape = try? JSONTape.scan(bytes, allowByteOrderMark: false, maximumDepth: 1) else {
            return false
        }
        return tape.kind(0) == .number && bytes.first != 0x20 && bytes.last != 0x20
            && !bytes.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0x20 })
    }
}
