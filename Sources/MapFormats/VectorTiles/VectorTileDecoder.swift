import Foundation

/// Why a vector tile could not be decoded, where (`offset` is the byte offset in the tile, after
/// gzip inflation when the tile was compressed), and in which layer and feature (0-based indexes
/// in wire order, when known).
public struct VectorTileError: Error, Hashable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// The protobuf framing is broken (truncated, overlong varint, bad wire type…).
        case protobuf(ProtobufError.Reason)
        /// The tile is gzip-compressed and could not be inflated.
        case compression(String)
        /// A known field arrived with a wire type its declaration does not allow (a string
        /// `version`, a varint `keys` entry…). `field` names it as `Message.field`.
        case wrongWireType(field: String, wireType: UInt8)
        /// A layer without a `name`.
        case missingLayerName
        /// A layer without a `version` (the specification requires one).
        case missingLayerVersion
        /// A layer `version` other than 1 or 2.
        case unsupportedVersion(UInt64)
        /// A layer `extent` of 0 or one beyond `uint32`.
        case invalidExtent(UInt64)
        /// A `Value` message without exactly one of the seven value fields, or with a field the
        /// specification does not define.
        case invalidValue(String)
        /// A feature tag naming a key or value the layer does not have.
        case tagOutOfRange(index: UInt64, tableCount: Int, isKey: Bool)
        /// A command or parameter integer beyond `uint32`.
        case integerOutOfRange(UInt64)
        /// A command id other than MoveTo (1), LineTo (2) or ClosePath (7).
        case unknownCommand(id: UInt32)
        /// A command the feature's geometry type does not allow here (ClosePath first, LineTo
        /// in a point, ClosePath in a line string, a ring not closed…).
        case unexpectedCommand(id: UInt32, type: VectorTile.GeometryType)
        /// MoveTo must have count 1 in lines and polygons, ClosePath always count 1.
        case invalidCommandCount(id: UInt32, count: UInt32)
        /// A command announces more parameters than the geometry has left (each takes at least a byte).
        case commandCountExceedsData(count: UInt32, available: Int)
        /// A problem the lenient decoder recovers from, raised because the decoder is strict.
        case recoverable(VectorTile.Issue.Reason)
    }

    public var reason: Reason
    public var offset: Int
    public var layer: Int?
    public var feature: Int?

    public init(_ reason: Reason, at offset: Int, layer: Int? = nil, feature: Int? = nil) {
        self.reason = reason
        self.offset = offset
        self.layer = layer
        self.feature = feature
    }

    public var description: String {
        var place = "at byte \(offset)"
        if let layer { place += ", layer \(layer)" }
        if let feature { place += ", feature \(feature)" }
        let what: String
        switch reason {
        case .protobuf(let r): what = "protobuf: " + ProtobufError(r, at: offset).description
        case .compression(let m): what = "gzip: \(m)"
        case .wrongWireType(let field, let t): what = "\(field) has wire type \(t)"
        case .missingLayerName: what = "layer has no name"
        case .missingLayerVersion: what = "layer has no version"
        case .unsupportedVersion(let v): what = "layer version \(v) is not 1 or 2"
        case .invalidExtent(let e): what = "layer extent \(e) is invalid"
        case .invalidValue(let m): what = "invalid value: \(m)"
        case .tagOutOfRange(let i, let n, let isKey): what = "tag \(isKey ? "key" : "value") index \(i) beyond the layer's \(n)"
        case .integerOutOfRange(let v): what = "geometry integer \(v) exceeds uint32"
        case .unknownCommand(let id): what = "unknown geometry command \(id)"
        case .unexpectedCommand(let id, let type): what = "command \(id) not allowed here in a \(type) geometry"
        case .invalidCommandCount(let id, let count): what = "command \(id) with count \(count)"
        case .commandCountExceedsData(let count, let available): what = "command count \(count) exceeds the \(available) bytes of geometry left"
        case .recoverable(let r): what = "\(r) (strict decoding)"
        }
        return "vector tile: \(what) \(place)"
    }
}

