import Foundation

// Hierarchical greedy point clustering, the algorithm of Mapbox's supercluster (ISC), written
// from its published behaviour and its test expectations (../shared/conformance/supercluster).
//
// Every zoom level from `maxZoom + 1` (the points themselves) down to `minZoom` holds the items
// visible at that zoom in a static k-d tree. Level z is made from level z + 1 by walking its
// items in order: an item not yet taken gathers every untaken item within `radius` pixels (at
// zoom z, the world being `extent · 2^z` pixels wide) and, when the group is big enough, they
// become one cluster at the group's count-weighted centre. A cluster's id encodes the zoom and
// position of the item that started it, so children, leaves and expansion zoom need no extra
// tables: the children are the items of level z + 1 around that origin whose parent is the id.
//
// The k-d tree sorts and searches exactly as the reference's (the same median selection, leaf
// size, traversal order and float32 coordinates), because item order decides which item starts
// each cluster, and therefore the cluster ids, positions and child order the expectations pin.

/// What went wrong building or querying a ``PointClusterIndex``.
public enum PointClusterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An option is outside the range the index can work with; the text names it.
    case invalidOptions(String)
    /// No cluster in this index has this id (ids from another index, another `load`, or a
    /// point's index instead of a cluster's id).
    case unknownCluster(Int)

    public var description: String {
        switch self {
        case .invalidOptions(let reason): return "invalid point clustering options: \(reason)"
        case .unknownCluster(let id): return "no cluster with id \(id) in this index"
        }
    }
}

/// How a ``PointClusterIndex`` groups points. The defaults are supercluster's.
///
/// Distances are screen pixels on a world `extent · 2^zoom` pixels wide. The default extent, 512,
/// is ``MapViewport``'s zoom convention (the world 512 points wide at zoom 0), so `radius` is in
/// screen points when queried at a viewport's `zoomLevel`. Queries floor a fractional zoom, so
/// between whole zooms the radius on screen grows from `radius` towards twice it. For 256-pixel
/// tiles at zoom Z, use `extent: 256` and query at Z.
public struct PointClusterOptions: Hashable, Sendable {
    /// Points closer than this many pixels (at the zoom being clustered) join one cluster.
    public var radius: Double
    /// The pixel width of one tile: the world is `extent · 2^zoom` pixels wide at `zoom`.
    public var extent: Double
    /// The lowest zoom that has its own clusters; queries below it use it.
    public var minZoom: Int
    /// The highest zoom that clusters; above it every point stands alone. At most 30, because a
    /// cluster id holds the zoom in 5 bits.
    public var maxZoom: Int
    /// The fewest points a cluster may hold; smaller groups stay separate points.
    public var minPoints: Int
    /// The number of items a k-d tree leaf holds (a speed trade-off; it also fixes the order of
    /// query results).
    public var nodeSize: Int

    public init(radius: Double = 40, extent: Double = 512, minZoom: Int = 0, maxZoom: Int = 16,
                minPoints: Int = 2, nodeSize: Int = 64) {
        self.radius = radius
        self.extent = extent
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minPoints = minPoints
        self.nodeSize = nodeSize
    }

    /// Throws ``PointClusterError/invalidOptions(_:)`` naming the first option out of range.
    public func validate() throws {
        guard radius.isFinite, radius >= 0 else {
            throw PointClusterError.invalidOptions("radius must be a finite number ≥ 0, not \(radius)")
        }
        guard extent.isFinite, extent > 0 else {
            throw PointClusterError.invalidOptions("extent must be a finite number > 0, not \(extent)")
        }
        guard (0...30).contains(minZoom), (0...30).contains(maxZoom), minZoom <= maxZoom else {
            throw PointClusterError.invalidOptions("zooms must satisfy 0 ≤ minZoom (\(minZoom)) ≤ maxZoom (\(maxZoom)) ≤ 30")
        }
        guard minPoints >= 2 else {
            throw PointClusterError.invalidOptions("minPoints must be at least 2, not \(minPoints)")
        }
        guard (2...65_535).contains(nodeSize) else {
            throw PointClusterError.invalidOptions("nodeSize must be in 2 … 65535, not \(nodeSize)")
        }
    }
}

