import Foundation
import MapGeometry

// The scene file's object blobs. A query of a street's surroundings reads a few thousand of them
// in one go, so they are compact and cheap to decode: no JSON, no per-field keys.
//
// Encoding (version 1), all integers little-endian base-128 varints (LEB128); "signed" ones are
// zigzag-encoded first, so small negative numbers stay short:
//
// - string: varint byte count, then UTF-8 bytes.
// - length (metres): signed varint of centimetres.
// - coordinates: latitude and longitude in 1e-7 degrees (E7, as OSM stores them); each point is
//   the signed difference from the previous point of the same object (the first from 0, 0), so a
//   footprint's neighbouring corners take 2–3 bytes a number instead of 8-byte doubles.
// - rings: varint ring count, then per ring a varint point count and its points.
// - colour: three bytes, red, green, blue.
//
// Building: varint flags (bit 0 levels, 1 roofDirection, 2 roofAcross, 3 wallColour, 4 roofColour,
//   5 wallMaterial, 6 roofMaterial, 7 isPart, 8 hasParts, 9 name, 10 houseNumber), height,
//   minHeight, roofHeight (lengths), roof shape (one byte, `RoofShape.rawValue`), kind (string),
//   then levels (signed varint), roofDirection (varint tenths of a degree), wallColour, roofColour,
//   wallMaterial, roofMaterial, name, houseNumber — each only when its flag is set — then rings.
// Road: varint flags (bit 0 width, 1 lanes, 2 oneway, 3 bridge, 4 tunnel, 5 name, 6 tramRails),
//   kind (byte), sidewalks (byte), layer (signed varint), then width (length), lanes (varint),
//   name when flagged, then the line: varint point count and points.
// Area: varint flags (bit 0 name), kind (byte), name when flagged, then rings.
// Point: varint flags (bit 0 name, 1 category, 2 height, 3 isFromBuilding), kind (byte), the
//   point (from 0, 0), then name, category (strings) and height (length) when flagged.
//
// Decoding checks every length against the bytes left and every enum against its cases, so a
// damaged blob is a `StreetSceneError.corrupt`, never a crash or a huge allocation.

/// Which table row kind a blob holds (the `kind` column of `objects`).
enum SceneObjectType: Int {
    case building = 0, road = 1, area = 2, point = 3
}

struct SceneBlobWriter {
    var bytes: [UInt8] = []
    private var lastLatitude: Int64 = 0
    private var lastLongitude: Int64 = 0

    init() { bytes.reserveCapacity(64) }

    mutating func unsigned(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func signed(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// Metres as centimetres; non-finite values (never produced by the import) are written as 0.
    mutating func length(_ metres: Double) {
        let centimetres = (metres * 100).rounded()
        signed(centimetres.isFinite ? Int64(max(-1e12, min(1e12, centimetres))) : 0)
    }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        unsigned(UInt64(utf8.count))
        bytes += utf8
    }

    mutating func colour(_ colour: SceneColour) {
        bytes += [colour.red, colour.green, colour.blue]
    }

    mutating func point(_ coordinate: CLLocationCoordinate2D) {
        let latitude = Self.e7(coordinate.latitude), longitude = Self.e7(coordinate.longitude)
        signed(latitude - lastLatitude)
        signed(longitude - lastLongitude)
        lastLatitude = latitude
        lastLongitude = longitude
    }

    mutating func line(_ points: [CLLocationCoordinate2D]) {
        unsigned(UInt64(points.count))
        for p in points { point(p) }
    }

    mutating func rings(_ rings: [[CLLocationCoordinate2D]]) {
        unsigned(UInt64(rings.count))
        for ring in rings { line(ring) }
    }

    static func e7(_ degrees: Double) -> Int64 {
        guard degrees.isFinite else { return 0 }
        return Int64((max(-180, min(180, degrees)) * 1e7).rounded())
    }
}

struct SceneBlobReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    private var lastLatitude: Int64 = 0
    private var lastLongitude: Int64 = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    private func corrupt(_ what: String) -> StreetSceneError { .corrupt("damaged object (\(what) at byte \(offset))") }

