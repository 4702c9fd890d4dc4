import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The graph file's layout. All numbers little-endian (the byte order of every platform Swift
/// runs on; the reader maps the arrays in place):
///
///     0   magic "OMKROADG" (8 bytes)
///     8   UInt32 version, UInt32 mode (TravelMode index), UInt32 section count, UInt32 reserved
///     24  section table: per section UInt64 byte offset, UInt64 byte length
///     ... sections, each 8-byte aligned
///
/// Sections (see `GraphSection`): junction coordinates (Int32 lat/lon E7 pairs), junction →
/// incident edge ends (CSR), edges (8 UInt32 each: from, to, geometry start, geometry count, way,
/// forward ms, backward ms, length as Float bits), edge geometry (Int32 E7 pairs), ways (4 UInt32:
/// info, reserved, id low, id high), way infos (4 UInt32: name string, ref string, class string,
/// flags), string offsets and bytes, graph node origins (graph node → edge*2+direction), the
/// contraction hierarchy's upward forward and backward arcs (CSR, (target, weight ms, middle)
/// triples), the turn arcs of the uncontracted graph (CSR, (target, weight) pairs; used by
/// avoid-queries), and the sparse snapping grid (see `SpatialGrid`): one Float64 (cell size in
/// degrees), the UInt64 cell keys (row << 32 | column, counted from −90°/−180°, ascending), CSR
/// offsets and (edge, segment) UInt32 pairs per cell, and the UInt32 hash slots (cell index + 1).
/// The customizable hierarchy's loops: per graph node (weight, middle), the cheapest way round
/// back to itself through lower-ranked nodes (UInt32.max: none). Then what the next build reuses (see ``RoadGraphBuilder``): each graph node's UInt64 key, its
/// UInt32 rank in the customizable hierarchy's order, and the chordal graph in rank space (CSR:
/// per rank its higher-ranked neighbours, ascending).
enum GraphFormat {
    static let magic: [UInt8] = Array("OMKROADG".utf8)
    /// 2: the sparse snapping grid (version 1 had a dense one). 3: a customizable contraction
    /// hierarchy, with node keys, ranks and the chordal graph for updates.
    static let version: UInt32 = 3
    static let headerSize = 24
}

enum GraphSection: Int, CaseIterable {
    case junctionCoordinates, incidentOffsets, incident, edges, geometry, ways, infos, stringOffsets, stringBytes,
         origin, forwardOffsets, forwardArcs, backwardOffsets, backwardArcs, turnOffsets, turnArcs,
         gridHeader, gridKeys, gridOffsets, gridEntries, gridSlots,
         loops, nodeKeys, nodeRanks, chordOffsets, chordTargets
}

enum WayFlags {
    static let toll: UInt32 = 1, motorway: UInt32 = 2, roundabout: UInt32 = 4, ferry: UInt32 = 8
    static let hasName: UInt32 = 16, hasRef: UInt32 = 32
    /// Parking aisles, driveways, garage entrances (guidance leaves them out of exit counts).
    static let minorService: UInt32 = 64
}

/// The nearest-road index: a sparse latitude/longitude grid of fixed square cells (in degrees)
/// counted from (−90°, −180°), so only cells that hold road cost space, however far apart an
/// extract's parts lie (Liechtenstein's PBF also carries part of Alabama: a dense grid over both
/// needs 2 km cells or tens of millions of them). Cells are stored in ascending key order with
/// their (edge, segment) entries in CSR form; an open-addressing table (linear probing, a power of
/// two at least twice the cell count) finds a cell in about one probe.
struct SpatialGrid {
    /// Cell side in degrees: 0.0025° is ~280 m north–south, ~190 m east–west at 47° N.
    static let defaultCellSize = 0.0025
    var cellSize = SpatialGrid.defaultCellSize
    /// Cell keys (`key(row:column:)`), strictly ascending.
    var keys: [UInt64] = []
    /// Cell i's entries are `offsets[i]..<offsets[i + 1]`.
    var offsets: [UInt32] = [0]
    /// (edge, segment) pairs.
    var entries: [UInt32] = []
    /// Open-addressing table: cell index + 1, 0 = empty.
    var slots: [UInt32] = [0, 0]

    @inline(__always) static func key(row: Int, column: Int) -> UInt64 { UInt64(UInt32(truncatingIfNeeded: row)) << 32 | UInt64(UInt32(truncatingIfNeeded: column)) }