/// Groups points into clusters for every zoom level at once, so that showing the clusters of a
/// view, a cluster's members, or the zoom at which a cluster splits are all fast queries.
///
/// This is the engine behind annotation clustering: load the annotations that share a
/// clustering identifier, then ask for the clusters in the visible rectangle whenever the zoom
/// changes. Clustering is greedy in input order, so put the points that should anchor clusters
/// (the higher display priorities) first.
///
/// It follows supercluster's algorithm step for step — same clusters, ids, positions, counts and
/// member order — and passes that project's test expectations (PointClusteringTests).
///
/// ```swift
/// var index = try PointClusterIndex(options: PointClusterOptions(radius: 60))
/// index.load(annotations.enumerated().map { .init(coordinate: $1.coordinate, payload: $0) })
/// for item in index.clusters(in: visibleMapRect, zoom: viewport.zoomLevel) {
///     if case .cluster(let id, let count) = item.kind { ... } else { ... }
/// }
/// ```
public struct PointClusterIndex: Sendable {
    /// One input point: where it is, and a value of the caller's (typically the index of the
    /// annotation it stands for).
    public struct Point: Hashable, Sendable {
        public var coordinate: CLLocationCoordinate2D
        public var payload: Int

        public init(coordinate: CLLocationCoordinate2D, payload: Int) {
            self.coordinate = coordinate
            self.payload = payload
        }
    }

    /// One thing visible at a zoom: a single input point or a cluster of several.
    public struct Item: Hashable, Sendable {
        public enum Kind: Hashable, Sendable {
            /// Input point number `index` (its place in the array given to ``load(_:)``).
            case point(index: Int, payload: Int)
            /// A cluster of `pointCount` input points; `id` names it to ``children(of:)``,
            /// ``leaves(of:limit:offset:)`` and ``expansionZoom(of:)``.
            case cluster(id: Int, pointCount: Int)
        }

        public var kind: Kind
        /// A point's own coordinate; a cluster's count-weighted centre (weighted on the map's
        /// Mercator plane, not on the sphere).
        public var coordinate: CLLocationCoordinate2D

        public init(kind: Kind, coordinate: CLLocationCoordinate2D) {
            self.kind = kind
            self.coordinate = coordinate
        }

        public var isCluster: Bool {
            if case .cluster = kind { return true }
            return false
        }

        /// The cluster's id, or nil for a single point.
        public var clusterID: Int? {
            if case .cluster(let id, _) = kind { return id }
            return nil
        }

        /// How many input points this item stands for (1 for a point).
        public var pointCount: Int {
            if case .cluster(_, let count) = kind { return count }
            return 1
        }
    }

    /// An item placed on one tile, at integer pixel coordinates within the tile's `extent`
    /// (items near the tile's edge, up to `radius` pixels outside it, are included so that
    /// symbols drawn across tile borders are not cut).
    public struct TileItem: Hashable, Sendable {
        public var item: Item
        public var x: Int
        public var y: Int

        public init(item: Item, x: Int, y: Int) {
            self.item = item
            self.x = x
            self.y = y
        }
    }

    public let options: PointClusterOptions
    /// The points of the last ``load(_:)``, including those skipped for invalid coordinates.
    public private(set) var points: [Point] = []
    /// How many points were indexed (points with a NaN or infinite coordinate are left out).
    public private(set) var indexedPointCount = 0
    /// `levels[z - minZoom]` holds the items visible at zoom z; the last is the points.
    private var levels: [ClusterLevel]

    /// An empty index; throws ``PointClusterError/invalidOptions(_:)`` for unusable options.
    public init(options: PointClusterOptions = PointClusterOptions()) throws {
        try options.validate()
        self.options = options
        levels = Array(repeating: ClusterLevel(), count: options.maxZoom - options.minZoom + 2)
    }

    /// An index of `points`.
    public init(points: [Point], options: PointClusterOptions = PointClusterOptions()) throws {
        try self.init(options: options)
        load(points)
    }

