// Columnar OSM data decoded from one PBF PrimitiveBlock: the importer's hot path.
//
// Elements are stored as parallel arrays, and tag keys, values and member roles as indices into
// the block's ``OSMStringTable``, so decoding a block creates no `String`s; a consumer compares
// or converts only the strings it keeps (look a key up once per block with
// ``OSMStringTable/index(of:)``, then compare integers).

/// Which element kinds to decode. Skipped kinds cost almost nothing: their groups are stepped
/// over without looking inside.
public struct OSMEntityKinds: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let nodes = OSMEntityKinds(rawValue: 1)
    public static let ways = OSMEntityKinds(rawValue: 2)
    public static let relations = OSMEntityKinds(rawValue: 4)
    public static let all: OSMEntityKinds = [.nodes, .ways, .relations]
}

/// What to decode from each block.
public struct OSMPBFReadOptions: Hashable, Sendable {
    /// The element kinds to decode; the others are left out of the blocks.
    public var kinds: OSMEntityKinds
    /// Whether to decode tags. Without them tag columns are empty (every element reads as untagged)
    /// and tag indices are not checked.
    public var tags: Bool

    public init(kinds: OSMEntityKinds = .all, tags: Bool = true) {
        self.kinds = kinds
        self.tags = tags
    }
}

/// A block's strings: one byte buffer and the offsets where each string starts.
public struct OSMStringTable: Sendable {
    /// The strings' UTF-8 bytes, back to back.
    public private(set) var bytes: [UInt8] = []
    /// `count + 1` offsets into ``bytes``; string `i` is `bytes[offsets[i]..<offsets[i + 1]]`.
    public private(set) var offsets: [Int32] = [0]

    public init() {}

    /// The number of strings; valid indices are `0..<count`.
    @inlinable public var count: Int { offsets.count - 1 }