    /// Fibonacci hashing: the top `64 - shift` bits of key × 2⁶⁴/φ.
    @inline(__always) static func slot(of key: UInt64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// `64 - log2(slots)` for a power-of-two slot count.
    static func shift(slotCount: Int) -> UInt64 { UInt64(64 - slotCount.trailingZeroBitCount) }

    /// Row and column (fractional) of a coordinate, in cells from (−90°, −180°).
    @inline(__always) static func position(latitude: Double, longitude: Double, cellSize: Double) -> (y: Double, x: Double) {
        ((latitude + 90) / cellSize, (longitude + 180) / cellSize)
    }
}

enum SpatialGridBuilder {
    static func build(_ graph: RoadGraphBuilder.Graph, cellSize: Double = SpatialGrid.defaultCellSize) -> SpatialGrid {
        var grid = SpatialGrid()
        grid.cellSize = cellSize
        let g = graph.geometry
        var items: [(key: UInt64, edge: UInt32, segment: UInt32)] = []
        items.reserveCapacity(g.count)
        for (e, edge) in graph.edges.enumerated() {
            for s in 0..<Int(edge.geometryCount) - 1 {
                let a = Int(edge.geometryStart) + s
                forEachCell(Double(g[2 * a]) / 1e7, Double(g[2 * a + 1]) / 1e7, Double(g[2 * a + 2]) / 1e7, Double(g[2 * a + 3]) / 1e7,
                            cellSize: cellSize) { items.append(($0, UInt32(e), UInt32(s))) }
            }
        }
        items.sort { ($0.key, $0.edge, $0.segment) < ($1.key, $1.edge, $1.segment) }
        grid.keys.reserveCapacity(items.count / 4)
        grid.entries.reserveCapacity(items.count * 2)
        for item in items {
            if grid.keys.last != item.key {
                if !grid.keys.isEmpty { grid.offsets.append(UInt32(grid.entries.count / 2)) }
                grid.keys.append(item.key)
            }
            grid.entries.append(item.edge)
            grid.entries.append(item.segment)
        }
        if !grid.keys.isEmpty { grid.offsets.append(UInt32(grid.entries.count / 2)) }
        var slotCount = 2
        while slotCount < 2 * grid.keys.count { slotCount *= 2 }
        grid.slots = [UInt32](repeating: 0, count: slotCount)
        let shift = SpatialGrid.shift(slotCount: slotCount), mask = slotCount - 1
        for (i, key) in grid.keys.enumerated() {
            var h = SpatialGrid.slot(of: key, shift: shift)
            while grid.slots[h] != 0 { h = (h + 1) & mask }
            grid.slots[h] = UInt32(i + 1)
        }
        return grid
    }