    /// Replaces the index's points and clusters every zoom level.
    ///
    /// A point whose latitude or longitude is NaN or infinite is left out (it keeps its index,
    /// so other points' indexes still match the input). Latitudes beyond ±90° are clamped and
    /// longitudes outside ±180° wrapped; points beyond Mercator's ±85.05° sit on its edge.
    public mutating func load(_ points: [Point]) {
        self.points = points
        // The ids of a k-d tree are 32-bit; billions of points do not fit in memory anyway.
        let usable = min(points.count, Int(Int32.max))
        var leaves = ClusterLevel()
        leaves.reserve(usable)
        for index in 0..<usable {
            let c = points[index].coordinate
            guard c.latitude.isFinite, c.longitude.isFinite else { continue }
            let (x, y) = PointClusterIndex.project(c)
            // The reference keeps point positions in float32; rounding here keeps every
            // distance, centre and id the same as its.
            leaves.append(x: Double(Float(x)), y: Double(Float(y)), count: 1, id: index)
        }
        indexedPointCount = leaves.count
        leaves.tree = StaticKDTree(xs: leaves.x, ys: leaves.y, nodeSize: options.nodeSize)
        // Built in a local array by a static function so that no copy of `self` shares the
        // levels' storage while their parents are written (which would copy each level).
        var built = [ClusterLevel](repeating: ClusterLevel(), count: levels.count)
        built[built.count - 1] = leaves
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            built[zoom - options.minZoom] = PointClusterIndex.cluster(
                &built[zoom + 1 - options.minZoom], zoom: zoom, options: options, pointCount: points.count)
        }
        levels = built
    }

    /// Builds level `zoom` from level `zoom + 1` (`finer`), recording parents in `finer`.
    private static func cluster(_ finer: inout ClusterLevel, zoom: Int, options: PointClusterOptions,
                                pointCount: Int) -> ClusterLevel {
        let r = options.radius / (options.extent * pow(2, Double(zoom)))
        let count = finer.count
        var taken = [Bool](repeating: false, count: count)
        var next = ClusterLevel()
        next.reserve(count)
        var neighbours: [Int32] = []
        var stack: [Int] = []
        let idBase = zoom + 1 + pointCount
        var changed = false
        for i in 0..<count where !taken[i] {
            taken[i] = true
            let x = finer.x[i], y = finer.y[i]
            finer.tree.within(x: x, y: y, radius: r, into: &neighbours, stack: &stack)
            let originCount = Int(finer.pointCounts[i])
            var total = originCount
            for n in neighbours where !taken[Int(n)] { total += Int(finer.pointCounts[Int(n)]) }
            if total > originCount && total >= options.minPoints {
                // Summing in the tree's result order keeps the centre bit-identical to the reference's.
                var wx = x * Double(originCount), wy = y * Double(originCount)
                let id = (i << 5) + idBase
                for n in neighbours where !taken[Int(n)] {
                    let k = Int(n)
                    taken[k] = true
                    let weight = Double(finer.pointCounts[k])
                    wx += finer.x[k] * weight
                    wy += finer.y[k] * weight
                    finer.parents[k] = id
                }
                finer.parents[i] = id
                changed = true
                next.append(x: wx / Double(total), y: wy / Double(total), count: Int32(total), id: id)
            } else {
                next.append(from: finer, at: i)
                // Too few to cluster (minPoints): the neighbours stay single but are settled
                // at this zoom, in the order the tree found them.
                if total > 1 {
                    for n in neighbours where !taken[Int(n)] {
                        taken[Int(n)] = true
                        changed = true
                        next.append(from: finer, at: Int(n))
                    }
                }
            }
        }
        // Nothing merged or moved (sparse points at high zooms): the level is the finer one
        // item for item, so it shares its arrays and tree instead of sorting a copy.
        if !changed { return finer }
        next.tree = StaticKDTree(xs: next.x, ys: next.y, nodeSize: options.nodeSize)
        return next
    }

    // MARK: - Queries

    /// The points and clusters at `zoom` inside a box given in degrees, as supercluster's
    /// `getClusters([west, south, east, north], zoom)`.
    ///
    /// A box whose west edge is east of its east edge crosses the 180th meridian; a box 360° or
    /// more wide covers every longitude. Longitudes are wrapped and latitudes clamped. The zoom
    /// is floored and clamped to `minZoom … maxZoom + 1`. Any NaN gives an empty result.
    public func clusters(west: CLLocationDegrees, south: CLLocationDegrees, east: CLLocationDegrees,
                         north: CLLocationDegrees, zoom: Double) -> [Item] {
        guard !west.isNaN, !south.isNaN, !east.isNaN, !north.isNaN, !zoom.isNaN else { return [] }
        func wrap(_ longitude: Double) -> Double {
            ((longitude + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        }
        var minLongitude = wrap(west)
        var maxLongitude = east == 180 ? 180 : wrap(east)
        let minLatitude = max(-90, min(90, south)), maxLatitude = max(-90, min(90, north))
        if east - west >= 360 {
            minLongitude = -180
            maxLongitude = 180
        } else if !minLongitude.isFinite || !maxLongitude.isFinite {
            return []
        } else if minLongitude > maxLongitude {
            return clusters(west: minLongitude, south: minLatitude, east: 180, north: maxLatitude, zoom: zoom)
                + clusters(west: -180, south: minLatitude, east: maxLongitude, north: maxLatitude, zoom: zoom)
        }
        let level = levels[levelIndex(zoom)]
        let found = level.tree.range(minX: PointClusterIndex.projectX(minLongitude),
                                     minY: PointClusterIndex.projectY(maxLatitude),
                                     maxX: PointClusterIndex.projectX(maxLongitude),
                                     maxY: PointClusterIndex.projectY(minLatitude))
        return found.map { item(in: level, at: Int($0)) }
    }

    /// The points and clusters at `zoom` inside a map rectangle (which may extend past the
    /// world's right edge to cross the 180th meridian). A null or non-finite rectangle gives
    /// an empty result.
    public func clusters(in rect: MKMapRect, zoom: Double) -> [Item] {
        guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else {
            return []
        }
        let world = MKMapSize.worldWidth
        let west = rect.minX / world * 360 - 180, east = rect.maxX / world * 360 - 180
        let north = MKMapPoint(x: 0, y: rect.minY).coordinate.latitude
        let south = MKMapPoint(x: 0, y: rect.maxY).coordinate.latitude
        return clusters(west: west, south: south, east: east, north: north, zoom: zoom)
    }

    /// The points and clusters at `zoom` inside a region.
    public func clusters(in region: MKCoordinateRegion, zoom: Double) -> [Item] {
        let halfHeight = region.span.latitudeDelta / 2, halfWidth = region.span.longitudeDelta / 2
        return clusters(west: region.center.longitude - halfWidth, south: region.center.latitude - halfHeight,
                        east: region.center.longitude + halfWidth, north: region.center.latitude + halfHeight,
                        zoom: zoom)
    }

    /// The items to draw on one tile, as supercluster's `getTile(z, x, y)`: positions in tile
    /// pixels (0 … extent), including items up to `radius` pixels beyond the tile's edges and,
    /// on the first and last columns, items just across the 180th meridian.
    public func tile(_ tile: TileID) -> [TileItem] {
        let level = levels[levelIndex(Double(tile.z))]
        let z2 = pow(2, Double(tile.z))
        let p = options.radius / options.extent
        let x = Double(tile.x), y = Double(tile.y)
        let top = (y - p) / z2, bottom = (y + 1 + p) / z2
        var result: [TileItem] = []
        func add(_ found: [Int32], originX: Double) {
            for index in found {
                let k = Int(index)
                let item = item(in: level, at: k)
                let px: Double, py: Double
                if level.pointCounts[k] > 1 {
                    px = level.x[k]
                    py = level.y[k]
                } else {
                    // A single point is placed from its exact coordinate, not the float32 copy.
                    (px, py) = PointClusterIndex.project(points[level.ids[k]].coordinate)
                }
                result.append(TileItem(item: item,
                                       x: Int(PointClusterIndex.roundHalfUp(options.extent * (px * z2 - originX))),
                                       y: Int(PointClusterIndex.roundHalfUp(options.extent * (py * z2 - y)))))
            }
        }
        add(level.tree.range(minX: (x - p) / z2, minY: top, maxX: (x + 1 + p) / z2, maxY: bottom), originX: x)
        if tile.x == 0 {
            add(level.tree.range(minX: 1 - p / z2, minY: top, maxX: 1, maxY: bottom), originX: z2)
        }
        if Double(tile.x) == z2 - 1 {
            add(level.tree.range(minX: 0, minY: top, maxX: p / z2, maxY: bottom), originX: -1)
        }
        return result
    }

    /// The items one zoom level in that a cluster splits into (points and smaller clusters),
    /// in the reference's order. Throws ``PointClusterError/unknownCluster(_:)``.
    public func children(of clusterID: Int) throws -> [Item] {
        let (levelZoom, origin) = try locate(clusterID)
        let level = levels[levelZoom - options.minZoom]
        return childIndexes(clusterID, in: level, origin: origin, zoom: levelZoom).map { item(in: level, at: $0) }
    }

    /// Up to `limit` of the input points inside a cluster, skipping the first `offset`, in the
    /// reference's order (depth first through ``children(of:)``). Pass `Int.max` for all.
    /// A `limit` of 0 or less gives none. Throws ``PointClusterError/unknownCluster(_:)``.
    public func leaves(of clusterID: Int, limit: Int = 10, offset: Int = 0) throws -> [Item] {
        _ = try locate(clusterID)
        guard limit > 0 else { return [] }
        var result: [Item] = []
        var skipped = 0
        try appendLeaves(of: clusterID, limit: limit, offset: max(0, offset), skipped: &skipped, into: &result)
        return result
    }

    private func appendLeaves(of clusterID: Int, limit: Int, offset: Int, skipped: inout Int,
                              into result: inout [Item]) throws {
        for child in try children(of: clusterID) {
            switch child.kind {
            case .cluster(let id, let count):
                if skipped + count <= offset {
                    skipped += count
                } else {
                    try appendLeaves(of: id, limit: limit, offset: offset, skipped: &skipped, into: &result)
                }
            case .point:
                if skipped < offset {
                    skipped += 1
                } else {
                    result.append(child)
                }
            }
            if result.count == limit { break }
        }
    }

    /// The zoom at which a cluster first splits into more than one item — where to zoom the
    /// map when the user taps it. Throws ``PointClusterError/unknownCluster(_:)``.
    public func expansionZoom(of clusterID: Int) throws -> Int {
        var id = clusterID
        var zoom = try locate(id).zoom - 1
        while zoom <= options.maxZoom {
            let children = try self.children(of: id)
            zoom += 1
            guard children.count == 1, let only = children[0].clusterID else { break }
            id = only
        }
        return zoom
    }

    /// Folds a value over every cluster's points, as supercluster's `map` and `reduce` options:
    /// each cluster's value starts from `map` of one member and `reduce`s in the others' (points'
    /// `map` values and sub-clusters' folded values). `reduce` should be associative and
    /// commutative; the order it sees members in is not part of the contract.
    public func aggregate<Value>(map: (Point) -> Value, reduce: (inout Value, Value) -> Void) -> [Int: Value] {
        var values: [Int: Value] = [:]
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let finer = levels[zoom + 1 - options.minZoom]
            for k in 0..<finer.count {
                let parent = finer.parents[k]
                guard parent >= 0 else { continue }
                let value: Value
                if finer.pointCounts[k] > 1 {
                    guard let folded = values[finer.ids[k]] else { continue }
                    value = folded
                } else {
                    value = map(points[finer.ids[k]])
                }
                // A cluster's origin comes before its other members in level order, so the
                // first member seen starts the fold as the reference's origin does.
                if values[parent] == nil {
                    values[parent] = value
                } else {
                    reduce(&values[parent]!, value)
                }
            }
        }
        return values
    }

    /// How many items (points and clusters) are visible at `zoom` over the whole world; the
    /// zoom is floored and clamped as in ``clusters(west:south:east:north:zoom:)``.
    public func itemCount(atZoom zoom: Double) -> Int {
        zoom.isNaN ? 0 : levels[levelIndex(zoom)].count
    }

    /// supercluster's short label for a count: "999", "1.5k", "12k".
    public static func abbreviatedCount(_ count: Int) -> String {
        if count >= 10_000 { return "\(Int(roundHalfUp(Double(count) / 1000)))k" }
        if count >= 1000 {
            let tenths = Int(roundHalfUp(Double(count) / 100))
            return tenths % 10 == 0 ? "\(tenths / 10)k" : "\(tenths / 10).\(tenths % 10)k"
        }
        return "\(count)"
    }

    // MARK: - Internals

    private func levelIndex(_ zoom: Double) -> Int {
        let floored = zoom.rounded(.down)
        let clamped = max(Double(options.minZoom), min(floored, Double(options.maxZoom + 1)))
        return Int(clamped) - options.minZoom
    }

    /// The zoom level holding a cluster's origin item (the cluster's zoom + 1) and its index
    /// there, after checking the id really names a cluster of this index.
    private func locate(_ clusterID: Int) throws -> (zoom: Int, origin: Int) {
        guard clusterID >= points.count else { throw PointClusterError.unknownCluster(clusterID) }
        let encoded = clusterID - points.count
        let zoom = encoded & 31, origin = encoded >> 5
        guard zoom >= options.minZoom + 1, zoom <= options.maxZoom + 1 else {
            throw PointClusterError.unknownCluster(clusterID)
        }
        let level = levels[zoom - options.minZoom]
        guard origin < level.count, level.parents[origin] == clusterID else {
            throw PointClusterError.unknownCluster(clusterID)
        }
        return (zoom, origin)
    }

    private func childIndexes(_ clusterID: Int, in level: ClusterLevel, origin: Int, zoom: Int) -> [Int] {
        let r = options.radius / (options.extent * pow(2, Double(zoom - 1)))
        var found: [Int32] = []
        var stack: [Int] = []
        level.tree.within(x: level.x[origin], y: level.y[origin], radius: r, into: &found, stack: &stack)
        var children = found.map(Int.init).filter { level.parents[$0] == clusterID }
        // This is the very search that gathered the cluster, so it finds every member but
        // perhaps the origin: at high zooms the radius can be smaller than the gap between the
        // origin's float32 copy in the tree and its full-precision centre.
        if !children.contains(origin) { children.insert(origin, at: 0) }
        return children
    }

    private func item(in level: ClusterLevel, at k: Int) -> Item {
        let count = Int(level.pointCounts[k])
        if count > 1 {
            let world = MKMapSize.worldWidth
            let coordinate = MKMapPoint(x: level.x[k] * world, y: level.y[k] * world).coordinate
            return Item(kind: .cluster(id: level.ids[k], pointCount: count), coordinate: coordinate)
        }
        let point = points[level.ids[k]]
        return Item(kind: .point(index: level.ids[k], payload: point.payload), coordinate: point.coordinate)
    }

    /// The position on a unit square world (0…1, y down), as the reference computes it (the
    /// logarithm form; MKMapPoint's atanh form can differ in the last bit, which would move
    /// float32-rounded positions and so cluster ids).
    static func project(_ coordinate: CLLocationCoordinate2D) -> (Double, Double) {
        var longitude = coordinate.longitude
        if longitude < -180 || longitude > 180 {
            longitude = ((longitude + 180).truncatingRemainder(dividingBy: 360) + 360)
                .truncatingRemainder(dividingBy: 360) - 180
        }
        return (projectX(longitude), projectY(max(-90, min(90, coordinate.latitude))))
    }

    static func projectX(_ longitude: Double) -> Double { longitude / 360 + 0.5 }

    static func projectY(_ latitude: Double) -> Double {
        let s = sin(latitude * .pi / 180)
        let y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
        return y < 0 ? 0 : (y > 1 ? 1 : y)
    }

    /// Rounds halves up (towards +∞), as JavaScript's Math.round, which placed the expected
    /// tile pixels.
    static func roundHalfUp(_ value: Double) -> Double {
        let floor = value.rounded(.down)
        return value - floor >= 0.5 ? floor + 1 : floor
    }
}