    mutating func append(_ string: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: string)
        offsets.append(Int32(bytes.count))
    }

    mutating func reserve(strings: Int, bytes total: Int) {
        offsets.reserveCapacity(strings + 1)
        bytes.reserveCapacity(total)
    }

    /// The string at `index` (invalid UTF-8 becomes U+FFFD).
    public subscript(index: Int32) -> String {
        withUTF8(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of the string at `index`, without creating a `String`.
    @inlinable
    public func withUTF8<R>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let start = Int(offsets[Int(index)]), end = Int(offsets[Int(index) + 1])
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Whether the string at `index` equals `string`.
    public func string(at index: Int32, equals string: String) -> Bool {
        var string = string
        return string.withUTF8 { target in withUTF8(index) { $0.elementsEqual(target) } }
    }

    /// The index of the first string equal to `string`, or nil: look keys up once per block, then
    /// compare indices.
    public func index(of string: String) -> Int32? {
        var string = string
        return string.withUTF8 { target -> Int32? in
            bytes.withUnsafeBufferPointer { all -> Int32? in
                for i in 0..<count {
                    let start = Int(offsets[i]), end = Int(offsets[i + 1])
                    if end - start == target.count, all[start..<end].elementsEqual(target) { return Int32(i) }
                }
                return nil
            }
        }
    }
}

/// Tags of a sequence of elements: element `i`'s tags are `keys[r]`/`values[r]` for `r` in
/// ``range(of:)``, both string table indices.
public struct OSMTagColumns: Sendable {
    /// `elementCount + 1` offsets into ``keys`` and ``values``; empty when tags were not decoded.
    public internal(set) var starts: [Int32] = []
    public internal(set) var keys: [Int32] = []
    public internal(set) var values: [Int32] = []

    public init() {}

    /// The positions of element `element`'s tags in ``keys`` and ``values``.
    @inlinable public func range(of element: Int) -> Range<Int> {
        guard element + 1 < starts.count else { return 0..<0 }
        return Int(starts[element])..<Int(starts[element + 1])
    }

    /// The number of tags over all elements.
    @inlinable public var count: Int { keys.count }
}

/// A block's nodes as parallel arrays.
public struct OSMNodeColumns: Sendable {
    public internal(set) var ids: [Int64] = []
    public internal(set) var locations: [OSMLocation] = []
    public internal(set) var tags = OSMTagColumns()

    public init() {}

    @inlinable public var count: Int { ids.count }
}

/// A block's ways as parallel arrays.
public struct OSMWayColumns: Sendable {
    public internal(set) var ids: [Int64] = []
    /// `count + 1` offsets into ``refs``.
    public internal(set) var refStarts: [Int32] = [0]
    /// Every way's node ids, back to back.
    public internal(set) var refs: [Int64] = []
    /// The nodes' locations, parallel to ``refs``, when the file has `LocationsOnWays`; else empty.
    public internal(set) var locations: [OSMLocation] = []
    public internal(set) var tags = OSMTagColumns()

    public init() {}

    @inlinable public var count: Int { ids.count }

    /// The positions of way `way`'s node ids in ``refs``.
    @inlinable public func refRange(of way: Int) -> Range<Int> {
        Int(refStarts[way])..<Int(refStarts[way + 1])
    }
}

/// A block's relations as parallel arrays.
public struct OSMRelationColumns: Sendable {
    public internal(set) var ids: [Int64] = []
    /// `count + 1` offsets into the member arrays.
    public internal(set) var memberStarts: [Int32] = [0]
    public internal(set) var memberTypes: [OSMEntityType] = []
    public internal(set) var memberRefs: [Int64] = []
    /// String table indices of the members' roles.
    public internal(set) var memberRoles: [Int32] = []
    public internal(set) var tags = OSMTagColumns()

    public init() {}

    @inlinable public var count: Int { ids.count }

    /// The positions of relation `relation`'s members in the member arrays.
    @inlinable public func memberRange(of relation: Int) -> Range<Int> {
        Int(memberStarts[relation])..<Int(memberStarts[relation + 1])
    }
}

/// One decoded PrimitiveBlock: its string table and its nodes, ways and relations in columns.
public struct OSMPrimitiveBlock: Sendable {
    /// The block's position among the file's data blocks (0 is the first after the header).
    public var sequenceNumber: Int = 0
    /// The blob's position in the file (0 is the header blob) and the offset of its length prefix.
    public var blobIndex: Int = 0
    public var blobOffset: Int = 0
    public internal(set) var strings = OSMStringTable()
    public internal(set) var nodes = OSMNodeColumns()
    public internal(set) var ways = OSMWayColumns()
    public internal(set) var relations = OSMRelationColumns()

    public init() {}

    /// Nodes, ways and relations together.
    public var elementCount: Int { nodes.count + ways.count + relations.count }
}

// MARK: - Decoding

/// A bounds-checked cursor over a packed varint array: the dense-node loops spend their time
/// here, so it reads through a raw pointer and keeps the one-byte case short.
struct PackedVarints {
    let base: UnsafePointer<UInt8>
    var position: Int
    let end: Int
    /// The end of the whole buffer: the fast path may read up to 10 bytes before this without
    /// per-byte checks, then verifies the varint ended inside the array.
    let limit: Int

    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
        // An empty buffer has no base address; the cursor never dereferences it then.
        base = bytes.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) }
            ?? UnsafePointer(bitPattern: 0x10)!
        position = range.lowerBound
        end = range.upperBound
        limit = bytes.count
    }

    var isAtEnd: Bool { position >= end }

    /// The number of varints in the range: bytes without the continuation bit end one each.
    func count() -> Int {
        var n = 0
        var i = position
        while i < end {
            n &+= Int(1 &- (base[i] >> 7))
            i &+= 1
        }
        return n
    }

    @inline(__always)
    mutating func next() throws(OSMPBFBlockFault) -> UInt64 {
        // With 10 bytes left in the buffer no byte needs its own bounds check; coordinates and
        // ids take 1–4. Short arrays (a way's refs) end before the buffer does, so the varint's
        // end is checked against the array afterwards.
        if _fastPath(limit &- position >= 10) {
            let p = base + position
            var b = UInt64(p[0])
            var length = 1
            var result = b & 0x7F
            if b >= 0x80 {
                b = UInt64(p[1]); result |= (b & 0x7F) << 7; length = 2
                if b >= 0x80 {
                    b = UInt64(p[2]); result |= (b & 0x7F) << 14; length = 3
                    if b >= 0x80 {
                        b = UInt64(p[3]); result |= (b & 0x7F) << 21; length = 4
                        var shift: UInt64 = 28
                        while b >= 0x80 {
                            guard length < 10 else { return try nextSlow() }
                            b = UInt64(p[length])
                            if length == 9 && b > 1 { return try nextSlow() }
                            result |= (b & 0x7F) << shift
                            shift &+= 7
                            length &+= 1
                        }
                    }
                }
            }
            if _fastPath(position &+ length <= end) {
                position &+= length
                return result
            }
        }
        return try nextSlow()
    }

    @inline(never)
    mutating func nextSlow() throws(OSMPBFBlockFault) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < end {
            let b = base[position]
            position &+= 1
            if shift == 63 && b > 1 { break }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
        }
        throw OSMPBFBlockFault(.malformedBlock("a packed varint is truncated or longer than 64 bits"), at: start)
    }

    @inline(__always)
    mutating func nextSigned() throws(OSMPBFBlockFault) -> Int64 {
        let v = try next()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }
}

