import Foundation
import MapGeometry

/// The mapped file's sections as typed buffers, validated once at open.
struct GraphData: @unchecked Sendable {
    static let maximumSnapDistance = 5_000.0

    let file: MappedFile
    let mode: TravelMode
    let junctionCoordinates: UnsafeBufferPointer<Int32>
    let incidentOffsets: UnsafeBufferPointer<UInt32>
    let incident: UnsafeBufferPointer<UInt32>
    let edges: UnsafeBufferPointer<UInt32>
    let geometry: UnsafeBufferPointer<Int32>
    let ways: UnsafeBufferPointer<UInt32>
    let infos: UnsafeBufferPointer<UInt32>
    let stringOffsets: UnsafeBufferPointer<UInt32>
    let stringBytes: UnsafeBufferPointer<UInt8>
    let origin: UnsafeBufferPointer<UInt32>
    let forwardOffsets: UnsafeBufferPointer<UInt32>
    let forwardArcs: UnsafeBufferPointer<UInt32>
    let backwardOffsets: UnsafeBufferPointer<UInt32>
    let backwardArcs: UnsafeBufferPointer<UInt32>
    let turnOffsets: UnsafeBufferPointer<UInt32>
    let turnArcs: UnsafeBufferPointer<UInt32>
    let gridCellSize: Double
    let gridKeys: UnsafeBufferPointer<UInt64>
    let gridOffsets: UnsafeBufferPointer<UInt32>
    let gridEntries: UnsafeBufferPointer<UInt32>
    let gridSlots: UnsafeBufferPointer<UInt32>
    let gridShift: UInt64
    /// Per graph node (weight, middle): its cheapest cycle through lower-ranked nodes.
    let loops: UnsafeBufferPointer<UInt32>
    /// For the next build only (see `RoadGraphBuilder.previousOrder`); queries never read them.
    let nodeKeys: UnsafeBufferPointer<UInt64>
    let nodeRanks: UnsafeBufferPointer<UInt32>
    let chordOffsets: UnsafeBufferPointer<UInt32>
    let chordTargets: UnsafeBufferPointer<UInt32>

    var edgeCount: Int { edges.count / 8 }
    var nodeCount: Int { origin.count }
    var junctionCount: Int { junctionCoordinates.count / 2 }