/// The items visible at one zoom, as parallel arrays (no per-item objects).
struct ClusterLevel: Sendable {
    /// Positions on the unit world square; clusters' centres are kept in full precision.
    var x: [Double] = []
    var y: [Double] = []
    var pointCounts: [Int32] = []
    /// A point's input index, or a cluster's id.
    var ids: [Int] = []
    /// The cluster one zoom out that took this item, or −1.
    var parents: [Int] = []
    var tree = StaticKDTree(xs: [], ys: [], nodeSize: 64)

    var count: Int { x.count }

    mutating func reserve(_ n: Int) {
        x.reserveCapacity(n)
        y.reserveCapacity(n)
        pointCounts.reserveCapacity(n)
        ids.reserveCapacity(n)
        parents.reserveCapacity(n)
    }

    mutating func append(x: Double, y: Double, count: Int32, id: Int) {
        self.x.append(x)
        self.y.append(y)
        pointCounts.append(count)
        ids.append(id)
        parents.append(-1)
    }

    mutating func append(from other: ClusterLevel, at k: Int) {
        append(x: other.x[k], y: other.y[k], count: other.pointCounts[k], id: other.ids[k])
    }
}

/// A static 2-D k-d tree over float32 points: built once by recursive median selection with
/// alternating axes, leaves of up to `nodeSize` items scanned linearly. Query results come in
/// the order of a depth-first walk that visits the upper half first, as the reference's does.
struct StaticKDTree: Sendable {
    /// Interleaved x, y per slot, permuted by the sort.
    private(set) var coordinates: [Float]
    /// The item index held in each slot.
    private(set) var ids: [Int32]
    let nodeSize: Int