/// Nanodegrees = offset + granularity × stored value; OSMLocation keeps 1e-7 degrees.
struct CoordinateTransform {
    let granularity: Int64
    let latOffset: Int64
    let lonOffset: Int64
    /// The default (granularity 100, no offsets), where the stored value already is 1e-7 degrees.
    let isIdentity: Bool

    init(granularity: Int64, latOffset: Int64, lonOffset: Int64) {
        self.granularity = granularity
        self.latOffset = latOffset
        self.lonOffset = lonOffset
        isIdentity = granularity == 100 && latOffset == 0 && lonOffset == 0
    }

    @inline(__always)
    func location(lat: Int64, lon: Int64, at offset: Int) throws(OSMPBFBlockFault) -> OSMLocation {
        if isIdentity {
            guard lat >= -900_000_000, lat <= 900_000_000, lon >= -1_800_000_000, lon <= 1_800_000_000 else {
                throw OSMPBFBlockFault(.coordinateOutOfRange(latitude: lat &* 100, longitude: lon &* 100), at: offset)
            }
            return OSMLocation(latitudeE7: Int32(truncatingIfNeeded: lat), longitudeE7: Int32(truncatingIfNeeded: lon))
        }
        return try scaled(lat: lat, lon: lon, at: offset)
    }

    @inline(never)
    func scaled(lat: Int64, lon: Int64, at offset: Int) throws(OSMPBFBlockFault) -> OSMLocation {
        func nano(_ value: Int64, _ base: Int64) -> Int64? {
            let (product, o1) = granularity.multipliedReportingOverflow(by: value)
            let (sum, o2) = product.addingReportingOverflow(base)
            return o1 || o2 ? nil : sum
        }
        guard let latN = nano(lat, latOffset), let lonN = nano(lon, lonOffset),
              latN >= -90_000_000_000, latN <= 90_000_000_000, lonN >= -180_000_000_000, lonN <= 180_000_000_000 else {
            throw OSMPBFBlockFault(.coordinateOutOfRange(latitude: latOffset &+ granularity &* lat,
                                                         longitude: lonOffset &+ granularity &* lon), at: offset)
        }
        func e7(_ n: Int64) -> Int32 { Int32((n + (n >= 0 ? 50 : -50)) / 100) }
        return OSMLocation(latitudeE7: e7(latN), longitudeE7: e7(lonN))
    }
}

/// Decodes one PrimitiveBlock's bytes.
struct OSMPrimitiveBlockDecoder {
    let data: UnsafeRawBufferPointer
    let options: OSMPBFReadOptions
    var block = OSMPrimitiveBlock()
    var transform = CoordinateTransform(granularity: 100, latOffset: 0, lonOffset: 0)

    init(data: UnsafeRawBufferPointer, options: OSMPBFReadOptions) {
        self.data = data
        self.options = options
    }

    static func decode(_ data: UnsafeRawBufferPointer, options: OSMPBFReadOptions) throws(OSMPBFBlockFault) -> OSMPrimitiveBlock {
        var decoder = OSMPrimitiveBlockDecoder(data: data, options: options)
        do {
            try decoder.run()
        } catch let fault as OSMPBFBlockFault {
            throw fault
        } catch let error as ProtobufError {
            throw OSMPBFBlockFault(error)
        } catch {
            throw OSMPBFBlockFault(.malformedBlock("\(error)"))
        }
        return decoder.block
    }

