// The GeoJSON reader: walks a scanned JSON tape and builds the GeoJSON value model, checking
// every rule that `GeoJSON.parse(_:)` documents. Its only recursion is into GeometryCollections,
// which is capped at GeoJSON.maximumGeometryCollectionDepth.

import Foundation

/// Up to three array indexes below the current path, carried without allocating; they become
/// path components only when an error is reported.
struct IndexTrail {
    private var a = 0, b = 0, c = 0
    private(set) var count = 0

    static let empty = IndexTrail()

    func appending(_ index: Int) -> IndexTrail {
        var t = self
        switch count {
        case 0: t.a = index
        case 1: t.b = index
        default: t.c = index
        }
        t.count = min(count + 1, 3)
        return t
    }

    var components: [JSONPathComponent] {
        [a, b, c].prefix(count).map { .index($0) }
    }
}

struct GeoJSONReader {
    let tape: JSONTape
    /// The path of the value being read.
    private var path: [JSONPathComponent] = []

    init(tape: JSONTape) { self.tape = tape }

    private static let geometryTypes: Set<String> = [
        "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection",
    ]

    // MARK: Documents, features

    mutating func readDocument() throws(GeoJSONError) -> GeoJSON {
        let root = 0
        try requireObject(root, what: "a GeoJSON object")
        let type = try typeName(root)
        switch type {
        case "Feature":
            return .feature(try readFeature(root))
        case "FeatureCollection":
            try readBoundingBox(root)
            guard let features = tape.member(root, "features") else {
                throw failure(.invalidStructure, "a FeatureCollection needs a \"features\" member")
            }
            path.append(.key("features"))
            defer { path.removeLast() }
            try requireArray(features, what: "an array of features")
            var result: [GeoJSONFeature] = []
            result.reserveCapacity(tape.count(features))
            for (index, element) in tape.elements(of: features).enumerated() {
                path.append(.index(index))
                defer { path.removeLast() }
                try requireObject(element, what: "a Feature object")
                let elementType = try typeName(element)
                guard elementType == "Feature" else {
                    throw failure(.invalidStructure, "expected a Feature, found type \(JSONPathComponent.quoted(elementType))",
                                  below: [.key("type")])
                }
                result.append(try readFeature(element))
            }
            return .featureCollection(result)
        default:
            guard Self.geometryTypes.contains(type) else {
                throw failure(.invalidStructure, "unknown GeoJSON type \(JSONPathComponent.quoted(type))", below: [.key("type")])
            }
            return .geometry(try readGeometry(root, depth: 0))
        }
    }

    private mutating func readFeature(_ object: Int) throws(GeoJSONError) -> GeoJSONFeature {
        var feature = GeoJSONFeature(geometry: nil)
        if let id = tape.member(object, "id") {
            switch tape.kind(id) {
            case .string:
                feature.id = tape.string(id)
            case .number:
                feature.id = try identifierText(id)
                feature.idIsNumeric = true
            case .null:
                break   // not RFC 7946, but common: read as no id
            default:
                throw failure(.invalidStructure, "a feature id must be a string or a number, found \(tape.kindName(id))",
                              below: [.key("id")])
            }
        }
        feature.bbox = try readBoundingBox(object)
        if let geometry = tape.member(object, "geometry"), tape.kind(geometry) != .null {
            path.append(.key("geometry"))
            defer { path.removeLast() }
            try requireObject(geometry, what: "a geometry object or null")
            let type = try typeName(geometry)
            guard Self.geometryTypes.contains(type) else {
                throw failure(.invalidStructure, "unknown geometry type \(JSONPathComponent.quoted(type))", below: [.key("type")])
            }
            feature.geometry = try readGeometry(geometry, depth: 0)
        }
        if let properties = tape.member(object, "properties") {
            switch tape.kind(properties) {
            case .null: break
            case .object: feature.properties = Data(tape.rawBytes(properties))
            default:
                throw failure(.invalidStructure, "properties must be an object or null, found \(tape.kindName(properties))",
                              below: [.key("properties")])
            }
        }
        return feature
    }