    mutating func byte() throws(StreetSceneError) -> UInt8 {
        guard offset < bytes.count else { throw corrupt("ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func unsigned() throws(StreetSceneError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw corrupt("varint too long") }
            result |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func signed() throws(StreetSceneError) -> Int64 {
        let u = try unsigned()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// A count of items each at least `minimumBytes` long: more than the bytes left is damage.
    mutating func count(minimumBytes: Int) throws(StreetSceneError) -> Int {
        let value = try unsigned()
        guard value <= UInt64(bytes.count - offset) / UInt64(max(minimumBytes, 1)) else { throw corrupt("count \(value) too large") }
        return Int(value)
    }

    mutating func length() throws(StreetSceneError) -> Double { Double(try signed()) / 100 }

    mutating func string() throws(StreetSceneError) -> String {
        let count = try count(minimumBytes: 1)
        defer { offset += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
    }

    mutating func colour() throws(StreetSceneError) -> SceneColour {
        SceneColour(red: try byte(), green: try byte(), blue: try byte())
    }

    mutating func point() throws(StreetSceneError) -> CLLocationCoordinate2D {
        let dLat = try signed(), dLon = try signed()
        let (latitude, o1) = lastLatitude.addingReportingOverflow(dLat)
        let (longitude, o2) = lastLongitude.addingReportingOverflow(dLon)
        guard !o1, !o2 else { throw corrupt("coordinate overflow") }
        lastLatitude = latitude
        lastLongitude = longitude
        return CLLocationCoordinate2D(latitude: Double(latitude) / 1e7, longitude: Double(longitude) / 1e7)
    }

    mutating func line() throws(StreetSceneError) -> [CLLocationCoordinate2D] {
        let n = try count(minimumBytes: 2)
        var points: [CLLocationCoordinate2D] = []
        points.reserveCapacity(n)
        for _ in 0..<n { points.append(try point()) }
        return points
    }

    mutating func rings() throws(StreetSceneError) -> [[CLLocationCoordinate2D]] {
        let n = try count(minimumBytes: 1)
        var rings: [[CLLocationCoordinate2D]] = []
        rings.reserveCapacity(n)
        for _ in 0..<n { rings.append(try line()) }
        return rings
    }

    mutating func finish() throws(StreetSceneError) {
        guard isAtEnd else { throw corrupt("trailing bytes") }
    }

    mutating func kind<T: RawRepresentable>(_ type: T.Type) throws(StreetSceneError) -> T where T.RawValue == UInt8 {
        let raw = try byte()
        guard let value = T(rawValue: raw) else { throw corrupt("unknown \(T.self) \(raw)") }
        return value
    }
}

/// Encodes and decodes the scene objects' blobs (format above).
enum SceneCodec {
    static func encode(_ b: SceneBuilding) -> [UInt8] {
        var w = SceneBlobWriter()
        var flags: UInt64 = 0
        if b.levels != nil { flags |= 1 << 0 }
        if b.roofDirection?.isFinite == true { flags |= 1 << 1 }
        if b.roofAcross { flags |= 1 << 2 }
        if b.wallColour != nil { flags |= 1 << 3 }
        if b.roofColour != nil { flags |= 1 << 4 }
        if b.wallMaterial != nil { flags |= 1 << 5 }
        if b.roofMaterial != nil { flags |= 1 << 6 }
        if b.isPart { flags |= 1 << 7 }
        if b.hasParts { flags |= 1 << 8 }
        if b.name != nil { flags |= 1 << 9 }
        if b.houseNumber != nil { flags |= 1 << 10 }
        w.unsigned(flags)
        w.length(b.height)
        w.length(b.minHeight)
        w.length(b.roofHeight)
        w.byte(b.roofShape.rawValue)
        w.string(b.kind)
        if let levels = b.levels { w.signed(Int64(levels)) }
        if let direction = b.roofDirection, direction.isFinite {
            let tenths = (direction.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) * 10
            w.unsigned(UInt64(max(0, min(3599, tenths.rounded()))))
        }
        if let c = b.wallColour { w.colour(c) }
        if let c = b.roofColour { w.colour(c) }
        if let s = b.wallMaterial { w.string(s) }
        if let s = b.roofMaterial { w.string(s) }
        if let s = b.name { w.string(s) }
        if let s = b.houseNumber { w.string(s) }
        w.rings(b.rings)
        return w.bytes
    }

    static func decodeBuilding(_ bytes: UnsafeRawBufferPointer) throws(StreetSceneError) -> SceneBuilding {
        var r = SceneBlobReader(bytes)
        let flags = try r.unsigned()
        func has(_ bit: Int) -> Bool { flags & (1 << UInt64(bit)) != 0 }
        let height = try r.length(), minHeight = try r.length(), roofHeight = try r.length()
        let shape = try r.kind(RoofShape.self)
        let kind = try r.string()
        var levels: Int? = nil
        if has(0) {
            let value = try r.signed()
            levels = Int(clamping: value)
        }
        let direction: Double? = has(1) ? Double(try r.unsigned()) / 10 : nil
        let wall: SceneColour? = has(3) ? try r.colour() : nil
        let roof: SceneColour? = has(4) ? try r.colour() : nil
        let wallMaterial: String? = has(5) ? try r.string() : nil
        let roofMaterial: String? = has(6) ? try r.string() : nil
        let name: String? = has(9) ? try r.string() : nil
        let number: String? = has(10) ? try r.string() : nil
        let rings = try r.rings()
        try r.finish()
        return SceneBuilding(rings: rings, height: height, minHeight: minHeight, levels: levels, roofShape: shape,
                             roofHeight: roofHeight, roofDirection: direction, roofAcross: has(2), wallColour: wall,
                             roofColour: roof, wallMaterial: wallMaterial, roofMaterial: roofMaterial, kind: kind,
                             isPart: has(7), hasParts: has(8), name: name, houseNumber: number)
    }

    static func encode(_ road: SceneRoad) -> [UInt8] {
        var w = SceneBlobWriter()
        var flags: UInt64 = 0
        if road.width?.isFinite == true { flags |= 1 << 0 }
        if road.lanes != nil { flags |= 1 << 1 }
        if road.isOneway { flags |= 1 << 2 }
        if road.isBridge { flags |= 1 << 3 }
        if road.isTunnel { flags |= 1 << 4 }
        if road.name != nil { flags |= 1 << 5 }
        if road.hasTramRails { flags |= 1 << 6 }
        w.unsigned(flags)
        w.byte(road.kind.rawValue)
        w.byte(road.sidewalks.rawValue)
        w.signed(Int64(road.layer))
        if let width = road.width, width.isFinite { w.length(width) }
        if let lanes = road.lanes { w.unsigned(UInt64(max(0, lanes))) }
        if let name = road.name { w.string(name) }
        w.line(road.line)
        return w.bytes
    }

    static func decodeRoad(_ bytes: UnsafeRawBufferPointer) throws(StreetSceneError) -> SceneRoad {
        var r = SceneBlobReader(bytes)
        let flags = try r.unsigned()
        func has(_ bit: Int) -> Bool { flags & (1 << UInt64(bit)) != 0 }
        let kind = try r.kind(SceneRoadKind.self)
        let sides = SidewalkSides(rawValue: try r.byte() & SidewalkSides.both.rawValue)
        let layer = Int(clamping: try r.signed())
        let width: Double? = has(0) ? try r.length() : nil
        let lanes: Int? = has(1) ? Int(clamping: try r.unsigned()) : nil
        let name: String? = has(5) ? try r.string() : nil
        let line = try r.line()
        try r.finish()
        return SceneRoad(line: line, kind: kind, width: width, lanes: lanes, sidewalks: sides, isOneway: has(2), layer: layer,
                         isBridge: has(3), isTunnel: has(4), name: name, hasTramRails: has(6))
    }

    static func encode(_ area: SceneArea) -> [UInt8] {
        var w = SceneBlobWriter()
        w.unsigned(area.name == nil ? 0 : 1)
        w.byte(area.kind.rawValue)
        if let name = area.name { w.string(name) }
        w.rings(area.rings)
        return w.bytes
    }

    static func decodeArea(_ bytes: UnsafeRawBufferPointer) throws(StreetSceneError) -> SceneArea {
        var r = SceneBlobReader(bytes)
        let flags = try r.unsigned()
        let kind = try r.kind(SceneAreaKind.self)
        let name: String? = flags & 1 != 0 ? try r.string() : nil
        let rings = try r.rings()
        try r.finish()
        return SceneArea(rings: rings, kind: kind, name: name)
    }

    static func encode(_ point: ScenePoint) -> [UInt8] {
        var w = SceneBlobWriter()
        var flags: UInt64 = 0
        if point.name != nil { flags |= 1 << 0 }
        if point.category != nil { flags |= 1 << 1 }
        if point.height?.isFinite == true { flags |= 1 << 2 }
        if point.isFromBuilding { flags |= 1 << 3 }
        w.unsigned(flags)
        w.byte(point.kind.rawValue)
        w.point(point.coordinate)
        if let s = point.name { w.string(s) }
        if let s = point.category { w.string(s) }
        if let h = point.height, h.isFinite { w.length(h) }
        return w.bytes
    }

    static func decodePoint(_ bytes: UnsafeRawBufferPointer) throws(StreetSceneError) -> ScenePoint {
        var r = SceneBlobReader(bytes)
        let flags = try r.unsigned()
        let kind = try r.kind(ScenePointKind.self)
        let coordinate = try r.point()
        let name: String? = flags & 1 != 0 ? try r.string() : nil
        let category: String? = flags & 2 != 0 ? try r.string() : nil
        let height: Double? = flags & 4 != 0 ? try r.length() : nil
        try r.finish()
        return ScenePoint(coordinate: coordinate, kind: kind, name: name, category: category, height: height,
                          isFromBuilding: flags & 8 != 0)
    }
}