    private func wrongWireType(_ message: String, _ field: Int, _ wireType: ProtobufWireType, at offset: Int) -> OSMPBFBlockFault {
        OSMPBFBlockFault(.malformedBlock("\(message) field \(field) has wire type \(wireType.rawValue)"), at: offset)
    }

    private mutating func run() throws {
        var reader = ProtobufReader(data)
        var stringTable: Range<Int>?
        var groups: [Range<Int>] = []
        var granularity: Int64 = 100, latOffset: Int64 = 0, lonOffset: Int64 = 0
        // Granularity and offsets follow the groups on the wire, so groups are decoded afterwards.
        while true {
            let fieldStart = reader.offset
            guard let (field, wireType) = try reader.nextField() else { break }
            switch (field, wireType) {
            case (1, .lengthDelimited): stringTable = try reader.readLengthDelimitedRange()
            case (2, .lengthDelimited): groups.append(try reader.readLengthDelimitedRange())
            case (17, .varint): granularity = Int64(Int32(truncatingIfNeeded: try reader.readVarint()))
            case (19, .varint): latOffset = try reader.readInt64()
            case (20, .varint): lonOffset = try reader.readInt64()
            case (1, _), (2, _), (17, _), (19, _), (20, _):
                throw wrongWireType("PrimitiveBlock", field, wireType, at: fieldStart)
            default: try reader.skip(wireType)
            }
        }
        guard granularity > 0 else { throw OSMPBFBlockFault(.invalidGranularity(granularity)) }
        transform = CoordinateTransform(granularity: granularity, latOffset: latOffset, lonOffset: lonOffset)
        if let stringTable { try decodeStringTable(stringTable) }
        for group in groups { try decodeGroup(group) }
    }

    private mutating func decodeStringTable(_ range: Range<Int>) throws {
        var reader = ProtobufReader(data, from: range.lowerBound, to: range.upperBound)
        block.strings.reserve(strings: 64, bytes: range.count)
        while true {
            let fieldStart = reader.offset
            guard let (field, wireType) = try reader.nextField() else { break }
            switch (field, wireType) {
            case (1, .lengthDelimited): block.strings.append(try reader.readBytes())
            case (1, _): throw wrongWireType("StringTable", field, wireType, at: fieldStart)
            default: try reader.skip(wireType)
            }
        }
    }

    private mutating func decodeGroup(_ range: Range<Int>) throws {
        var reader = ProtobufReader(data, from: range.lowerBound, to: range.upperBound)
        let kinds = options.kinds
        while true {
            let fieldStart = reader.offset
            guard let (field, wireType) = try reader.nextField() else { break }
            switch (field, wireType) {
            case (1, .lengthDelimited) where kinds.contains(.nodes): try decodeNode(try reader.readLengthDelimitedRange())
            case (2, .lengthDelimited) where kinds.contains(.nodes): try decodeDense(try reader.readLengthDelimitedRange())
            case (3, .lengthDelimited) where kinds.contains(.ways): try decodeWay(try reader.readLengthDelimitedRange())
            case (4, .lengthDelimited) where kinds.contains(.relations): try decodeRelation(try reader.readLengthDelimitedRange())
            case (1...5, .lengthDelimited): try reader.skip(wireType)
            case (1...5, _): throw wrongWireType("PrimitiveGroup", field, wireType, at: fieldStart)
            default: try reader.skip(wireType)
            }
        }
    }

    // MARK: Tags

    /// Appends one element's tags from packed `keys` and `vals` arrays.
    ///
    /// Static, so that passing a column of `block` inout does not also borrow `self` (which would
    /// copy the whole block and its arrays on every call).
    private static func appendTags(_ data: UnsafeRawBufferPointer, stringCount: Int, keys: Range<Int>?, values: Range<Int>?,
                                   to tags: inout OSMTagColumns) throws {
        if tags.starts.isEmpty { tags.starts.append(0) }
        var k = PackedVarints(data, keys ?? 0..<0)
        var v = PackedVarints(data, values ?? 0..<0)
        let keyCount = k.count(), valueCount = v.count()
        guard keyCount == valueCount else {
            throw OSMPBFBlockFault(.keysValuesMismatch(keys: keyCount, values: valueCount), at: keys?.lowerBound ?? values?.lowerBound)
        }
        for _ in 0..<keyCount {
            let at = k.position
            let key = try k.next(), value = try v.next()
            guard key < UInt64(stringCount), value < UInt64(stringCount) else {
                throw OSMPBFBlockFault(.stringIndexOutOfRange(index: max(key, value), count: stringCount), at: at)
            }
            tags.keys.append(Int32(truncatingIfNeeded: key))
            tags.values.append(Int32(truncatingIfNeeded: value))
        }
        tags.starts.append(Int32(truncatingIfNeeded: tags.keys.count))
    }