    /// A numeric id in MapKit's string form: integers without a fraction.
    private func identifierText(_ node: Int) throws(GeoJSONError) -> String {
        let literal = tape.rawText(node, limit: .max)
        if tape.nodes[node].flag {   // an integer literal
            if let exact = Int64(literal) { return String(exact) }
            if literal.utf8.count <= 400 { return literal }   // keep long integers' digits
        }
        guard let value = tape.double(node), value.isFinite else {
            throw failure(.invalidValue, "the id \(tape.rawText(node)) is too large for a number", below: [.key("id")])
        }
        if value == value.rounded(), abs(value) < 9.2e18 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Checks an optional `bbox` member: 2·n finite numbers with n ≥ 2.
    @discardableResult
    private func readBoundingBox(_ object: Int) throws(GeoJSONError) -> [Double]? {
        guard let bbox = tape.member(object, "bbox") else { return nil }
        let here: [JSONPathComponent] = [.key("bbox")]
        guard tape.kind(bbox) == .array else {
            throw failure(.invalidStructure, "a bbox must be an array of numbers, found \(tape.kindName(bbox))", below: here)
        }
        let n = tape.count(bbox)
        guard n >= 4, n % 2 == 0 else {
            throw failure(.invalidStructure, "a bbox needs 2·n numbers with n ≥ 2, found \(n)", below: here)
        }
        var values: [Double] = []
        for (index, element) in tape.elements(of: bbox).enumerated() {
            values.append(try finiteNumber(element, below: here + [.index(index)]))
        }
        return values
    }

    // MARK: Geometries

    private mutating func readGeometry(_ object: Int, depth: Int) throws(GeoJSONError) -> GeoJSONGeometry {
        // Callers have checked that `object` is an object with a known geometry type.
        let type = try typeName(object)
        try readBoundingBox(object)
        if type == "GeometryCollection" {
            guard depth < GeoJSON.maximumGeometryCollectionDepth else {
                throw failure(.tooDeep, "GeometryCollections nested more than \(GeoJSON.maximumGeometryCollectionDepth) deep")
            }
            guard let geometries = tape.member(object, "geometries") else {
                throw failure(.invalidStructure, "a GeometryCollection needs a \"geometries\" member")
            }
            path.append(.key("geometries"))
            defer { path.removeLast() }
            try requireArray(geometries, what: "an array of geometries")
            var result: [GeoJSONGeometry] = []
            for (index, element) in tape.elements(of: geometries).enumerated() {
                path.append(.index(index))
                defer { path.removeLast() }
                try requireObject(element, what: "a geometry object")
                let elementType = try typeName(element)
                guard Self.geometryTypes.contains(elementType) else {
                    throw failure(.invalidStructure, "unknown geometry type \(JSONPathComponent.quoted(elementType))",
                                  below: [.key("type")])
                }
                result.append(try readGeometry(element, depth: depth + 1))
            }
            return .geometryCollection(result)
        }

        guard let coordinates = tape.member(object, "coordinates") else {
            throw failure(.invalidStructure, "a \(type) needs a \"coordinates\" member")
        }
        path.append(.key("coordinates"))
        defer { path.removeLast() }
        switch type {
        case "Point":
            return .point(try readPosition(coordinates, .empty))
        case "MultiPoint":
            return .multiPoint(try readPositions(coordinates, .empty))
        case "LineString":
            return .lineString(try readLine(coordinates, .empty))
        case "MultiLineString":
            let lines = try arrayElements(coordinates, .empty, what: "an array of LineString coordinate arrays")
            var result: [[GeoJSONPosition]] = []
            result.reserveCapacity(lines.count)
            for (index, line) in lines.enumerated() {
                result.append(try readLine(line, IndexTrail.empty.appending(index)))
            }
            return .multiLineString(result)
        case "Polygon":
            return .polygon(try readPolygon(coordinates, .empty))
        default:   // "MultiPolygon"
            let polygons = try arrayElements(coordinates, .empty, what: "an array of Polygon coordinate arrays")
            var result: [[[GeoJSONPosition]]] = []
            result.reserveCapacity(polygons.count)
            for (index, polygon) in polygons.enumerated() {
                result.append(try readPolygon(polygon, IndexTrail.empty.appending(index)))
            }
            return .multiPolygon(result)
        }
    }

    private func readPolygon(_ node: Int, _ trail: IndexTrail) throws(GeoJSONError) -> [[GeoJSONPosition]] {
        let rings = try arrayElements(node, trail, what: "an array of linear rings")
        guard !rings.isEmpty else {
            throw failure(.invalidStructure, "a Polygon needs at least one linear ring", below: trail.components)
        }
        var result: [[GeoJSONPosition]] = []
        result.reserveCapacity(rings.count)
        for (index, ring) in rings.enumerated() {
            let ringTrail = trail.appending(index)
            let positions = try readPositions(ring, ringTrail)
            guard positions.count >= 4 else {
                throw failure(.invalidStructure, "a linear ring needs at least 4 positions, found \(positions.count)",
                              below: ringTrail.components)
            }
            let first = positions[0], last = positions[positions.count - 1]
            guard first.longitude == last.longitude, first.latitude == last.latitude else {
                throw failure(.invalidStructure,
                              "a linear ring must end where it starts: its first position is \(first), its last \(last)",
                              below: ringTrail.components)
            }
            result.append(positions)
        }
        return result
    }

    private func readLine(_ node: Int, _ trail: IndexTrail) throws(GeoJSONError) -> [GeoJSONPosition] {
        let positions = try readPositions(node, trail)
        guard positions.count >= 2 else {
            throw failure(.invalidStructure, "a LineString needs at least 2 positions, found \(positions.count)",
                          below: trail.components)
        }
        return positions
    }

    private func readPositions(_ node: Int, _ trail: IndexTrail) throws(GeoJSONError) -> [GeoJSONPosition] {
        guard tape.kind(node) == .array else {
            throw failure(.invalidStructure, "expected an array of positions, found \(tape.kindName(node))",
                          below: trail.components)
        }
        var result: [GeoJSONPosition] = []
        result.reserveCapacity(tape.count(node))
        var child = node + 1
        for index in 0..<tape.count(node) {
            result.append(try readPosition(child, trail.appending(index)))
            child = tape.next(child)
        }
        return result
    }

    private func readPosition(_ node: Int, _ trail: IndexTrail) throws(GeoJSONError) -> GeoJSONPosition {
        guard tape.kind(node) == .array else {
            throw failure(.invalidStructure, "expected a position (an array of numbers), found \(tape.kindName(node))",
                          below: trail.components)
        }
        let n = tape.count(node)
        guard n >= 2 else {
            throw failure(.invalidStructure, "a position needs at least 2 numbers, found \(n)", below: trail.components)
        }
        var values = (0.0, 0.0, 0.0)
        var child = node + 1
        for index in 0..<n {
            guard tape.kind(child) == .number else {
                throw failure(.invalidStructure, "expected a number, found \(tape.kindName(child))",
                              below: trail.components + [.index(index)])
            }
            guard let value = tape.double(child), value.isFinite else {
                throw failure(.invalidValue, "the number \(tape.rawText(child)) is out of range",
                              below: trail.components + [.index(index)])
            }
            switch index {
            case 0: values.0 = value
            case 1: values.1 = value
            case 2: values.2 = value
            default: break   // RFC 7946 §3.1.1: positions SHOULD NOT have more; checked, then dropped
            }
            child = tape.next(child)
        }
        guard (-180.0...180.0).contains(values.0) else {
            throw failure(.invalidValue, "longitude \(tape.rawText(node + 1)) is outside -180...180", below: trail.components)
        }
        guard (-90.0...90.0).contains(values.1) else {
            throw failure(.invalidValue, "latitude \(tape.rawText(tape.next(node + 1))) is outside -90...90",
                          below: trail.components)
        }
        return GeoJSONPosition(longitude: values.0, latitude: values.1, altitude: n >= 3 ? values.2 : nil)
    }

    // MARK: Helpers

    private func arrayElements(_ node: Int, _ trail: IndexTrail, what: String) throws(GeoJSONError) -> [Int] {
        guard tape.kind(node) == .array else {
            throw failure(.invalidStructure, "expected \(what), found \(tape.kindName(node))", below: trail.components)
        }
        return tape.elements(of: node)
    }

    private func finiteNumber(_ node: Int, below: [JSONPathComponent]) throws(GeoJSONError) -> Double {
        guard tape.kind(node) == .number else {
            throw failure(.invalidStructure, "expected a number, found \(tape.kindName(node))", below: below)
        }
        guard let value = tape.double(node), value.isFinite else {
            throw failure(.invalidValue, "the number \(tape.rawText(node)) is out of range", below: below)
        }
        return value
    }

    private func requireObject(_ node: Int, what: String) throws(GeoJSONError) {
        guard tape.kind(node) == .object else {
            throw failure(.invalidStructure, "expected \(what), found \(tape.kindName(node))")
        }
    }

    private func requireArray(_ node: Int, what: String) throws(GeoJSONError) {
        guard tape.kind(node) == .array else {
            throw failure(.invalidStructure, "expected \(what), found \(tape.kindName(node))")
        }
    }

    /// The object's `"type"` member, which must be a string.
    private func typeName(_ object: Int) throws(GeoJSONError) -> String {
        guard let type = tape.member(object, "type") else {
            throw failure(.invalidStructure, "missing the \"type\" member")
        }
        guard tape.kind(type) == .string else {
            throw failure(.invalidStructure, "\"type\" must be a string, found \(tape.kindName(type))", below: [.key("type")])
        }
        return tape.string(type)
    }

    private func failure(_ kind: GeoJSONError.Kind, _ problem: String, below: [JSONPathComponent] = []) -> GeoJSONError {
        GeoJSONError(kind: kind, path: JSONPathComponent.format(path + below), problem: problem)
    }
}