    /// Every cell the segment passes through: per row of cells, the columns of the part of the
    /// segment inside that row (widened by a hair against rounding), so a long diagonal segment
    /// costs the cells along it rather than its whole bounding box.
    static func forEachCell(_ latA: Double, _ lonA: Double, _ latB: Double, _ lonB: Double, cellSize: Double, _ body: (UInt64) -> Void) {
        let (ya, xa) = SpatialGrid.position(latitude: latA, longitude: lonA, cellSize: cellSize)
        let (yb, xb) = SpatialGrid.position(latitude: latB, longitude: lonB, cellSize: cellSize)
        let r0 = Int(floor(min(ya, yb))), r1 = Int(floor(max(ya, yb)))
        for r in max(r0, 0)...max(r1, 0) {
            var x0 = min(xa, xb), x1 = max(xa, xb)
            if r0 != r1 {
                let lo = max(Double(r), min(ya, yb)), hi = min(Double(r + 1), max(ya, yb))
                let xlo = xa + (xb - xa) * ((lo - ya) / (yb - ya)), xhi = xa + (xb - xa) * ((hi - ya) / (yb - ya))
                x0 = min(xlo, xhi); x1 = max(xlo, xhi)
            }
            let c0 = max(Int(floor(x0 - 1e-7)), 0), c1 = max(Int(floor(x1 + 1e-7)), 0)
            for c in c0...c1 { body(SpatialGrid.key(row: r, column: c)) }
        }
    }
}

enum GraphFileWriter {
    static func encode(mode: TravelMode, graph: RoadGraphBuilder.Graph, ch: ContractedGraph, chordal: ChordalGraph, grid: SpatialGrid) -> Data {
        // Strings.
        var strings: [String: UInt32] = [:]
        var stringOffsets: [UInt32] = [0]
        var stringBytes: [UInt8] = []
        func intern(_ s: String?) -> UInt32 {
            guard let s else { return 0 }
            if let i = strings[s] { return i }
            let i = UInt32(stringOffsets.count - 1)
            stringBytes += Array(s.utf8)
            stringOffsets.append(UInt32(stringBytes.count))
            strings[s] = i
            return i
        }
        var infos: [UInt32] = []
        for info in graph.infos {
            var flags: UInt32 = 0
            if info.isToll { flags |= WayFlags.toll }
            if info.isMotorway { flags |= WayFlags.motorway }
            if info.isRoundabout { flags |= WayFlags.roundabout }
            if info.isFerry { flags |= WayFlags.ferry }
            if info.isMinorService { flags |= WayFlags.minorService }
            if info.name != nil { flags |= WayFlags.hasName }
            if info.ref != nil { flags |= WayFlags.hasRef }
            infos += [intern(info.name), intern(info.ref), intern(info.roadClass), flags]
        }
        if infos.isEmpty { _ = intern("") }
        var ways: [UInt32] = []
        ways.reserveCapacity(graph.ways.count * 4)
        for way in graph.ways {
            let id = UInt64(bitPattern: way.id)
            ways += [UInt32(way.info), 0, UInt32(truncatingIfNeeded: id), UInt32(truncatingIfNeeded: id >> 32)]
        }
        var edges: [UInt32] = []
        edges.reserveCapacity(graph.edges.count * 8)
        for e in graph.edges {
            edges += [e.from, e.to, e.geometryStart, e.geometryCount, e.way, e.forwardMs, e.backwardMs, e.length.bitPattern]
        }
        var turnArcs: [UInt32] = []
        turnArcs.reserveCapacity(graph.turnTargets.count * 2)
        for i in 0..<graph.turnTargets.count { turnArcs += [graph.turnTargets[i], graph.turnWeights[i]] }
        let gridHeader = [grid.cellSize]

        var sections: [Data] = Array(repeating: Data(), count: GraphSection.allCases.count)
        func put<T>(_ s: GraphSection, _ array: [T]) {
            sections[s.rawValue] = array.withUnsafeBytes { Data($0) }
        }
        put(.junctionCoordinates, graph.junctionCoordinates)
        put(.incidentOffsets, graph.incidentOffsets)
        put(.incident, graph.incident)
        put(.edges, edges)
        put(.geometry, graph.geometry)
        put(.ways, ways)
        put(.infos, infos)
        put(.stringOffsets, stringOffsets)
        put(.stringBytes, stringBytes)
        put(.origin, graph.origin)
        put(.forwardOffsets, ch.forwardOffsets)
        put(.forwardArcs, ch.forwardArcs)
        put(.backwardOffsets, ch.backwardOffsets)
        put(.backwardArcs, ch.backwardArcs)
        put(.turnOffsets, graph.turnOffsets)
        put(.turnArcs, turnArcs)
        put(.gridHeader, gridHeader)
        put(.gridKeys, grid.keys)
        put(.gridOffsets, grid.offsets)
        put(.gridEntries, grid.entries)
        put(.gridSlots, grid.slots)
        put(.loops, ch.loops)
        put(.nodeKeys, graph.nodeKeys)
        put(.nodeRanks, chordal.rank)
        put(.chordOffsets, chordal.offsets)
        put(.chordTargets, chordal.targets)

        var out = Data()
        out += GraphFormat.magic
        func append32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func append64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        append32(GraphFormat.version)
        append32(UInt32(mode.index))
        append32(UInt32(sections.count))
        append32(0)
        var offset = GraphFormat.headerSize + sections.count * 16
        for section in sections {
            offset = (offset + 7) & ~7
            append64(UInt64(offset))
            append64(UInt64(section.count))
            offset += section.count
        }
        for section in sections {
            while out.count % 8 != 0 { out.append(0) }
            out += section
        }
        return out
    }
}

/// A read-only memory mapping of a file, unmapped when released.
final class MappedFile: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int

    init(url: URL) throws(RoutingError) {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw errno == ENOENT ? RoutingError.missingGraph("\(url.path) does not exist; re-import the bundle")
                                  : RoutingError.corrupt("\(url.path): cannot open (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw RoutingError.corrupt("\(url.path): cannot stat") }
        count = Int(info.st_size)
        guard count >= GraphFormat.headerSize else { throw RoutingError.corrupt("\(url.path): \(count) bytes is too short for a road graph") }
        guard let pointer = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), pointer != MAP_FAILED else {
            throw RoutingError.corrupt("\(url.path): cannot map (\(String(cString: strerror(errno))))")
        }
        base = UnsafeRawPointer(pointer)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), count) }
}