    // MARK: Nodes

    /// Node { sint64 id = 1; keys = 2; vals = 3; Info info = 4; sint64 lat = 8; sint64 lon = 9 }.
    private mutating func decodeNode(_ range: Range<Int>) throws {
        var reader = ProtobufReader(data, from: range.lowerBound, to: range.upperBound)
        var id: Int64?, lat: Int64?, lon: Int64?
        var keys: Range<Int>?, values: Range<Int>?
        while true {
            let fieldStart = reader.offset
            guard let (field, wireType) = try reader.nextField() else { break }
            switch (field, wireType) {
            case (1, .varint): id = try reader.readSInt64()
            case (2, .lengthDelimited): keys = try reader.readLengthDelimitedRange()
            case (3, .lengthDelimited): values = try reader.readLengthDelimitedRange()
            case (8, .varint): lat = try reader.readSInt64()
            case (9, .varint): lon = try reader.readSInt64()
            case (1, _), (2, _), (3, _), (8, _), (9, _): throw wrongWireType("Node", field, wireType, at: fieldStart)
            default: try reader.skip(wireType)
            }
        }
        guard let id, let lat, let lon else {
            throw OSMPBFBlockFault(.malformedBlock("a node lacks its id, lat or lon"), at: range.lowerBound)
        }
        let location = try transform.location(lat: lat, lon: lon, at: range.lowerBound)
        block.nodes.ids.append(id)
        block.nodes.locations.append(location)
        if options.tags {
            try Self.appendTags(data, stringCount: block.strings.count, keys: keys, values: values, to: &block.nodes.tags)
        }
    }