extension VectorTile {
    /// A problem the decoder recovered from: what it was, what the decoder did, and where.
    public struct Issue: Hashable, Sendable, CustomStringConvertible {
        public enum Reason: Hashable, Sendable {
            /// The feature has no `type` field (only strict decoding reports this; otherwise the
            /// feature is read as UNKNOWN, proto2's default).
            case missingGeometryType
            /// The `type` is not a `GeomType`.
            case unknownGeometryType(UInt64)
            /// The feature has no (or an empty) `geometry` field.
            case missingGeometry
            /// The feature has more than one `geometry` field.
            case repeatedGeometryField
            /// The feature's `tags` have an odd count.
            case oddTagCount(Int)
            /// A second layer with the name of an earlier one.
            case duplicateLayerName(String)
            /// A line or ring repeats a point consecutively (or a ring repeats its first point at the end).
            case repeatedPoints
            /// A line with fewer than two distinct points, or a ring with fewer than three or no area.
            case degenerateGeometry
            /// A version 2 polygon whose first ring is not exterior by the specification's winding.
            case reversedWinding
        }

        public enum Action: Hashable, Sendable {
            /// The feature was left out.
            case skippedFeature
            /// The layer was left out.
            case skippedLayer
            /// The geometry was kept, repaired (points or parts removed, rings reoriented).
            case repairedGeometry
        }

        public var reason: Reason
        public var action: Action
        /// Byte offset of the layer or feature message.
        public var offset: Int
        public var layer: Int
        public var feature: Int?

        public var description: String {
            "\(reason) → \(action) at byte \(offset), layer \(layer)" + (feature.map { ", feature \($0)" } ?? "")
        }
    }
}

/// Decodes vector tiles (gzip-compressed or not) and reports the problems it recovered from.
///
/// Problems that leave the tile's meaning intact or confined to one feature are recovered from
/// (the feature is skipped, or its geometry repaired) and listed in ``issues``; a structurally
/// broken tile (bad protobuf, wrong field types, invalid layers, dangling tags, malformed command
/// streams) throws ``VectorTileError``. With ``strict`` every recoverable problem throws too.
public struct VectorTileDecoder {
    /// Throw on recoverable problems instead of recovering.
    public var strict: Bool
    /// The largest inflated size accepted for a gzip-compressed tile.
    public var maxInflatedSize: Int
    /// What the last `decode` call recovered from.
    public private(set) var issues: [VectorTile.Issue] = []

    public init(strict: Bool = false, maxInflatedSize: Int = 64 << 20) {
        self.strict = strict
        self.maxInflatedSize = maxInflatedSize
    }

