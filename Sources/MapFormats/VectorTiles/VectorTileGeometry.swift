// MARK: - Geometry commands

/// Decodes one feature's packed command integers into points, lines or polygons.
///
/// Every command's count is checked against the bytes left before anything is allocated for it,
/// so a count of 2²⁹−1 with no parameters fails at once instead of reserving gigabytes.
struct GeometryDecoder {
    static let moveTo: UInt32 = 1
    static let lineTo: UInt32 = 2
    static let closePath: UInt32 = 7

    let bytes: UnsafeRawBufferPointer
    var offset: Int
    let end: Int
    let layer: Int
    let feature: Int
    var x: Int32 = 0
    var y: Int32 = 0
    /// Repairs made, each reason once.
    var issues: [VectorTile.Issue.Reason] = []

    init(bytes: UnsafeRawBufferPointer, range: Range<Int>, layer: Int, feature: Int) {
        self.bytes = bytes
        offset = range.lowerBound
        end = range.upperBound
        self.layer = layer
        self.feature = feature
    }

    var isAtEnd: Bool { offset >= end }

    /// A varint that must fit `uint32`. Up to five bytes are read inline; longer encodings (which
    /// are legal, if wasteful) go through the protobuf reader.
    @inline(__always)
    private mutating func readUInt32() throws(VectorTileError) -> UInt32 {
        var result: UInt32 = 0
        var shift: UInt32 = 0
        var i = offset
        while i < end && shift < 35 {
            let b = bytes[i]
            i += 1
            if shift == 28 && b & 0x70 != 0 { break }
            result |= UInt32(b & 0x7F) << shift
            if b < 0x80 { offset = i; return result }
            shift += 7
        }
        return try readUInt32Slow()
    }

    @inline(never)
    private mutating func readUInt32Slow() throws(VectorTileError) -> UInt32 {
        let start = offset
        var reader = ProtobufReader(bytes, from: offset, to: end)
        let value = try wrap(reader.readVarint(), layer: layer, feature: feature)
        offset = reader.offset
        guard value <= UInt64(UInt32.max) else {
            throw VectorTileError(.integerOutOfRange(value), at: start, layer: layer, feature: feature)
        }
        return UInt32(value)
    }

    /// The next command integer without consuming it; nil at the end.
    @inline(__always)
    private mutating func peekCommandID() throws(VectorTileError) -> UInt32? {
        guard offset < end else { return nil }
        let save = offset
        let integer = try readUInt32()
        offset = save
        return integer & 7
    }

    /// Reads a command integer; checks that `count` pairs of parameters could follow.
    @inline(__always)
    private mutating func readCommand() throws(VectorTileError) -> (id: UInt32, count: UInt32, at: Int) {
        let at = offset
        let integer = try readUInt32()
        let id = integer & 7, count = integer >> 3
        switch id {
        case Self.moveTo, Self.lineTo:
            // Each parameter is a varint of at least one byte.
            let available = end - offset
            guard UInt64(count) * 2 <= UInt64(available) else {
                throw VectorTileError(.commandCountExceedsData(count: count, available: available), at: at, layer: layer, feature: feature)
            }
        case Self.closePath:
            break
        default:
            throw VectorTileError(.unknownCommand(id: id), at: at, layer: layer, feature: feature)
        }
        return (id, count, at)
    }

    @inline(__always)
    private mutating func readPoint() throws(VectorTileError) -> VectorTile.TilePoint {
        let dx = try readUInt32(), dy = try readUInt32()
        // Zigzag decode in 32 bits; the cursor wraps as int32 arithmetic does in the reference decoders.
        x &+= Int32(bitPattern: (dx >> 1) ^ (0 &- (dx & 1)))
        y &+= Int32(bitPattern: (dy >> 1) ^ (0 &- (dy & 1)))
        return VectorTile.TilePoint(x: x, y: y)
    }

    private func error(_ reason: VectorTileError.Reason, _ at: Int) -> VectorTileError {
        VectorTileError(reason, at: at, layer: layer, feature: feature)
    }

    private mutating func note(_ reason: VectorTile.Issue.Reason) {
        if !issues.contains(reason) { issues.append(reason) }
    }

    /// The command integers of an UNKNOWN-type feature, unchecked beyond their range.
    mutating func rawCommands() throws(VectorTileError) -> [UInt32] {
        var commands: [UInt32] = []
        commands.reserveCapacity(end - offset)
        while !isAtEnd { commands.append(try readUInt32()) }
        return commands
    }