    /// DenseNodes { sint64 id = 1 (delta); DenseInfo denseinfo = 5; sint64 lat = 8 (delta);
    /// sint64 lon = 9 (delta); int32 keys_vals = 10 (each node's key/value pairs, then a 0) }.
    private mutating func decodeDense(_ range: Range<Int>) throws {
        var reader = ProtobufReader(data, from: range.lowerBound, to: range.upperBound)
        var idRange: Range<Int>?, latRange: Range<Int>?, lonRange: Range<Int>?, tagRange: Range<Int>?
        while true {
            let fieldStart = reader.offset
            guard let (field, wireType) = try reader.nextField() else { break }
            func take(_ slot: inout Range<Int>?) throws {
                guard wireType == .lengthDelimited else { throw wrongWireType("DenseNodes", field, wireType, at: fieldStart) }
                // Writers emit each packed array once; a split array would need concatenating.
                guard slot == nil else {
                    throw OSMPBFBlockFault(.malformedBlock("DenseNodes field \(field) occurs twice"), at: fieldStart)
                }
                slot = try reader.readLengthDelimitedRange()
            }
            switch field {
            case 1: try take(&idRange)
            case 8: try take(&latRange)
            case 9: try take(&lonRange)
            case 10: try take(&tagRange)
            default: try reader.skip(wireType)
            }
        }
        var ids = PackedVarints(data, idRange ?? 0..<0)
        var lats = PackedVarints(data, latRange ?? 0..<0)
        var lons = PackedVarints(data, lonRange ?? 0..<0)
        let n = ids.count(), latCount = lats.count(), lonCount = lons.count()
        guard n == latCount, n == lonCount else {
            throw OSMPBFBlockFault(.denseArraysMismatch("\(n) ids, \(latCount) lats, \(lonCount) lons"), at: range.lowerBound)
        }
        guard n > 0 else { return }
        let transform = self.transform
        // Decoded into fresh arrays through raw pointers: no capacity or uniqueness checks per node.
        var newIDs = [Int64](repeating: 0, count: n)
        var newLocations = [OSMLocation](repeating: OSMLocation(latitudeE7: 0, longitudeE7: 0), count: n)
        try newIDs.withUnsafeMutableBufferPointer { idOut in
            try newLocations.withUnsafeMutableBufferPointer { locationOut in
                var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
                for i in 0..<n {
                    id &+= try ids.nextSigned()
                    let at = lats.position
                    lat &+= try lats.nextSigned()
                    lon &+= try lons.nextSigned()
                    idOut[i] = id
                    locationOut[i] = try transform.location(lat: lat, lon: lon, at: at)
                }
            }
        }
        if block.nodes.ids.isEmpty {
            block.nodes.ids = newIDs
            block.nodes.locations = newLocations
        } else {
            block.nodes.ids.append(contentsOf: newIDs)
            block.nodes.locations.append(contentsOf: newLocations)
        }
        guard options.tags else { return }
        var tags = block.nodes.tags
        block.nodes.tags = OSMTagColumns()
        defer { block.nodes.tags = tags }
        if tags.starts.isEmpty { tags.starts.append(0) }
        tags.starts.reserveCapacity(tags.starts.count + n)
        guard let tagRange, !tagRange.isEmpty else {
            let end = Int32(truncatingIfNeeded: tags.keys.count)
            tags.starts.append(contentsOf: repeatElement(end, count: n))
            return
        }
        var kv = PackedVarints(data, tagRange)
        let stringCount = UInt64(block.strings.count)
        var nodesDone = 0
        while !kv.isAtEnd {
            let at = kv.position
            let key = try kv.next()
            if key == 0 {
                guard nodesDone < n else {
                    throw OSMPBFBlockFault(.denseArraysMismatch("keys_vals has tags for more than \(n) nodes"), at: at)
                }
                tags.starts.append(Int32(truncatingIfNeeded: tags.keys.count))
                nodesDone += 1
                continue
            }
            guard !kv.isAtEnd else {
                throw OSMPBFBlockFault(.denseArraysMismatch("keys_vals ends after a key, without its value"), at: at)
            }
            let value = try kv.next()
            guard key < stringCount, value < stringCount else {
                throw OSMPBFBlockFault(.stringIndexOutOfRange(index: max(key, value), count: Int(stringCount)), at: at)
            }
            tags.keys.append(Int32(truncatingIfNeeded: key))
            tags.values.append(Int32(truncatingIfNeeded: value))
        }
        guard nodesDone == n else {
            throw OSMPBFBlockFault(.denseArraysMismatch("keys_vals has tags for \(nodesDone) of \(n) nodes"), at: tagRange.lowerBound)
        }
    }

    // MARK: Ways