    init(xs: [Double], ys: [Double], nodeSize: Int) {
        self.nodeSize = nodeSize
        let n = xs.count
        var coordinates = [Float](repeating: 0, count: 2 * n)
        var ids = [Int32](repeating: 0, count: n)
        for i in 0..<n {
            coordinates[2 * i] = Float(xs[i])
            coordinates[2 * i + 1] = Float(ys[i])
            ids[i] = Int32(i)
        }
        if n > 0 {
            coordinates.withUnsafeMutableBufferPointer { c in
                ids.withUnsafeMutableBufferPointer { d in
                    StaticKDTree.sort(c, d, nodeSize: nodeSize, left: 0, right: n - 1, axis: 0)
                }
            }
        }
        self.coordinates = coordinates
        self.ids = ids
    }

    var count: Int { ids.count }

    private static func sort(_ c: UnsafeMutableBufferPointer<Float>, _ ids: UnsafeMutableBufferPointer<Int32>,
                             nodeSize: Int, left: Int, right: Int, axis: Int) {
        if right - left <= nodeSize { return }
        let middle = (left + right) >> 1
        select(c, ids, k: middle, left: left, right: right, axis: axis)
        sort(c, ids, nodeSize: nodeSize, left: left, right: middle - 1, axis: 1 - axis)
        sort(c, ids, nodeSize: nodeSize, left: middle + 1, right: right, axis: 1 - axis)
    }