    /// Decodes a tile from bytes, inflating them first if they are gzip-compressed.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer) throws(VectorTileError) -> VectorTile {
        issues = []
        if Compression.isGzip(bytes) {
            let inflated: [UInt8]
            do {
                inflated = try Compression.inflate(bytes, container: .gzip, limit: maxInflatedSize)
            } catch {
                throw VectorTileError(.compression(error.message), at: 0)
            }
            var decoder = self
            let result: Result<VectorTile, VectorTileError> = inflated.withUnsafeBytes { raw in
                Result { () throws(VectorTileError) -> VectorTile in try decoder.decodeTile(raw) }
            }
            issues = decoder.issues
            return try result.get()
        }
        return try decodeTile(bytes)
    }

    /// Decodes a tile from `Data` or `[UInt8]`, inflating it first if it is gzip-compressed.
    public mutating func decode<D: ContiguousBytes>(_ data: D) throws(VectorTileError) -> VectorTile {
        var decoder = self
        let result: Result<VectorTile, VectorTileError> = data.withUnsafeBytes { raw in
            Result { () throws(VectorTileError) -> VectorTile in try decoder.decode(raw) }
        }
        issues = decoder.issues
        return try result.get()
    }

    // MARK: Tile and layers

    private mutating func decodeTile(_ bytes: UnsafeRawBufferPointer) throws(VectorTileError) -> VectorTile {
        var reader = ProtobufReader(bytes)
        var layers: [VectorTile.Layer] = []
        var names = Set<UTF8Key>()  // the specification compares layer names byte for byte
        var layerIndex = 0
        while let (field, wireType) = try wrap(reader.nextField(), layer: nil) {
            let fieldStart = reader.offset
            if field == 3 {
                guard wireType == .lengthDelimited else {
                    throw VectorTileError(.wrongWireType(field: "Tile.layers", wireType: wireType.rawValue), at: fieldStart)
                }
                let range = try wrap(reader.readLengthDelimitedRange(), layer: layerIndex)
                let layer = try decodeLayer(bytes, range, index: layerIndex)
                if names.insert(UTF8Key(string: layer.name)).inserted {
                    layers.append(layer)
                } else {
                    try recover(.duplicateLayerName(layer.name), .skippedLayer, at: range.lowerBound, layer: layerIndex, feature: nil)
                }
                layerIndex += 1
            } else {
                try wrap(reader.skip(wireType), layer: nil)
            }
        }
        return VectorTile(layers: layers)
    }

    private mutating func decodeLayer(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, index: Int) throws(VectorTileError) -> VectorTile.Layer {
        var reader = ProtobufReader(bytes, from: range.lowerBound, to: range.upperBound)
        var name: String?
        var version: UInt64?
        var extent: UInt64 = 4096
        var keys: [String] = []
        var values: [VectorTile.Value] = []
        var featureRanges: [Range<Int>] = []
        // Features may precede the key and value tables on the wire, so they are decoded in a second pass.
        while let (field, wireType) = try wrap(reader.nextField(), layer: index) {
            let at = reader.offset
            switch field {
            case 1:
                try Self.expect(wireType, .lengthDelimited, "Layer.name", at, index)
                name = try wrap(reader.readString(), layer: index)
            case 2:
                try Self.expect(wireType, .lengthDelimited, "Layer.features", at, index)
                featureRanges.append(try wrap(reader.readLengthDelimitedRange(), layer: index))
            case 3:
                try Self.expect(wireType, .lengthDelimited, "Layer.keys", at, index)
                keys.append(try wrap(reader.readString(), layer: index))
            case 4:
                try Self.expect(wireType, .lengthDelimited, "Layer.values", at, index)
                let valueRange = try wrap(reader.readLengthDelimitedRange(), layer: index)
                values.append(try Self.decodeValue(bytes, valueRange, layer: index))
            case 5:
                try Self.expect(wireType, .varint, "Layer.extent", at, index)
                extent = try wrap(reader.readVarint(), layer: index)
            case 15:
                try Self.expect(wireType, .varint, "Layer.version", at, index)
                version = try wrap(reader.readVarint(), layer: index)
            default:
                try wrap(reader.skip(wireType), layer: index)
            }
        }
        guard let version else { throw VectorTileError(.missingLayerVersion, at: range.lowerBound, layer: index) }
        guard version == 1 || version == 2 else { throw VectorTileError(.unsupportedVersion(version), at: range.lowerBound, layer: index) }
        guard let name else { throw VectorTileError(.missingLayerName, at: range.lowerBound, layer: index) }
        guard extent > 0, extent <= UInt64(UInt32.max) else { throw VectorTileError(.invalidExtent(extent), at: range.lowerBound, layer: index) }

        var features: [VectorTile.Feature] = []
        features.reserveCapacity(featureRanges.count)
        var context = LayerContext(bytes: bytes, keys: keys, values: values, layer: index, version: UInt32(version))
        for (featureIndex, featureRange) in featureRanges.enumerated() {
            context.feature = featureIndex
            if let feature = try decodeFeature(&context, featureRange) { features.append(feature) }
        }
        return VectorTile.Layer(name: name, version: UInt32(version), extent: UInt32(extent), features: features)
    }

    static func decodeValue(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, layer: Int?) throws(VectorTileError) -> VectorTile.Value {
        var reader = ProtobufReader(bytes, from: range.lowerBound, to: range.upperBound)
        var value: VectorTile.Value?
        while let (field, wireType) = try wrap(reader.nextField(), layer: layer) {
            let at = reader.offset
            guard value == nil else {
                throw VectorTileError(.invalidValue("more than one field"), at: range.lowerBound, layer: layer)
            }
            switch field {
            case 1:
                try Self.expect(wireType, .lengthDelimited, "Value.string_value", at, layer)
                value = .string(try wrap(reader.readString(), layer: layer))
            case 2:
                try Self.expect(wireType, .fixed32, "Value.float_value", at, layer)
                value = .float(try wrap(reader.readFloat(), layer: layer))
            case 3:
                try Self.expect(wireType, .fixed64, "Value.double_value", at, layer)
                value = .double(try wrap(reader.readDouble(), layer: layer))
            case 4:
                try Self.expect(wireType, .varint, "Value.int_value", at, layer)
                value = .int(try wrap(reader.readInt64(), layer: layer))
            case 5:
                try Self.expect(wireType, .varint, "Value.uint_value", at, layer)
                value = .uint(try wrap(reader.readVarint(), layer: layer))
            case 6:
                try Self.expect(wireType, .varint, "Value.sint_value", at, layer)
                value = .sint(try wrap(reader.readSInt64(), layer: layer))
            case 7:
                try Self.expect(wireType, .varint, "Value.bool_value", at, layer)
                let raw = try wrap(reader.readVarint(), layer: layer)
                value = .bool(raw != 0)
            default:
                // Version 2.x defines no extension values: an unknown kind cannot be represented faithfully.
                throw VectorTileError(.invalidValue("unknown field \(field)"), at: range.lowerBound, layer: layer)
            }
        }
        guard let value else { throw VectorTileError(.invalidValue("no value field"), at: range.lowerBound, layer: layer) }
        return value
    }

    // MARK: Features

    private struct LayerContext {
        let bytes: UnsafeRawBufferPointer
        let keys: [String]
        let values: [VectorTile.Value]
        let layer: Int
        let version: UInt32
        var feature = 0
    }

    private mutating func decodeFeature(_ context: inout LayerContext, _ range: Range<Int>) throws(VectorTileError) -> VectorTile.Feature? {
        let layer = context.layer, featureIndex = context.feature
        var reader = ProtobufReader(context.bytes, from: range.lowerBound, to: range.upperBound)
        var id: UInt64?
        var typeField: UInt64?
        var tagsRange: Range<Int>?
        var geometryRange: Range<Int>?
        var repeatedGeometry = false
        while let (field, wireType) = try wrap(reader.nextField(), layer: layer, feature: featureIndex) {
            let at = reader.offset
            switch field {
            case 1:
                try Self.expect(wireType, .varint, "Feature.id", at, layer, featureIndex)
                id = try wrap(reader.readVarint(), layer: layer, feature: featureIndex)
            case 2:
                try Self.expect(wireType, .lengthDelimited, "Feature.tags", at, layer, featureIndex)
                let tags = try wrap(reader.readLengthDelimitedRange(), layer: layer, feature: featureIndex)
                // Packed fields may legally be split; tags are rarely split, so only the common case is kept cheap.
                if let previous = tagsRange, previous.upperBound != tags.lowerBound {
                    throw VectorTileError(.wrongWireType(field: "Feature.tags (split)", wireType: wireType.rawValue), at: at, layer: layer, feature: featureIndex)
                }
                tagsRange = tagsRange.map { $0.lowerBound..<tags.upperBound } ?? tags
            case 3:
                try Self.expect(wireType, .varint, "Feature.type", at, layer, featureIndex)
                typeField = try wrap(reader.readVarint(), layer: layer, feature: featureIndex)
            case 4:
                try Self.expect(wireType, .lengthDelimited, "Feature.geometry", at, layer, featureIndex)
                let geometry = try wrap(reader.readLengthDelimitedRange(), layer: layer, feature: featureIndex)
                if geometryRange != nil { repeatedGeometry = true } else { geometryRange = geometry }
            default:
                try wrap(reader.skip(wireType), layer: layer, feature: featureIndex)
            }
        }

        let properties = try decodeTags(context, tagsRange, featureOffset: range.lowerBound)
        guard let properties else {
            try recover(.oddTagCount(countVarints(context.bytes, tagsRange)), .skippedFeature, at: range.lowerBound, layer: layer, feature: featureIndex)
            return nil
        }
        if repeatedGeometry {
            try recover(.repeatedGeometryField, .skippedFeature, at: range.lowerBound, layer: layer, feature: featureIndex)
            return nil
        }
        // The specification requires a type, but proto2 defaults a missing one to UNKNOWN, and the
        // fixtures accept that reading; only strict decoding refuses it.
        if typeField == nil, strict {
            throw VectorTileError(.recoverable(.missingGeometryType), at: range.lowerBound, layer: layer, feature: featureIndex)
        }
        let rawType = typeField ?? 0
        guard let type = VectorTile.GeometryType(rawValue: UInt32(truncatingIfNeeded: rawType)), rawType <= 3 else {
            try recover(.unknownGeometryType(rawType), .skippedFeature, at: range.lowerBound, layer: layer, feature: featureIndex)
            return nil
        }
        guard let geometryRange, !geometryRange.isEmpty else {
            try recover(.missingGeometry, .skippedFeature, at: range.lowerBound, layer: layer, feature: featureIndex)
            return nil
        }
        var geometryDecoder = GeometryDecoder(bytes: context.bytes, range: geometryRange, layer: layer, feature: featureIndex)
        let geometry: VectorTile.Geometry
        switch type {
        case .unknown: geometry = .unknown(commands: try geometryDecoder.rawCommands())
        case .point: geometry = .points(try geometryDecoder.points())
        case .lineString: geometry = .lines(try geometryDecoder.lines())
        case .polygon: geometry = .polygons(try geometryDecoder.polygons(version: context.version))
        }
        for reason in geometryDecoder.issues {
            try recover(reason, .repairedGeometry, at: range.lowerBound, layer: layer, feature: featureIndex)
        }
        if geometry.isEmpty {
            try recover(.degenerateGeometry, .skippedFeature, at: range.lowerBound, layer: layer, feature: featureIndex)
            return nil
        }
        return VectorTile.Feature(id: id, properties: properties, geometry: geometry)
    }

    /// The feature's properties; nil when the tag count is odd (a recoverable problem).
    private func decodeTags(_ context: LayerContext, _ range: Range<Int>?, featureOffset: Int) throws(VectorTileError) -> [VectorTile.Property]? {
        guard let range else { return [] }
        let count = countVarints(context.bytes, range)
        guard count % 2 == 0 else { return nil }
        var properties: [VectorTile.Property] = []
        properties.reserveCapacity(count / 2)
        var reader = ProtobufReader(context.bytes, from: range.lowerBound, to: range.upperBound)
        while !reader.isAtEnd {
            let at = reader.offset
            let k = try wrap(reader.readVarint(), layer: context.layer, feature: context.feature)
            let v = try wrap(reader.readVarint(), layer: context.layer, feature: context.feature)
            guard k < UInt64(context.keys.count) else {
                throw VectorTileError(.tagOutOfRange(index: k, tableCount: context.keys.count, isKey: true), at: at, layer: context.layer, feature: context.feature)
            }
            guard v < UInt64(context.values.count) else {
                throw VectorTileError(.tagOutOfRange(index: v, tableCount: context.values.count, isKey: false), at: at, layer: context.layer, feature: context.feature)
            }
            properties.append(VectorTile.Property(context.keys[Int(k)], context.values[Int(v)]))
        }
        return properties
    }

    /// The number of varints in a packed range: bytes without the continuation bit end one each.
    private func countVarints(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>?) -> Int {
        guard let range else { return 0 }
        var count = 0
        for i in range where bytes[i] < 0x80 { count += 1 }
        // A final varint cut short still counts, so that truncation surfaces as a protobuf error later.
        if let last = range.last, bytes[last] >= 0x80 { count += 1 }
        return count
    }

    // MARK: Helpers

    private mutating func recover(_ reason: VectorTile.Issue.Reason, _ action: VectorTile.Issue.Action, at offset: Int,
                                  layer: Int, feature: Int?) throws(VectorTileError) {
        if strict { throw VectorTileError(.recoverable(reason), at: offset, layer: layer, feature: feature) }
        issues.append(VectorTile.Issue(reason: reason, action: action, offset: offset, layer: layer, feature: feature))
    }

    @inline(__always)
    private static func expect(_ wireType: ProtobufWireType, _ expected: ProtobufWireType, _ field: String, _ at: Int,
                        _ layer: Int?, _ feature: Int? = nil) throws(VectorTileError) {
        guard wireType == expected else {
            throw VectorTileError(.wrongWireType(field: field, wireType: wireType.rawValue), at: at, layer: layer, feature: feature)
        }
    }
}

/// Attaches the layer and feature to a protobuf error.
@inline(__always)
func wrap<T>(_ body: @autoclosure () throws(ProtobufError) -> T, layer: Int?, feature: Int? = nil) throws(VectorTileError) -> T {
    do {
        return try body()
    } catch {
        throw VectorTileError(.protobuf(error.reason), at: error.offset, layer: layer, feature: feature)
    }
}

extension VectorTile {
    /// Decodes a tile (gzip-compressed or not), recovering from what ``VectorTileDecoder`` recovers from.
    public init(decoding bytes: UnsafeRawBufferPointer) throws(VectorTileError) {
        var decoder = VectorTileDecoder()
        self = try decoder.decode(bytes)
    }

    /// Decodes a tile from `Data` or `[UInt8]` (gzip-compressed or not).
    public init<D: ContiguousBytes>(decoding data: D) throws(VectorTileError) {
        var decoder = VectorTileDecoder()
        self = try decoder.decode(data)
    }
}