    /// Way { int64 id = 1; keys = 2; vals = 3; Info info = 4; sint64 refs = 8 (delta);
    /// sint64 lat = 9 / lon = 10 (delta, LocationsOnWays) }.
    private mutating func decodeWay(_ range: Range<Int>) throws {
        var reader = ProtobufReader(data, from: range.lowerBound, to: range.upperBound)
        var id: Int64?
        var keys: Range<Int>?, values: Range<Int>?, refRange: Range<Int>?, latRange: Range<Int>?, lonRange: Range<Int>?
        while true {
            let fieldStart = reader.offset
            guard let (field, wireType) = try reader.nextField() else { break }
            switch (field, wireType) {
            case (1, .varint): id = try reader.readInt64()
            case (2, .lengthDelimited): keys = try reader.readLengthDelimitedRange()
            case (3, .lengthDelimited): values = try reader.readLengthDelimitedRange()
            case (8, .lengthDelimited): refRange = try reader.readLengthDelimitedRange()
            case (9, .lengthDelimited): latRange = try reader.readLengthDelimitedRange()
            case (10, .lengthDelimited): lonRange = try reader.readLengthDelimitedRange()
            case (1, _), (2, _), (3, _), (8, _), (9, _), (10, _): throw wrongWireType("Way", field, wireType, at: fieldStart)
            default: try reader.skip(wireType)
            }
        }
        guard let id else { throw OSMPBFBlockFault(.malformedBlock("a way lacks its id"), at: range.lowerBound) }
        var refs = PackedVarints(data, refRange ?? 0..<0)
        let refCount = refs.count()
        var ref: Int64 = 0
        for _ in 0..<refCount {
            ref &+= try refs.nextSigned()
            block.ways.refs.append(ref)
        }
        if latRange != nil || lonRange != nil {
            var lats = PackedVarints(data, latRange ?? 0..<0), lons = PackedVarints(data, lonRange ?? 0..<0)
            let latCount = lats.count(), lonCount = lons.count()
            guard latCount == refCount, lonCount == refCount else {
                throw OSMPBFBlockFault(.wayLocationsMismatch(refs: refCount, locations: min(latCount, lonCount)), at: range.lowerBound)
            }
            // Earlier ways of the block without locations get none, keeping the arrays parallel.
            let missing = block.ways.refs.count - refCount - block.ways.locations.count
            if missing > 0 {
                block.ways.locations.append(contentsOf: repeatElement(OSMLocation(latitudeE7: 0, longitudeE7: 0), count: missing))
            }
            var lat: Int64 = 0, lon: Int64 = 0
            for _ in 0..<refCount {
                let at = lats.position
                lat &+= try lats.nextSigned()
                lon &+= try lons.nextSigned()
                block.ways.locations.append(try transform.location(lat: lat, lon: lon, at: at))
            }
        } else if !block.ways.locations.isEmpty {
            block.ways.locations.append(contentsOf: repeatElement(OSMLocation(latitudeE7: 0, longitudeE7: 0), count: refCount))
        }
        block.ways.ids.append(id)
        block.ways.refStarts.append(Int32(truncatingIfNeeded: block.ways.refs.count))
        if options.tags {
            try Self.appendTags(data, stringCount: block.strings.count, keys: keys, values: values, to: &block.ways.tags)
        }
    }

    // MARK: Relations

    /// Relation { int64 id = 1; keys = 2; vals = 3; Info info = 4; int32 roles_sid = 8;
    /// sint64 memids = 9 (delta); MemberType types = 10 }.
    private mutating func decodeRelation(_ range: Range<Int>) throws {
        var reader = ProtobufReader(data, from: range.lowerBound, to: range.upperBound)
        var id: Int64?
        var keys: Range<Int>?, values: Range<Int>?, roleRange: Range<Int>?, idRange: Range<Int>?, typeRange: Range<Int>?
        while true {
            let fieldStart = reader.offset
            guard let (field, wireType) = try reader.nextField() else { break }
            switch (field, wireType) {
            case (1, .varint): id = try reader.readInt64()
            case (2, .lengthDelimited): keys = try reader.readLengthDelimitedRange()
            case (3, .lengthDelimited): values = try reader.readLengthDelimitedRange()
            case (8, .lengthDelimited): roleRange = try reader.readLengthDelimitedRange()
            case (9, .lengthDelimited): idRange = try reader.readLengthDelimitedRange()
            case (10, .lengthDelimited): typeRange = try reader.readLengthDelimitedRange()
            case (1, _), (2, _), (3, _), (8, _), (9, _), (10, _): throw wrongWireType("Relation", field, wireType, at: fieldStart)
            default: try reader.skip(wireType)
            }
        }
        guard let id else { throw OSMPBFBlockFault(.malformedBlock("a relation lacks its id"), at: range.lowerBound) }
        var roles = PackedVarints(data, roleRange ?? 0..<0)
        var memberIDs = PackedVarints(data, idRange ?? 0..<0)
        var types = PackedVarints(data, typeRange ?? 0..<0)
        let roleCount = roles.count(), idCount = memberIDs.count(), typeCount = types.count()
        guard roleCount == idCount, idCount == typeCount else {
            throw OSMPBFBlockFault(.memberArraysMismatch(roles: roleCount, ids: idCount, types: typeCount), at: range.lowerBound)
        }
        let stringCount = UInt64(block.strings.count)
        var ref: Int64 = 0
        for _ in 0..<idCount {
            let at = roles.position
            // int32 on the wire: negative values are sign-extended and fail the bounds check.
            let role = try roles.next()
            guard role < stringCount else {
                throw OSMPBFBlockFault(.stringIndexOutOfRange(index: role, count: Int(stringCount)), at: at)
            }
            ref &+= try memberIDs.nextSigned()
            let typeAt = types.position
            let rawType = try types.next()
            guard rawType <= 2, let type = OSMEntityType(rawValue: UInt8(rawType)) else {
                throw OSMPBFBlockFault(.invalidMemberType(rawType), at: typeAt)
            }
            block.relations.memberRoles.append(Int32(truncatingIfNeeded: role))
            block.relations.memberRefs.append(ref)
            block.relations.memberTypes.append(type)
        }
        block.relations.ids.append(id)
        block.relations.memberStarts.append(Int32(truncatingIfNeeded: block.relations.memberRefs.count))
        if options.tags {
            try Self.appendTags(data, stringCount: block.strings.count, keys: keys, values: values, to: &block.relations.tags)
        }
    }
}