    /// Floyd–Rivest selection: puts the k-th smallest (along `axis`) at k, smaller ones before.
    private static func select(_ c: UnsafeMutableBufferPointer<Float>, _ ids: UnsafeMutableBufferPointer<Int32>,
                               k: Int, left: Int, right: Int, axis: Int) {
        var left = left, right = right
        while right > left {
            if right - left > 600 {
                // Narrow the range around k by sampling first, which keeps selection linear.
                let n = Double(right - left + 1)
                let m = Double(k - left + 1)
                let z = log(n)
                let s = 0.5 * exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                let newLeft = max(left, Int((Double(k) - m * s / n + sd).rounded(.down)))
                let newRight = min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down)))
                select(c, ids, k: k, left: newLeft, right: newRight, axis: axis)
            }
            let t = c[2 * k + axis]
            var i = left, j = right
            swapSlots(c, ids, left, k)
            if c[2 * right + axis] > t { swapSlots(c, ids, left, right) }
            while i < j {
                swapSlots(c, ids, i, j)
                i += 1
                j -= 1
                while c[2 * i + axis] < t { i += 1 }
                while c[2 * j + axis] > t { j -= 1 }
            }
            if c[2 * left + axis] == t {
                swapSlots(c, ids, left, j)
            } else {
                j += 1
                swapSlots(c, ids, j, right)
            }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }

    @inline(__always)
    private static func swapSlots(_ c: UnsafeMutableBufferPointer<Float>, _ ids: UnsafeMutableBufferPointer<Int32>,
                                  _ a: Int, _ b: Int) {
        ids.swapAt(a, b)
        c.swapAt(2 * a, 2 * b)
        c.swapAt(2 * a + 1, 2 * b + 1)
    }

    /// The items inside a rectangle (edges included).
    func range(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [Int32] {
        var result: [Int32] = []
        guard !ids.isEmpty else { return result }
        let nodeSize = self.nodeSize
        coordinates.withUnsafeBufferPointer { c in
            ids.withUnsafeBufferPointer { ids in
                var stack: [Int] = [0, ids.count - 1, 0]
                while let axis = stack.popLast() {
                    let right = stack.removeLast(), left = stack.removeLast()
                    if right - left <= nodeSize {
                        var i = left
                        while i <= right {
                            let x = Double(c[2 * i]), y = Double(c[2 * i + 1])
                            if x >= minX && x <= maxX && y >= minY && y <= maxY { result.append(ids[i]) }
                            i += 1
                        }
                        continue
                    }
                    let m = (left + right) >> 1
                    let x = Double(c[2 * m]), y = Double(c[2 * m + 1])
                    if x >= minX && x <= maxX && y >= minY && y <= maxY { result.append(ids[m]) }
                    if axis == 0 ? minX <= x : minY <= y { stack.append(contentsOf: [left, m - 1, 1 - axis]) }
                    if axis == 0 ? maxX >= x : maxY >= y { stack.append(contentsOf: [m + 1, right, 1 - axis]) }
                }
            }
        }
        return result
    }

    /// The items within `radius` of (x, y), written to `result` (replacing its contents);
    /// `stack` is scratch space kept by the caller so repeated queries do not allocate.
    func within(x qx: Double, y qy: Double, radius r: Double, into result: inout [Int32], stack: inout [Int]) {
        result.removeAll(keepingCapacity: true)
        let n = ids.count
        guard n > 0 else { return }
        let r2 = r * r
        let nodeSize = self.nodeSize
        // A depth-first walk keeps at most one pending (left, right, axis) triple per tree level.
        let needed = 3 * (Int.bitWidth - n.leadingZeroBitCount + 2)
        if stack.count < needed { stack = [Int](repeating: 0, count: needed) }
        coordinates.withUnsafeBufferPointer { cb in
            ids.withUnsafeBufferPointer { ib in
                stack.withUnsafeMutableBufferPointer { sb in
                    let c = cb.baseAddress!, ids = ib.baseAddress!, s = sb.baseAddress!
                    var top = 3
                    s[0] = 0
                    s[1] = n - 1
                    s[2] = 0
                    while top > 0 {
                        let axis = s[top - 1], right = s[top - 2], left = s[top - 3]
                        top -= 3
                        if right - left <= nodeSize {
                            var i = left
                            while i <= right {
                                let dx = Double(c[2 * i]) - qx, dy = Double(c[2 * i + 1]) - qy
                                if dx * dx + dy * dy <= r2 { result.append(ids[i]) }
                                i += 1
                            }
                            continue
                        }
                        let m = (left + right) >> 1
                        let x = Double(c[2 * m]), y = Double(c[2 * m + 1])
                        let dx = x - qx, dy = y - qy
                        if dx * dx + dy * dy <= r2 { result.append(ids[m]) }
                        if axis == 0 ? qx - r <= x : qy - r <= y {
                            s[top] = left
                            s[top + 1] = m - 1
                            s[top + 2] = 1 - axis
                            top += 3
                        }
                        if axis == 0 ? qx + r >= x : qy + r >= y {
                            s[top] = m + 1
                            s[top + 1] = right
                            s[top + 2] = 1 - axis
                            top += 3
                        }
                    }
                }
            }
        }
    }
}
