/// Encodes vector tiles (specification 2.1).
///
/// Per layer, each distinct key and each distinct value is written once, in order of first use.
/// Geometry is written as the specification asks: one MoveTo (count 1) per line or ring,
/// consecutive repeated points removed, rings closed with ClosePath, exterior rings with positive
/// area in tile coordinates and interior rings negative (reoriented when given the other way).
/// Degenerate parts are dropped: lines with fewer than two distinct points, rings with fewer than
/// three or no area (an exterior takes its holes along); a feature left with no geometry, and a
/// layer whose name repeats an earlier layer's, are dropped and counted.
public struct VectorTileEncoder {
    private var writer = ProtobufWriter()
    private var names = Set<UTF8Key>()
    // Scratch buffers reused across features so that encoding allocates per layer, not per feature.
    private var commands: [UInt32] = []
    private var tags: [UInt32] = []
    private var ring: [VectorTile.TilePoint] = []
    private var featureBytes: [UInt8] = []

    /// Features left out because nothing of their geometry survived.
    public private(set) var droppedFeatureCount = 0
    /// Layers left out because an earlier layer had the same name.
    public private(set) var droppedLayerCount = 0

    public init() {}

    /// The tile so far.
    public var bytes: [UInt8] { writer.bytes }

    /// Appends a layer to the tile.
    public mutating func append(_ layer: VectorTile.Layer) {
        guard names.insert(UTF8Key(string: layer.name)).inserted else {
            droppedLayerCount += 1
            return
        }
        var keyIndex: [UTF8Key: UInt32] = [:]
        var valueIndex: [VectorTile.Value: UInt32] = [:]
        var keys: [String] = []
        var values: [VectorTile.Value] = []
        var body = ProtobufWriter()
        // Field order follows the common encoders (version first), so decoding and re-encoding
        // their tiles gives the same bytes.
        body.writeVarintField(15, UInt64(layer.version))
        body.writeStringField(1, layer.name)
        for feature in layer.features {
            commands.removeAll(keepingCapacity: true)
            tags.removeAll(keepingCapacity: true)
            encodeGeometry(feature.geometry)
            guard !commands.isEmpty else {
                droppedFeatureCount += 1
                continue
            }
            for property in feature.properties {
                let k: UInt32
                let key = UTF8Key(string: property.key)
                if let existing = keyIndex[key] {
                    k = existing
                } else {
                    k = UInt32(keys.count)
                    keyIndex[key] = k
                    keys.append(property.key)
                }
                let v: UInt32
                if let existing = valueIndex[property.value] {
                    v = existing
                } else {
                    v = UInt32(values.count)
                    valueIndex[property.value] = v
                    values.append(property.value)
                }
                tags.append(k)
                tags.append(v)
            }
            writeFeature(&body, id: feature.id, type: feature.geometry.type)
        }
        for key in keys { body.writeStringField(3, key) }
        for value in values { body.writeBytesField(4, value.encodedMessage()) }
        body.writeVarintField(5, UInt64(layer.extent))
        writer.writeBytesField(3, body.bytes)
    }

    // MARK: Features

    /// Builds the feature message in a reused buffer (the tag and geometry lengths are known
    /// beforehand), then appends it to the layer in one copy.
    private mutating func writeFeature(_ body: inout ProtobufWriter, id: UInt64?, type: VectorTile.GeometryType) {
        var out = featureBytes
        featureBytes = []
        out.removeAll(keepingCapacity: true)
        if let id {
            out.append(1 << 3)
            appendVarint(&out, id)
        }
        if !tags.isEmpty {
            var length = 0
            for tag in tags { length += varintSize(UInt64(tag)) }
            out.append(2 << 3 | 2)
            appendVarint(&out, UInt64(length))
            for tag in tags { appendVarint(&out, UInt64(tag)) }
        }
        out.append(3 << 3)
        out.append(UInt8(type.rawValue))
        var length = 0
        for command in commands { length += varintSize(UInt64(command)) }
        out.append(4 << 3 | 2)
        appendVarint(&out, UInt64(length))
        for command in commands { appendVarint(&out, UInt64(command)) }
        body.writeBytesField(2, out)
        featureBytes = out
    }

    // MARK: Geometry

    private mutating func encodeGeometry(_ geometry: VectorTile.Geometry) {
        // The buffers move out of `self` for the duration, so the loops below touch plain locals.
        var out = GeometryWriter(commands: commands, ring: ring)
        commands = []
        ring = []
        out.encode(geometry)
        commands = out.commands
        ring = out.ring
    }
}

/// Writes geometry commands: cursor-relative zigzag deltas, one MoveTo per part.
private struct GeometryWriter {
    var commands: [UInt32]
    var ring: [VectorTile.TilePoint]
    var cursor = VectorTile.TilePoint(x: 0, y: 0)

    init(commands: [UInt32], ring: [VectorTile.TilePoint]) {
        self.commands = commands
        self.ring = ring
    }

    /// Deltas wrap in 32 bits, mirroring the decoder, so every `Int32` coordinate round-trips.
    @inline(__always) mutating func write(_ p: VectorTile.TilePoint) {
        let dx = p.x &- cursor.x, dy = p.y &- cursor.y
        commands.append(UInt32(bitPattern: (dx << 1) ^ (dx >> 31)))
        commands.append(UInt32(bitPattern: (dy << 1) ^ (dy >> 31)))
        cursor = p
    }

    @inline(__always) static func command(_ id: UInt32, _ count: Int) -> UInt32 {
        id | UInt32(truncatingIfNeeded: count) << 3
    }