// MARK: - Building

/// Makes an ``OSMPrimitiveBlock`` from elements, for sources of blocks other than a PBF file (a
/// store of elements read back in id order): the same columns a decoded block has, with the
/// strings interned in one table.
public struct OSMPrimitiveBlockBuilder {
    private var block = OSMPrimitiveBlock()
    private var stringIndex: [String: Int32] = [:]

    public init() {
        block.nodes.tags.starts = [0]
        block.ways.tags.starts = [0]
        block.relations.tags.starts = [0]
    }

    /// Elements added so far.
    public var count: Int { block.elementCount }

    private mutating func intern(_ string: String) -> Int32 {
        if let index = stringIndex[string] { return index }
        let index = Int32(block.strings.count)
        var utf8 = string
        utf8.withUTF8 { block.strings.append(UnsafeRawBufferPointer($0)) }
        stringIndex[string] = index
        return index
    }

    /// Appends an element's tags to the columns at `columns` (interning the strings first, as
    /// `intern` changes the builder too).
    private mutating func append(_ tags: OSMTags, to columns: WritableKeyPath<OSMPrimitiveBlock, OSMTagColumns>) {
        let keys = tags.map { intern($0.key) }, values = tags.map { intern($0.value) }
        block[keyPath: columns].keys += keys
        block[keyPath: columns].values += values
        block[keyPath: columns].starts.append(Int32(block[keyPath: columns].keys.count))
    }

    public mutating func add(_ node: OSMNode) {
        block.nodes.ids.append(node.id)
        block.nodes.locations.append(node.location)
        append(node.tags, to: \.nodes.tags)
    }

    public mutating func add(_ way: OSMWay) {
        block.ways.ids.append(way.id)
        block.ways.refs.append(contentsOf: way.nodeRefs)
        block.ways.refStarts.append(Int32(block.ways.refs.count))
        append(way.tags, to: \.ways.tags)
    }

    public mutating func add(_ relation: OSMRelation) {
        block.relations.ids.append(relation.id)
        for member in relation.members {
            block.relations.memberTypes.append(member.type)
            block.relations.memberRefs.append(member.ref)
            block.relations.memberRoles.append(intern(member.role))
        }
        block.relations.memberStarts.append(Int32(block.relations.memberTypes.count))
        append(relation.tags, to: \.relations.tags)
    }

    /// The block, numbered and placed as given (`position` is what progress is measured by).
    public func build(sequenceNumber: Int, position: Int) -> OSMPrimitiveBlock {
        var result = block
        result.sequenceNumber = sequenceNumber
        result.blobIndex = sequenceNumber + 1
        result.blobOffset = position
        return result
    }
}

/// Where an import reads its blocks from: a PBF file (``OSMPBFReader``), or anything that can
/// hand over the same blocks, such as a bundle's store of OSM elements being rebuilt from.
public protocol OSMBlockSource {
    /// The file's header (its bounding box and replication state matter to an import).
    var header: OSMPBFHeader { get }
    /// The size progress is measured against: blocks' ``OSMPrimitiveBlock/blobOffset`` run up to it.
    var fileSize: Int { get }
    /// Hands over the blocks holding the kinds `options` asks for, in order: nodes, ways, relations,
    /// each by id in a sorted source.
    func scanBlocks(options: OSMPBFReadOptions, _ body: (OSMPrimitiveBlock) throws -> Void) throws
}

extension OSMPBFReader: OSMBlockSource {
    public func scanBlocks(options: OSMPBFReadOptions, _ body: (OSMPrimitiveBlock) throws -> Void) throws {
        try forEachBlock(options: options, body)
    }
}