    init(file: MappedFile, path: String) throws(RoutingError) {
        self.file = file
        let base = file.base
        func fail(_ message: String) -> RoutingError { .corrupt("\(path): \(message); re-import the bundle") }
        guard Array(UnsafeRawBufferPointer(start: base, count: 8)) == GraphFormat.magic else { throw fail("not a road graph file") }
        let version = base.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
        guard version == GraphFormat.version else {
            throw RoutingError.incompatibleVersion("\(path) has graph format version \(version), this build reads version "
                                                  + "\(GraphFormat.version); re-import the bundle with this version of `openmapkit import`")
        }
        let modeIndex = Int(base.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        guard let mode = TravelMode.allCases.first(where: { $0.index == modeIndex }) else { throw fail("unknown travel mode \(modeIndex)") }
        self.mode = mode
        let sectionCount = Int(base.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian)
        guard sectionCount == GraphSection.allCases.count, GraphFormat.headerSize + sectionCount * 16 <= file.count else {
            throw fail("\(sectionCount) sections, expected \(GraphSection.allCases.count)")
        }
        func section<T>(_ s: GraphSection, _ type: T.Type) throws(RoutingError) -> UnsafeBufferPointer<T> {
            let entry = GraphFormat.headerSize + s.rawValue * 16
            let offset = base.loadUnaligned(fromByteOffset: entry, as: UInt64.self).littleEndian
            let length = base.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self).littleEndian
            guard offset % 8 == 0, length % UInt64(MemoryLayout<T>.stride) == 0, offset <= UInt64(file.count),
                  length <= UInt64(file.count) - offset else {
                throw fail("section \(s) (\(offset)+\(length)) lies outside the \(file.count)-byte file")
            }
            return UnsafeBufferPointer(start: (base + Int(offset)).assumingMemoryBound(to: T.self), count: Int(length) / MemoryLayout<T>.stride)
        }
        junctionCoordinates = try section(.junctionCoordinates, Int32.self)
        incidentOffsets = try section(.incidentOffsets, UInt32.self)
        incident = try section(.incident, UInt32.self)
        edges = try section(.edges, UInt32.self)
        geometry = try section(.geometry, Int32.self)
        ways = try section(.ways, UInt32.self)
        infos = try section(.infos, UInt32.self)
        stringOffsets = try section(.stringOffsets, UInt32.self)
        stringBytes = try section(.stringBytes, UInt8.self)
        origin = try section(.origin, UInt32.self)
        forwardOffsets = try section(.forwardOffsets, UInt32.self)
        forwardArcs = try section(.forwardArcs, UInt32.self)
        backwardOffsets = try section(.backwardOffsets, UInt32.self)
        backwardArcs = try section(.backwardArcs, UInt32.self)
        turnOffsets = try section(.turnOffsets, UInt32.self)
        turnArcs = try section(.turnArcs, UInt32.self)
        let header = try section(.gridHeader, Double.self)
        gridKeys = try section(.gridKeys, UInt64.self)
        gridOffsets = try section(.gridOffsets, UInt32.self)
        gridEntries = try section(.gridEntries, UInt32.self)
        gridSlots = try section(.gridSlots, UInt32.self)
        loops = try section(.loops, UInt32.self)
        nodeKeys = try section(.nodeKeys, UInt64.self)
        nodeRanks = try section(.nodeRanks, UInt32.self)
        chordOffsets = try section(.chordOffsets, UInt32.self)
        chordTargets = try section(.chordTargets, UInt32.self)
        guard header.count == 1, header[0] >= 1e-4, header[0] <= 10 else { throw fail("bad grid header") }
        gridCellSize = header[0]
        // A power of two with at least one empty slot, so every probe sequence ends.
        guard gridSlots.count >= 2, gridSlots.count & (gridSlots.count - 1) == 0, gridSlots.count > gridKeys.count else {
            throw fail("grid table has the wrong size")
        }
        gridShift = SpatialGrid.shift(slotCount: gridSlots.count)

        // Counts that must agree, then every index the queries follow.
        let junctions = junctionCoordinates.count / 2, edgeCount = edges.count / 8, points = geometry.count / 2
        let wayCount = ways.count / 4, infoCount = infos.count / 4, strings = stringOffsets.count - 1
        let nodes = origin.count
        guard junctionCoordinates.count % 2 == 0, edges.count % 8 == 0, geometry.count % 2 == 0, ways.count % 4 == 0,
              infos.count % 4 == 0, strings >= 0, forwardArcs.count % 3 == 0, backwardArcs.count % 3 == 0, turnArcs.count % 2 == 0,
              gridEntries.count % 2 == 0, nodes >= edgeCount * 2 else { throw fail("section sizes do not fit together") }
        func csr(_ offsets: UnsafeBufferPointer<UInt32>, rows: Int, items: Int, _ name: String) throws(RoutingError) {
            guard offsets.count == rows + 1, offsets[0] == 0, Int(offsets[rows]) == items else { throw fail("\(name) index has the wrong size") }
            var previous: UInt32 = 0
            for value in offsets {
                guard value >= previous else { throw fail("\(name) index is not ascending") }
                previous = value
            }
        }
        try csr(incidentOffsets, rows: junctions, items: incident.count, "junction")
        try csr(stringOffsets, rows: strings, items: stringBytes.count, "string")
        try csr(forwardOffsets, rows: nodes, items: forwardArcs.count / 3, "forward arc")
        try csr(backwardOffsets, rows: nodes, items: backwardArcs.count / 3, "backward arc")
        try csr(turnOffsets, rows: nodes, items: turnArcs.count / 2, "turn")
        try csr(gridOffsets, rows: gridKeys.count, items: gridEntries.count / 2, "grid")
        try csr(chordOffsets, rows: nodes, items: chordTargets.count, "chordal arc")
        for k in stride(from: 0, to: loops.count, by: 2) where loops[k + 1] != .max && Int(loops[k + 1]) >= nodes {
            throw fail("loop \(k / 2) is out of range")
        }
        guard nodeKeys.count == nodes, nodeRanks.count == nodes, loops.count == 2 * nodes else { throw fail("node keys or ranks have the wrong size") }
        // The ranks are a permutation, and every chordal arc leads upwards within the graph.
        var ranked = [Bool](repeating: false, count: nodes)
        for r in nodeRanks {
            guard Int(r) < nodes, !ranked[Int(r)] else { throw fail("node ranks are not a permutation") }
            ranked[Int(r)] = true
        }
        for r in 0..<nodes {
            var previous = UInt32(r)
            for k in Int(chordOffsets[r])..<Int(chordOffsets[r + 1]) {
                guard chordTargets[k] > previous, Int(chordTargets[k]) < nodes else { throw fail("chordal arc \(k) is out of order") }
                previous = chordTargets[k]
            }
        }
        for i in gridKeys.indices.dropFirst() where gridKeys[i] <= gridKeys[i - 1] { throw fail("grid cells are not in ascending order") }
        for slot in gridSlots where Int(slot) > gridKeys.count { throw fail("grid table names a missing cell") }
        for code in incident where Int(code >> 1) >= edgeCount { throw fail("junction lists a missing edge") }
        for e in 0..<edgeCount {
            let b = e * 8
            let length = Float(bitPattern: edges[b + 7])
            guard Int(edges[b]) < junctions, Int(edges[b + 1]) < junctions, edges[b + 3] >= 2, length.isFinite, length >= 0,
                  Int(edges[b + 2]) + Int(edges[b + 3]) <= points, Int(edges[b + 4]) < wayCount else { throw fail("edge \(e) is out of range") }
        }
        for w in 0..<wayCount where Int(ways[w * 4]) >= infoCount { throw fail("way \(w) has no attributes") }
        for i in 0..<infoCount {
            guard Int(infos[i * 4]) < max(strings, 1), Int(infos[i * 4 + 1]) < max(strings, 1), Int(infos[i * 4 + 2]) < max(strings, 1) else {
                throw fail("way attributes \(i) name a missing string")
            }
        }
        guard strings > 0 || infoCount == 0 else { throw fail("no strings") }
        for (i, o) in origin.enumerated() where Int(o) >= edgeCount * 2 || (i < edgeCount * 2 && Int(o) != i) { throw fail("graph node \(i) is out of range") }
        for arcs in [forwardArcs, backwardArcs] {
            for k in stride(from: 0, to: arcs.count, by: 3) where Int(arcs[k]) >= nodes || (arcs[k + 2] != .max && Int(arcs[k + 2]) >= nodes) {
                throw fail("arc \(k / 3) is out of range")
            }
        }
        for k in stride(from: 0, to: turnArcs.count, by: 2) where Int(turnArcs[k]) >= nodes { throw fail("turn \(k / 2) is out of range") }
        for k in stride(from: 0, to: gridEntries.count, by: 2) {
            let e = Int(gridEntries[k])
            guard e < edgeCount, gridEntries[k + 1] < edges[e * 8 + 3] - 1 else { throw fail("grid entry \(k / 2) is out of range") }
        }
    }

