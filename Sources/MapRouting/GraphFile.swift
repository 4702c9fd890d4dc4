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
/// avoid-queries), and the snapping grid (header of 4 Float64: min latitude, min longitude, cell
/// size in degrees, columns; then CSR cells of (edge, segment) pairs).
enum GraphFormat {
    static let magic: [UInt8] = Array("OMKROADG".utf8)
    static let version: UInt32 = 1
    static let headerSize = 24
}

enum GraphSection: Int, CaseIterable {
    case junctionCoordinates, incidentOffsets, incident, edges, geometry, ways, infos, stringOffsets, stringBytes,
         origin, forwardOffsets, forwardArcs, backwardOffsets, backwardArcs, turnOffsets, turnArcs,
         gridHeader, gridOffsets, gridEntries
}

enum WayFlags {
    static let toll: UInt32 = 1, motorway: UInt32 = 2, roundabout: UInt32 = 4, ferry: UInt32 = 8
    static let hasName: UInt32 = 16, hasRef: UInt32 = 32
    /// Parking aisles, driveways, garage entrances (guidance leaves them out of exit counts).
    static let minorService: UInt32 = 64
}

/// The nearest-road index: a regular latitude/longitude grid whose cells list the edge segments
/// crossing them.
struct SpatialGrid {
    var minLatitude = 0.0, minLongitude = 0.0, cellSize = 0.01
    var columns = 1, rows = 1
    var offsets: [UInt32] = [0, 0]
    var entries: [UInt32] = []
}

enum SpatialGridBuilder {
    static func build(_ graph: RoadGraphBuilder.Graph) -> SpatialGrid {
        var grid = SpatialGrid()
        let g = graph.geometry
        guard g.count >= 4 else { return grid }
        var minLat = Int32.max, minLon = Int32.max, maxLat = Int32.min, maxLon = Int32.min
        for i in stride(from: 0, to: g.count, by: 2) {
            minLat = min(minLat, g[i]); maxLat = max(maxLat, g[i])
            minLon = min(minLon, g[i + 1]); maxLon = max(maxLon, g[i + 1])
        }
        grid.minLatitude = Double(minLat) / 1e7
        grid.minLongitude = Double(minLon) / 1e7
        let spanLat = Double(maxLat - minLat) / 1e7, spanLon = Double(maxLon - minLon) / 1e7
        // About 500 m cells, coarser when that would make more than ~4M cells.
        grid.cellSize = max(0.005, sqrt(spanLat * spanLon / 4_000_000))
        grid.columns = Int(spanLon / grid.cellSize) + 1
        grid.rows = Int(spanLat / grid.cellSize) + 1
        let cells = grid.columns * grid.rows
        func cellRange(_ a: Int, _ b: Int) -> (ClosedRange<Int>, ClosedRange<Int>) {
            func row(_ lat: Int32) -> Int { min(grid.rows - 1, max(0, Int((Double(lat) / 1e7 - grid.minLatitude) / grid.cellSize))) }
            func col(_ lon: Int32) -> Int { min(grid.columns - 1, max(0, Int((Double(lon) / 1e7 - grid.minLongitude) / grid.cellSize))) }
            let r0 = row(g[2 * a]), r1 = row(g[2 * b]), c0 = col(g[2 * a + 1]), c1 = col(g[2 * b + 1])
            return (min(r0, r1)...max(r0, r1), min(c0, c1)...max(c0, c1))
        }
        var counts = [UInt32](repeating: 0, count: cells + 1)
        for edge in graph.edges {
            for s in 0..<Int(edge.geometryCount) - 1 {
                let a = Int(edge.geometryStart) + s
                let (rows, cols) = cellRange(a, a + 1)
                for r in rows { for c in cols { counts[r * grid.columns + c + 1] += 1 } }
            }
        }
        for i in 0..<cells { counts[i + 1] += counts[i] }
        var fill = counts
        grid.entries = [UInt32](repeating: 0, count: Int(counts[cells]) * 2)
        for (e, edge) in graph.edges.enumerated() {
            for s in 0..<Int(edge.geometryCount) - 1 {
                let a = Int(edge.geometryStart) + s
                let (rows, cols) = cellRange(a, a + 1)
                for r in rows {
                    for c in cols {
                        let slot = Int(fill[r * grid.columns + c])
                        grid.entries[2 * slot] = UInt32(e)
                        grid.entries[2 * slot + 1] = UInt32(s)
                        fill[r * grid.columns + c] += 1
                    }
                }
            }
        }
        grid.offsets = counts
        return grid
    }
}

enum GraphFileWriter {
    static func encode(mode: TravelMode, graph: RoadGraphBuilder.Graph, ch: ContractedGraph, grid: SpatialGrid) -> Data {
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
        let gridHeader = [grid.minLatitude, grid.minLongitude, grid.cellSize, Double(grid.columns)]

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
        put(.gridOffsets, grid.offsets)
        put(.gridEntries, grid.entries)

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