    /// POINT: one or more MoveTo commands (the specification asks for one; several are harmless).
    mutating func points() throws(VectorTileError) -> [VectorTile.TilePoint] {
        var points: [VectorTile.TilePoint] = []
        while !isAtEnd {
            let command = try readCommand()
            guard command.id == Self.moveTo else { throw error(.unexpectedCommand(id: command.id, type: .point), command.at) }
            guard command.count > 0 else { throw error(.invalidCommandCount(id: command.id, count: 0), command.at) }
            reserveGrowing(&points, points.count + Int(command.count))
            for _ in 0..<command.count { points.append(try readPoint()) }
        }
        return points
    }

    /// Reads MoveTo(1) then LineTo(n)s, dropping consecutive repeats; stops before the next
    /// MoveTo or ClosePath. The array is sized by the first LineTo's count (normally the only
    /// one), so a part costs one allocation.
    private mutating func readPart(_ type: VectorTile.GeometryType) throws(VectorTileError) -> [VectorTile.TilePoint] {
        let move = try readCommand()
        guard move.id == Self.moveTo else { throw error(.unexpectedCommand(id: move.id, type: type), move.at) }
        guard move.count == 1 else { throw error(.invalidCommandCount(id: move.id, count: move.count), move.at) }
        var last = try readPoint()
        var part: [VectorTile.TilePoint] = []
        var first = true
        while try peekCommandID() == Self.lineTo {
            let command = try readCommand()
            if first {
                // The count was checked against the bytes left, so this reservation is bounded by the input.
                part.reserveCapacity(Int(command.count) + 1)
                part.append(last)
                first = false
            } else {
                reserveGrowing(&part, part.count + Int(command.count))
            }
            for _ in 0..<command.count {
                let point = try readPoint()
                if point == last { note(.repeatedPoints); continue }
                part.append(point)
                last = point
            }
        }
        if first { part.append(last) }
        return part
    }

    /// LINESTRING: parts of MoveTo(1) + LineTo(n). Repeated points are dropped and lines left
    /// with fewer than two points are removed (both recorded as repairs).
    mutating func lines() throws(VectorTileError) -> [[VectorTile.TilePoint]] {
        var lines: [[VectorTile.TilePoint]] = []
        while !isAtEnd {
            let line = try readPart(.lineString)
            if try peekCommandID() == Self.closePath {
                throw error(.unexpectedCommand(id: Self.closePath, type: .lineString), offset)
            }
            if line.count >= 2 { lines.append(line) } else { note(.degenerateGeometry) }
        }
        return lines
    }

    /// POLYGON: rings of MoveTo(1) + LineTo(n) + ClosePath(1), grouped into polygons by winding:
    /// a ring with the orientation of the first ring starts a polygon, the others are its holes.
    /// Version 2 requires the first ring to be exterior (positive area); a version 2 polygon
    /// whose first ring is negative is read with its orientation flipped and recorded.
    mutating func polygons(version: UInt32) throws(VectorTileError) -> [[[VectorTile.TilePoint]]] {
        var polygons: [[[VectorTile.TilePoint]]] = []
        var exteriorSign = 0
        while !isAtEnd {
            var ring = try readPart(.polygon)
            guard !isAtEnd else { throw error(.unexpectedCommand(id: Self.moveTo, type: .polygon), offset) }
            let close = try readCommand()
            guard close.id == Self.closePath else { throw error(.unexpectedCommand(id: close.id, type: .polygon), close.at) }
            guard close.count == 1 else { throw error(.invalidCommandCount(id: close.id, count: close.count), close.at) }
            if ring.count > 1, ring.last == ring.first { ring.removeLast(); note(.repeatedPoints) }
            let sign = ring.count >= 3 ? VectorTile.windingSign(of: ring) : 0
            if sign == 0 {
                // Whether it was meant as exterior or hole cannot be told without area; it is dropped alone.
                note(.degenerateGeometry)
                continue
            }
            if exteriorSign == 0 {
                exteriorSign = sign
                if sign < 0 && version >= 2 { note(.reversedWinding) }
            }
            if sign == exteriorSign || polygons.isEmpty {
                polygons.append([ring])
            } else {
                polygons[polygons.count - 1].append(ring)
            }
        }
        return polygons
    }
}
