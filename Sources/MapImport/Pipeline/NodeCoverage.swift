import MapBundle
import MapFormats

/// Where an extract's nodes lie, for an extract whose header gives no box: one box around each
/// part of the data that stands apart from the rest.
///
/// One box around every node is right for a single region, but an extract can join regions far
/// apart (a country and a county on another continent, as merged extracts do), and a box around
/// both would claim the ocean between them as data. So the nodes are counted on a grid of cells
/// 360/256° wide and 180/256° high (about 150 by 80 km at the equator): cells that touch (sides
/// or corners) form one part, and each part gets the box around its own nodes. The grid costs a
/// fixed megabyte and one array update per node, whatever the extract's size.
struct NodeCoverage {
    /// Cells across and down.
    static let side = 256
    /// Per cell: the least and greatest latitude and longitude (E7) of its nodes; an empty cell's
    /// least is above its greatest.
    private var minLat: [Int32], minLon: [Int32], maxLat: [Int32], maxLon: [Int32]
    /// Per cell: how many nodes.
    private var nodes: [Int]
    private(set) var isEmpty = true

    init() {
        let count = Self.side * Self.side
        (minLat, minLon, maxLat, maxLon) = (Array(repeating: .max, count: count), Array(repeating: .max, count: count),
                                            Array(repeating: .min, count: count), Array(repeating: .min, count: count))
        nodes = Array(repeating: 0, count: count)
    }

    private static func cell(_ location: OSMLocation) -> Int {
        let side = Int64(Self.side)
        let x = min(max((Int64(location.longitudeE7) + 1_800_000_000) * side / 3_600_000_000, 0), side - 1)
        let y = min(max((900_000_000 - Int64(location.latitudeE7)) * side / 1_800_000_000, 0), side - 1)
        return Int(y * side + x)
    }

    mutating func add(_ location: OSMLocation) {
        let i = Self.cell(location)
        minLat[i] = min(minLat[i], location.latitudeE7)
        maxLat[i] = max(maxLat[i], location.latitudeE7)
        minLon[i] = min(minLon[i], location.longitudeE7)
        maxLon[i] = max(maxLon[i], location.longitudeE7)
        nodes[i] += 1
        isEmpty = false
    }

    /// A box per part of the data, the part with the most nodes first (where a map of the data
    /// opens), then west to east; parts whose nodes make no box with area (a single node) are
    /// left out.
    func parts() -> [GeographicBounds] {
        let side = Self.side
        var seen = [Bool](repeating: false, count: side * side)
        var parts: [(bounds: GeographicBounds, nodes: Int)] = []
        for start in 0..<(side * side) where !seen[start] && minLat[start] <= maxLat[start] {
            // Flood the part from its first cell, growing its box.
            var box = (minLat: Int32.max, minLon: Int32.max, maxLat: Int32.min, maxLon: Int32.min)
            var stack = [start], count = 0
            seen[start] = true
            while let i = stack.popLast() {
                count += nodes[i]
                box = (min(box.minLat, minLat[i]), min(box.minLon, minLon[i]), max(box.maxLat, maxLat[i]), max(box.maxLon, maxLon[i]))
                let (x, y) = (i % side, i / side)
                for dy in -1...1 {
                    for dx in -1...1 {
                        let (nx, ny) = (x + dx, y + dy)
                        guard nx >= 0, nx < side, ny >= 0, ny < side else { continue }
                        let j = ny * side + nx
                        if !seen[j] && minLat[j] <= maxLat[j] { seen[j] = true; stack.append(j) }
                    }
                }
            }
            if let bounds = GeographicBounds(west: Double(box.minLon) / 1e7, south: Double(box.minLat) / 1e7,
                                             east: Double(box.maxLon) / 1e7, north: Double(box.maxLat) / 1e7) {
                parts.append((bounds, count))
            }
        }
        guard let main = parts.indices.max(by: { parts[$0].nodes < parts[$1].nodes }) else { return [] }
        let first = parts.remove(at: main)
        return [first.bounds] + parts.map(\.bounds).sorted { $0.west < $1.west }
    }
}