    // MARK: - Accessors

    struct Edge {
        var from: Int, to: Int, geometryStart: Int, geometryCount: Int, way: Int
        var forwardMs: UInt32, backwardMs: UInt32, length: Double
    }

    @inline(__always) func edge(_ e: Int) -> Edge {
        let b = e * 8
        return Edge(from: Int(edges[b]), to: Int(edges[b + 1]), geometryStart: Int(edges[b + 2]), geometryCount: Int(edges[b + 3]),
                    way: Int(edges[b + 4]), forwardMs: edges[b + 5], backwardMs: edges[b + 6],
                    length: Double(Float(bitPattern: edges[b + 7])))
    }

    /// The time to traverse graph node `node` (a directed edge) fully, in ms; UInt32.max when closed.
    @inline(__always) func weight(ofNode node: Int) -> UInt32 {
        let o = Int(origin[node])
        return edges[(o >> 1) * 8 + 5 + (o & 1)]
    }

    @inline(__always) func point(_ i: Int) -> CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: Double(geometry[2 * i]) / 1e7, longitude: Double(geometry[2 * i + 1]) / 1e7)
    }

    func string(_ i: Int) -> String {
        let range = Int(stringOffsets[i])..<Int(stringOffsets[i + 1])
        return String(decoding: UnsafeBufferPointer(rebasing: stringBytes[range]), as: UTF8.self)
    }

    struct Info {
        var name: String?
        var ref: String?
        var roadClass: String
        var flags: UInt32
    }

    func info(ofEdge e: Int) -> Info {
        let way = Int(edges[e * 8 + 4])
        let i = Int(ways[way * 4]) * 4
        let flags = infos[i + 3]
        return Info(name: flags & WayFlags.hasName != 0 ? string(Int(infos[i])) : nil,
                    ref: flags & WayFlags.hasRef != 0 ? string(Int(infos[i + 1])) : nil,
                    roadClass: string(Int(infos[i + 2])), flags: flags)
    }

    @inline(__always) func flags(ofEdge e: Int) -> UInt32 {
        infos[Int(ways[Int(edges[e * 8 + 4]) * 4]) * 4 + 3]
    }

    @inline(__always) func wayID(ofEdge e: Int) -> Int64 {
        let w = Int(edges[e * 8 + 4]) * 4
        return Int64(bitPattern: UInt64(ways[w + 2]) | UInt64(ways[w + 3]) << 32)
    }

    // MARK: - Snapping

    /// The entries of the grid cell with `key` (empty when no road crosses it).
    @inline(__always) func gridCell(_ key: UInt64) -> Range<Int> {
        let mask = gridSlots.count - 1
        var h = SpatialGrid.slot(of: key, shift: gridShift)
        // Bounded although a validated table always has an empty slot.
        for _ in 0..<gridSlots.count {
            let cell = Int(gridSlots[h])
            if cell == 0 { break }
            if gridKeys[cell - 1] == key { return Int(gridOffsets[cell - 1])..<Int(gridOffsets[cell]) }
            h = (h + 1) & mask
        }
        return 0..<0
    }

    /// The nearest point on any edge within `maximumSnapDistance`, searching grid rings outwards
    /// until everything not yet searched lies farther than the best so far.
    func nearest(_ c: CLLocationCoordinate2D, accepting accept: ((Int) -> Bool)? = nil) -> Snap? {
        guard edgeCount > 0 else { return nil }
        let metresPerDegree = 111_195.0
        let scale = cos(c.latitude * .pi / 180)
        let (y, x) = SpatialGrid.position(latitude: c.latitude, longitude: c.longitude, cellSize: gridCellSize)
        let row = Int(floor(y)), col = Int(floor(x))
        // Within ~6° of a pole a column is so narrow that 5 km spans thousands of them: the search
        // takes columns as at least a tenth of a row wide there, so it stays cheap and may stop
        // before the nearest road (hardly any roads run there).
        let rowMetres = gridCellSize * metresPerDegree, columnMetres = rowMetres * max(scale, 0.1)
        // Rings 0..<k cover the query's cell widened by k − 1 cells each way: anything outside is
        // at least the distance to the nearest side of its own cell plus k − 1 cells away.
        let inside = min((y - Double(row)) * rowMetres, (Double(row + 1) - y) * rowMetres,
                         (x - Double(col)) * columnMetres, (Double(col + 1) - x) * columnMetres)
        let step = min(rowMetres, columnMetres)
        let maxRing = Int(Self.maximumSnapDistance / step) + 2
        var best: (edge: Int, segment: Int, t: Double, distance: Double)? = nil
        @inline(__always) func scan(_ r: Int, _ cc: Int) {
            guard r >= 0, cc >= 0 else { return }
            for k in gridCell(SpatialGrid.key(row: r, column: cc)) {
                let e = Int(gridEntries[2 * k]), s = Int(gridEntries[2 * k + 1])
                if let accept, !accept(e) { continue }
                let start = Int(edges[e * 8 + 2]) + s
                let ay = Double(geometry[2 * start]) / 1e7, ax = Double(geometry[2 * start + 1]) / 1e7
                let by = Double(geometry[2 * start + 2]) / 1e7, bx = Double(geometry[2 * start + 3]) / 1e7
                // Local plane in metres around the query.
                let px = (c.longitude - ax) * scale, py = c.latitude - ay
                let dx = (bx - ax) * scale, dy = by - ay
                let len2 = dx * dx + dy * dy
                let t = len2 > 0 ? min(1, max(0, (px * dx + py * dy) / len2)) : 0
                let qx = px - t * dx, qy = py - t * dy
                let d = sqrt(qx * qx + qy * qy) * metresPerDegree
                // Equally near (two ways sharing a stretch): the later edge, so the choice does not
                // hang on which cell or ring met it first (OSRM's destination scenario ends on the later way).
                if best == nil || d < best!.distance || (d == best!.distance && e > best!.edge) { best = (e, s, t, d) }
            }
        }
        for ring in 0...maxRing {
            if ring > 0 {
                let unsearched = inside + Double(ring - 1) * step
                if unsearched > Self.maximumSnapDistance { break }
                if let found = best, found.distance <= unsearched { break }
            }
            if ring == 0 { scan(row, col); continue }
            let r0 = row - ring, r1 = row + ring, c0 = col - ring, c1 = col + ring
            for cc in c0...c1 { scan(r0, cc); scan(r1, cc) }
            for r in (r0 + 1)..<r1 { scan(r, c0); scan(r, c1) }
        }
        guard let found = best, found.distance <= Self.maximumSnapDistance else { return nil }
        let e = edge(found.edge)
        var offset = 0.0
        for s in 0..<found.segment {
            offset += metresE7(geometry[2 * (e.geometryStart + s)], geometry[2 * (e.geometryStart + s) + 1],
                               geometry[2 * (e.geometryStart + s + 1)], geometry[2 * (e.geometryStart + s + 1) + 1])
        }
        let a = e.geometryStart + found.segment
        let segmentLength = metresE7(geometry[2 * a], geometry[2 * a + 1], geometry[2 * a + 2], geometry[2 * a + 3])
        offset += segmentLength * found.t
        let pa = point(a), pb = point(a + 1)
        let snapped = CLLocationCoordinate2D(latitude: pa.latitude + (pb.latitude - pa.latitude) * found.t,
                                             longitude: pa.longitude + (pb.longitude - pa.longitude) * found.t)
        let fraction = e.length > 0 ? min(1, max(0, offset / e.length)) : 0
        // The segment's direction on a local plane (east scaled by the latitude's cosine).
        let east = (pb.longitude - pa.longitude) * cos(pa.latitude * .pi / 180), north = pb.latitude - pa.latitude
        let bearing = east == 0 && north == 0 ? nil : (atan2(east, north) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        return Snap(edge: found.edge, offset: offset, fraction: fraction, point: snapped, distance: found.distance, bearing: bearing)
    }
}

extension GraphData {
    /// Each edge's weakly connected component (junctions joined by edges open in either
    /// direction), and each component's edge count.
    func components() -> (ofEdge: [UInt32], size: [Int]) {
        var label = [UInt32](repeating: .max, count: junctionCount)
        var sizes: [Int] = []
        var stack: [Int] = []
        for start in 0..<junctionCount where label[start] == .max {
            let id = UInt32(sizes.count)
            label[start] = id
            stack.append(start)
            var edgesSeen = 0
            while let j = stack.popLast() {
                for k in Int(incidentOffsets[j])..<Int(incidentOffsets[j + 1]) {
                    let code = Int(incident[k])
                    let e = edge(code >> 1)
                    let other = code & 1 == 0 ? e.to : e.from
                    edgesSeen += 1
                    if label[other] == .max {
                        label[other] = id
                        stack.append(other)
                    }
                }
            }
            sizes.append(edgesSeen / 2)
        }
        let ofEdge = (0..<edgeCount).map { label[edge($0).from] }
        return (ofEdge, sizes)
    }
}