    /// Copies `points` into `ring` without consecutive repeats (and, for rings, without a closing repeat).
    @inline(__always) mutating func clean(_ points: [VectorTile.TilePoint], isRing: Bool) {
        ring.removeAll(keepingCapacity: true)
        ring.reserveCapacity(points.count)
        guard var last = points.first else { return }
        ring.append(last)
        for p in points.dropFirst() where p != last {
            ring.append(p)
            last = p
        }
        if isRing, ring.count > 1, ring[0] == last { ring.removeLast() }
    }

    mutating func encode(_ geometry: VectorTile.Geometry) {
        switch geometry {
        case .unknown(let raw):
            commands.append(contentsOf: raw)
        case .points(let points):
            // A command count has 29 bits; larger multipoints continue in further MoveTo commands.
            commands.reserveCapacity(points.count * 2 + 1)
            var start = 0
            while start < points.count {
                let n = min(points.count - start, (1 << 29) - 1)
                commands.append(Self.command(GeometryDecoder.moveTo, n))
                for i in start..<(start + n) { write(points[i]) }
                start += n
            }
        case .lines(let lines):
            for line in lines {
                clean(line, isRing: false)
                guard ring.count >= 2 else { continue }
                writePart(close: false)
            }
        case .polygons(let polygons):
            for polygon in polygons {
                for (index, points) in polygon.enumerated() {
                    clean(points, isRing: true)
                    let sign = ring.count >= 3 ? VectorTile.windingSign(of: ring) : 0
                    if sign == 0 {
                        // Without its exterior the holes mean nothing: drop the whole polygon.
                        if index == 0 { break }
                        continue
                    }
                    if sign != (index == 0 ? 1 : -1) { ring.reverse() }
                    writePart(close: true)
                }
            }
        }
    }

    /// Writes `ring` (already cleaned) as MoveTo(1) + LineTo(n−1) [+ ClosePath(1)].
    mutating func writePart(close: Bool) {
        reserveGrowing(&commands, commands.count + ring.count * 2 + 3)
        commands.append(Self.command(GeometryDecoder.moveTo, 1))
        write(ring[0])
        var start = 1
        while start < ring.count {
            let n = min(ring.count - start, (1 << 29) - 1)
            commands.append(Self.command(GeometryDecoder.lineTo, n))
            for i in start..<(start + n) { write(ring[i]) }
            start += n
        }
        if close { commands.append(Self.command(GeometryDecoder.closePath, 1)) }
    }
}

/// Reserves room for `needed` elements, at least doubling when it must grow: calling plain
/// `reserveCapacity` per part would reallocate to the exact size each time and copy quadratically.
@inline(__always)
func reserveGrowing<T>(_ array: inout [T], _ needed: Int) {
    if array.capacity < needed { array.reserveCapacity(max(needed, array.capacity * 2)) }
}

@inline(__always)
func appendVarint(_ out: inout [UInt8], _ value: UInt64) {
    var v = value
    while v >= 0x80 {
        out.append(UInt8(truncatingIfNeeded: v) | 0x80)
        v >>= 7
    }
    out.append(UInt8(v))
}

@inline(__always)
func varintSize(_ value: UInt64) -> Int {
    // 1 byte per 7 significant bits, at least one.
    (64 - (value | 1).leadingZeroBitCount + 6) / 7
}

extension VectorTile {
    /// The tile in the wire format (uncompressed; gzip it with `Compression.deflate` if wanted).
    /// See ``VectorTileEncoder`` for what is normalised and dropped.
    public func encoded() -> [UInt8] {
        var encoder = VectorTileEncoder()
        for layer in layers { encoder.append(layer) }
        return encoder.bytes
    }
}

extension VectorTile.Value {
    /// The value as MVT's `Value` message (one field, by kind).
    func encodedMessage() -> [UInt8] {
        var v = ProtobufWriter()
        switch self {
        case .string(let s): v.writeStringField(1, s)
        case .float(let f): v.writeFloatField(2, f)
        case .double(let d): v.writeDoubleField(3, d)
        case .int(let i): v.writeVarintField(4, UInt64(bitPattern: i))
        case .uint(let u): v.writeVarintField(5, u)
        case .sint(let s): v.writeSInt64Field(6, s)
        case .bool(let b): v.writeVarintField(7, b ? 1 : 0)
        }
        return v.bytes
    }
}

extension VectorTile {
    /// A feature's properties on their own, outside a tile (a store of features waiting to be cut
    /// keeps them so): pairs of field 1, the key, and field 2, the value as MVT's `Value` message.
    public static func encodeProperties(_ properties: [Property]) -> [UInt8] {
        var out = ProtobufWriter()
        for property in properties {
            out.writeStringField(1, property.key)
            out.writeBytesField(2, property.value.encodedMessage())
        }
        return out.bytes
    }

    /// Reads properties written by ``encodeProperties(_:)``.
    public static func decodeProperties(_ bytes: UnsafeRawBufferPointer) throws(VectorTileError) -> [Property] {
        var reader = ProtobufReader(bytes)
        var properties: [Property] = []
        var key: String?
        while let (field, wireType) = try wrap(reader.nextField(), layer: nil) {
            switch (field, wireType, key) {
            case (1, .lengthDelimited, nil):
                key = try wrap(reader.readString(), layer: nil)
            case (2, .lengthDelimited, let name?):
                let range = try wrap(reader.readLengthDelimitedRange(), layer: nil)
                properties.append(Property(name, try VectorTileDecoder.decodeValue(bytes, range, layer: nil)))
                key = nil
            default:
                throw VectorTileError(.invalidValue("property field \(field) out of place"), at: reader.offset, layer: nil)
            }
        }
        guard key == nil else { throw VectorTileError(.invalidValue("property without a value"), at: reader.offset, layer: nil) }
        return properties
    }
}
