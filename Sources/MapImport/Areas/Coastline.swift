import Foundation
import MapFormats
import MapGeometry

/// One `natural=coastline` way as the import reads it: its node locations in way order, and
/// whether node references were missing at either end (the way was cut off at the extract's edge).
struct CoastlineWay: Sendable {
    var id: Int64
    var locations: [OSMLocation]
    var cutAtStart = false
    var cutAtEnd = false
}

/// What ``CoastlineAssembler`` made: sea polygons (exterior first, then holes; exteriors clockwise
/// on the map, as the tile cutter expects) and what went wrong on the way.
struct SeaAssembly {
    var polygons: [[[MKMapPoint]]] = []
    var warnings: [String] = []
}

/// Builds the sea of an extract from its own coastline ways, as OpenMapTiles' pre-made water
/// polygons would give it, without any download.
///
/// OSM draws coastlines with land on the left and water on the right. The ways are joined end to
/// end into chains; closed chains inside the extract are islands (counter-clockwise) or enclosed
/// sea (clockwise); open chains are clipped to the extract's bounds, and each stretch inside is
/// closed into a water ring by walking the bounds clockwise from where it leaves to where the next
/// stretch comes in. Extracts whose coastline forms only islands are sea everywhere but the islands.
///
/// Extracts often hold broken coastlines, and extracts cut along a country's polygon stop the coast
/// short of their bounding box. Gaps of up to 1 km between chain ends are bridged; remaining ends
/// near the bounds are carried out to them where that gives a consistent walk (see
/// `extendAndWalk`); islands drawn the wrong way round in the sea are turned. Where land and sea
/// still cannot be told apart no sea is made at all, rather than flooding land, and every repair
/// and failure goes to the import report's `coastlineWarnings`.
struct CoastlineAssembler {
    /// The extract's bounds in map points.
    let bounds: MKMapRect
    /// Chain ends inside the extract closer than this (map points) are joined across the gap.
    let maximumGap: Double
    /// Sea polygons with more vertices are split along tile boundaries, so the tile cutter never
    /// clips a whole continent's coast for each bucket it touches.
    var maximumVertices = 20_000
    /// At most this many warnings are listed; the rest are counted.
    static let warningLimit = 20

    init(bounds: MKMapRect, maximumGapMeters: Double = 1000) {
        self.bounds = bounds
        let latitude = bounds.isNull ? 0 : MKMapPoint(x: bounds.midX, y: bounds.midY).coordinate.latitude
        maximumGap = maximumGapMeters * MKMapPointsPerMeterAtLatitude(latitude)
    }

    /// A joined run of coastline: points in map space, whether it closes on itself, and whether
    /// its ends were cut off by the extract.
    struct Chain {
        var points: [MKMapPoint]
        var closed: Bool
        var cutAtStart: Bool
        var cutAtEnd: Bool
        var firstWay: Int64
    }

    /// A stretch of coast inside the bounds.
    struct Piece {
        var points: [MKMapPoint]
        var firstWay: Int64
        /// Whether the start (end) is where a way was cut off by the extract, missing its next nodes.
        var cutAtStart = false
        var cutAtEnd = false
    }

    func assemble(_ ways: [CoastlineWay]) -> SeaAssembly {
        guard !ways.isEmpty else { return SeaAssembly() }
        var warnings = Warnings()
        let polygons = build(ways, warnings: &warnings)
        return SeaAssembly(polygons: polygons, warnings: warnings.list)
    }

    private func build(_ ways: [CoastlineWay], warnings: inout Warnings) -> [[[MKMapPoint]]] {
        let result: [[[MKMapPoint]]] = []
        guard !bounds.isNull, bounds.width > 0, bounds.height > 0, [bounds.minX, bounds.minY, bounds.maxX, bounds.maxY].allSatisfy(\.isFinite) else {
            warnings.conclude("coastline: the extract has no usable bounds; no sea was made")
            return result
        }
        let chains = join(ways, warnings: &warnings)

        // Stretches inside the bounds: from where the coast comes in to where it leaves, or to an end inside.
        var inner: [[MKMapPoint]] = []  // closed rings wholly inside
        var pieces: [Piece] = []
        let box = bounds
        for chain in chains {
            var points = chain.points
            if chain.closed {
                // A closed chain crossing the bounds is an open one starting outside.
                guard let outside = points.firstIndex(where: { !Self.closedContains(box, $0) }) else {
                    inner.append(points)
                    continue
                }
                points = Array(points[outside..<(points.count - 1)] + points[0...outside])
            }
            var clipped = Clipping.clipPolyline(points, to: box).map { Piece(points: $0, firstWay: chain.firstWay) }
            if !clipped.isEmpty {
                clipped[0].cutAtStart = chain.cutAtStart && clipped[0].points[0] == points[0]
                clipped[clipped.count - 1].cutAtEnd = chain.cutAtEnd && clipped[clipped.count - 1].points.last == points.last
            }
            pieces += clipped
        }

        // Bridge small gaps between an end and a start that are both inside the bounds.
        closeGaps(&pieces, into: &inner, warnings: &warnings)
        // Water rings from the open stretches, by the walk along the bounds, once every end is on them.
        var waterRings: [[MKMapPoint]] = []
        if !pieces.isEmpty {
            guard let rings = extendAndWalk(&pieces, warnings: &warnings) else { return result }
            waterRings = rings
        }

        // Closed rings: clockwise on the map encloses water, counter-clockwise land (an island).
        var islands: [[MKMapPoint]] = []
        let walked = waterRings.count
        let innerBounds = inner.map { MKMapRect(boundingPoints: $0) }
        let walkedBounds = waterRings.map { MKMapRect(boundingPoints: $0) }
        let innerAreas = inner.map { PlanarPolygon.signedArea($0) }
        var reversed = 0
        for (index, ring) in inner.enumerated() {
            let area = innerAreas[index]
            if area < 0 {
                islands.append(ring)
            } else if area > 0 {
                // Enclosed sea belongs on land: in an island, or with land all round. Directly in the
                // sea it is an island drawn the wrong way round, which is a common mistake.
                let box = innerBounds[index]
                var parentArea = Double.infinity, parentIsWater = false
                for (j, other) in inner.enumerated() where j != index && abs(innerAreas[j]) < parentArea && innerBounds[j].contains(box)
                    && Self.ring(ring, isInside: other) {
                    parentArea = abs(innerAreas[j])
                    parentIsWater = innerAreas[j] > 0
                }
                for j in 0..<walked where walkedBounds[j].contains(box) && Self.ring(ring, isInside: waterRings[j]) {
                    let a = abs(PlanarPolygon.signedArea(waterRings[j]))
                    if a < parentArea { parentArea = a; parentIsWater = true }
                }
                if parentIsWater {
                    islands.append(ring.reversed())
                    reversed += 1
                } else {
                    waterRings.append(ring)
                }
            }
        }
        if reversed > 0 { warnings.add("coastline: \(reversed) island(s) drawn clockwise (land must lie left of the coast) taken as islands") }
        if pieces.isEmpty {
            // No coast crosses the bounds: whether they lie in sea or on land depends on the outermost rings.
            let rings = waterRings + islands
            let ringBounds = rings.map { MKMapRect(boundingPoints: $0) }
            let outermost = rings.indices.filter { i in
                !rings.indices.contains { j in j != i && ringBounds[j].contains(ringBounds[i]) && Self.ring(rings[i], isInside: rings[j]) }
            }.map { rings[$0] }
            let landOutside = outermost.filter { PlanarPolygon.signedArea($0) > 0 }.count
            if landOutside > 0 && landOutside < outermost.count {
                warnings.conclude("coastline: islands and enclosed seas disagree about what surrounds them; no sea was made")
                return result
            }
            if landOutside == 0 && !islands.isEmpty {
                let corners = [MKMapPoint(x: box.minX, y: box.minY), MKMapPoint(x: box.maxX, y: box.minY),
                               MKMapPoint(x: box.maxX, y: box.maxY), MKMapPoint(x: box.minX, y: box.maxY), MKMapPoint(x: box.minX, y: box.minY)]
                waterRings.append(corners)
            }
        }

        // Each island is a hole in the smallest water ring around it.
        var polygons = waterRings.map { [$0] }
        let waterBounds = waterRings.map { MKMapRect(boundingPoints: $0) }
        let waterAreas = waterRings.map { abs(PlanarPolygon.signedArea($0)) }
        var strayIslands = 0
        for island in islands {
            let probe = island[0]
            let candidates = waterRings.indices.filter { Self.closedContains(waterBounds[$0], probe) }.sorted { waterAreas[$0] < waterAreas[$1] }
            let home = candidates.count == 1 ? candidates.first : candidates.first { Self.ring(island, isInside: waterRings[$0]) }
            if let home { polygons[home].append(island) } else { strayIslands += 1 }
        }
        if strayIslands > 0 { warnings.add("coastline: \(strayIslands) island ring(s) lie on land, not in the sea; left out") }

        return polygons.flatMap(split)
    }

    // MARK: Joining ways into chains

    private func join(_ ways: [CoastlineWay], warnings: inout Warnings) -> [Chain] {
        var startsAt: [OSMLocation: [Int]] = [:]
        var endsAt: [OSMLocation: [Int]] = [:]
        var usable: [Int] = []
        var short = 0
        for (index, way) in ways.enumerated() {
            guard let first = way.locations.first, let last = way.locations.last, way.locations.count >= 2 else {
                short += 1
                continue
            }
            usable.append(index)
            startsAt[first, default: []].append(index)
            endsAt[last, default: []].append(index)
        }
        if short > 0 { warnings.add("coastline: \(short) way(s) with fewer than two nodes in the extract ignored") }
        var used = [Bool](repeating: false, count: ways.count)
        func take(_ candidates: [Int]?) -> Int? {
            guard let index = candidates?.first(where: { !used[$0] }) else { return nil }
            used[index] = true
            return index
        }
        var chains: [Chain] = []
        for index in usable where !used[index] {
            used[index] = true
            // The ways after this one, then those before it (nearest first), joined once at the end:
            // a coast of many thousand ways must not be copied for each.
            var after: [Int] = [], before: [Int] = []
            let start = ways[index].locations[0]
            var end = ways[index].locations[ways[index].locations.count - 1]
            while end != start, let next = take(startsAt[end]) {
                after.append(next)
                end = ways[next].locations[ways[next].locations.count - 1]
            }
            var head = start
            while end != head, let previous = take(endsAt[head]) {
                before.append(previous)
                head = ways[previous].locations[0]
            }
            let order = before.reversed() + [index] + after
            let first = order[0], last = order[order.count - 1]
            var locations: [OSMLocation] = ways[first].locations
            for way in order.dropFirst() { locations += ways[way].locations.dropFirst() }
            var points: [MKMapPoint] = []
            points.reserveCapacity(locations.count)
            for location in locations {
                let p = mapPoint(location)
                if points.last != p { points.append(p) }
            }
            let closed = locations.count >= 4 && locations.first == locations.last
            guard points.count >= (closed ? 4 : 2) else { continue }
            chains.append(Chain(points: points, closed: closed, cutAtStart: !closed && ways[first].cutAtStart,
                                cutAtEnd: !closed && ways[last].cutAtEnd, firstWay: ways[first].id))
        }
        return chains
    }

    // MARK: Gaps

    /// Joins piece ends inside the bounds to the nearest piece start inside the bounds within
    /// ``maximumGap``, nearest pairs first; a piece joined to itself becomes a closed ring.
    private func closeGaps(_ pieces: inout [Piece], into inner: inout [[MKMapPoint]], warnings: inout Warnings) {
        var openEnds = pieces.indices.filter { !onBoundary(pieces[$0].points[pieces[$0].points.count - 1]) }
        var openStarts = pieces.indices.filter { !onBoundary(pieces[$0].points[0]) }
        guard !openEnds.isEmpty, !openStarts.isEmpty, openEnds.count * openStarts.count <= 1_000_000 else { return }
        var pairs: [(distance: Double, end: Int, start: Int)] = []
        for e in openEnds {
            let a = pieces[e].points[pieces[e].points.count - 1]
            for s in openStarts {
                let b = pieces[s].points[0]
                let d = hypot(a.x - b.x, a.y - b.y)
                if d <= maximumGap { pairs.append((d, e, s)) }
            }
        }
        guard !pairs.isEmpty else { return }
        pairs.sort { $0.distance < $1.distance }
        // Union of pieces: `next[e] = s` means piece e continues with piece s.
        var next: [Int: Int] = [:]
        var hasPrevious = Set<Int>()
        for pair in pairs where next[pair.end] == nil && !hasPrevious.contains(pair.start) {
            next[pair.end] = pair.start
            hasPrevious.insert(pair.start)
            let a = pieces[pair.end].points[pieces[pair.end].points.count - 1]
            warnings.add("coastline: bridged a gap of \(Int((pair.distance / MKMapPointsPerMeterAtLatitude(a.coordinate.latitude)).rounded())) m at \(Self.describe(a))")
        }
        openEnds.removeAll { next[$0] != nil }
        openStarts.removeAll { hasPrevious.contains($0) }
        // Rebuild: follow each run from a piece with no predecessor; what remains are cycles.
        var merged: [Piece] = []
        var visited = Set<Int>()
        func run(from first: Int) -> (points: [MKMapPoint], last: Int) {
            var points: [MKMapPoint] = []
            var current: Int? = first
            var last = first
            while let index = current, !visited.contains(index) {
                visited.insert(index)
                points += points.last == pieces[index].points[0] ? Array(pieces[index].points.dropFirst()) : pieces[index].points
                last = index
                current = next[index]
            }
            return (points, last)
        }
        for index in pieces.indices where !hasPrevious.contains(index) {
            let (points, last) = run(from: index)
            merged.append(Piece(points: points, firstWay: pieces[index].firstWay,
                                cutAtStart: pieces[index].cutAtStart, cutAtEnd: pieces[last].cutAtEnd))
        }
        for index in pieces.indices where !visited.contains(index) {
            var ring = run(from: index).points
            if let first = ring.first, ring.last != first { ring.append(first) }
            if ring.count >= 4 { inner.append(ring) }
        }
        pieces = merged
    }

    // MARK: Ends at the extract's edge

    /// Carries chain ends still inside the bounds out to them, then walks the bounds; nil (with
    /// the reason among the warnings) when no sea can be made sensibly.
    ///
    /// An extract cut along a polygon rather than its bounding box stops the coast short of the box
    /// (Monaco's stops where the French coast would go on). Each such end may be carried on in the
    /// direction the coast was heading (over its last 100 m or so) or straight to any of the four
    /// edges, nearest first, never across a coastline nor (unless the way's next nodes are missing,
    /// so the extract certainly cut it there) further than a quarter of the box's shorter side. A
    /// stub of at most 100 m between an end and the bounds may be left out instead. The first
    /// combination (most preferred first) for which the walk along the bounds is consistent,
    /// entries and exits alternating, is taken. An end in the middle of a broken coast is usually
    /// far from the edges or admits no consistent walk, so it still ends in "no sea" rather than a
    /// wrong one.
    private func extendAndWalk(_ pieces: inout [Piece], warnings: inout Warnings) -> [[MKMapPoint]]? {
        var ends: [(piece: Int, atStart: Bool, cut: Bool)] = []
        for (index, piece) in pieces.enumerated() {
            if !onBoundary(piece.points[0]) { ends.append((index, true, piece.cutAtStart)) }
            if !onBoundary(piece.points[piece.points.count - 1]) { ends.append((index, false, piece.cutAtEnd)) }
        }
        if ends.isEmpty {
            if let rings = walk(pieces) { return rings }
            warnings.conclude("coastline: coastline directions disagree (land must lie left of every way); no sea was made")
            return nil
        }
        func giveUp() -> [[MKMapPoint]]? {
            for end in ends.prefix(5) {
                let piece = pieces[end.piece]
                warnings.add("coastline: chain from way \(piece.firstWay) ends inside the extract at \(Self.describe(end.atStart ? piece.points[0] : piece.points[piece.points.count - 1]))")
            }
            warnings.conclude("coastline: \(ends.count) coastline chain end(s) inside the extract could not be closed; no sea was made")
            return nil
        }
        guard ends.count <= 16 else { return giveUp() }
        var options: [[MKMapPoint]] = []
        for end in ends {
            let points = end.atStart ? Array(pieces[end.piece].points.reversed()) : pieces[end.piece].points
            let tip = points[points.count - 1]
            let reach = 100 * MKMapPointsPerMeterAtLatitude(tip.coordinate.latitude)
            var back = max(points.count - 2, 0)
            while back > 0, hypot(tip.x - points[back].x, tip.y - points[back].y) < reach { back -= 1 }
            var candidates: [MKMapPoint] = []
            if let ahead = rayExit(from: tip, direction: MKMapPoint(x: tip.x - points[back].x, y: tip.y - points[back].y)) { candidates.append(ahead) }
            let edges = [(tip.x - bounds.minX, MKMapPoint(x: bounds.minX, y: tip.y)), (bounds.maxX - tip.x, MKMapPoint(x: bounds.maxX, y: tip.y)),
                         (tip.y - bounds.minY, MKMapPoint(x: tip.x, y: bounds.minY)), (bounds.maxY - tip.y, MKMapPoint(x: tip.x, y: bounds.maxY))]
            candidates += edges.sorted { $0.0 < $1.0 }.map(\.1)
            // Far from the edge the end is more likely a break in the coast than the extract's cut,
            // unless the way's next nodes are missing: then the extract did cut it there.
            let limit = end.cut ? Double.infinity : 0.25 * min(bounds.width, bounds.height)
            var usable = candidates.filter { hypot($0.x - tip.x, $0.y - tip.y) <= limit && !crossesCoast(tip, $0, pieces) }
            // A stub of coast from the end to where it leaves the bounds anyway (Monaco's west end
            // dips out 20 m on) is better left out than carried out against its direction.
            if onBoundary(points[0]) && Self.length(points) <= reach { usable.insert(Self.dropStub, at: 0) }
            options.append(usable)
        }
        guard options.allSatisfy({ !$0.isEmpty }) else { return giveUp() }
        // Combinations in order of preference (sum of the choices' ranks), a bounded number of them.
        var tried = 0
        let maximumRank = options.reduce(0) { $0 + $1.count - 1 }
        for total in 0...maximumRank {
            var choice = [Int](repeating: 0, count: ends.count)
            func search(_ e: Int, _ remaining: Int) -> [[MKMapPoint]]? {
                tried += 1
                guard tried < 100_000 else { return nil }
                if e == ends.count {
                    guard remaining == 0 else { return nil }
                    // Whether the walk can work depends on the ends alone: check them before copying points.
                    var entries = pieces.map { perimeterPosition($0.points[0]) }
                    var exits = pieces.map { perimeterPosition($0.points[$0.points.count - 1]) }
                    var gone = Set<Int>()
                    for (k, end) in ends.enumerated() {
                        let target = options[k][choice[k]]
                        if target.x.isNaN { gone.insert(end.piece) }
                        else if end.atStart { entries[end.piece] = perimeterPosition(target) }
                        else { exits[end.piece] = perimeterPosition(target) }
                    }
                    let live = pieces.indices.filter { !gone.contains($0) }
                    guard !live.isEmpty, Self.links(entries: live.map { entries[$0] }, exits: live.map { exits[$0] }) != nil else { return nil }
                    var extended = pieces
                    var dropped = Set<Int>()
                    for (k, end) in ends.enumerated() {
                        let target = options[k][choice[k]]
                        if target.x.isNaN { dropped.insert(end.piece) }
                        else if end.atStart { extended[end.piece].points.insert(target, at: 0) }
                        else { extended[end.piece].points.append(target) }
                    }
                    let kept = extended.indices.filter { !dropped.contains($0) }.map { extended[$0] }
                    guard !kept.isEmpty, let rings = walk(kept) else { return nil }
                    for (k, end) in ends.enumerated() {
                        let piece = pieces[end.piece]
                        let tip = end.atStart ? piece.points[0] : piece.points[piece.points.count - 1]
                        if options[k][choice[k]].x.isNaN {
                            warnings.add("coastline: a stub of coast ending inside the extract at \(Self.describe(tip)) (way \(piece.firstWay)) left out")
                        } else {
                            warnings.add("coastline: coast ending inside the extract at \(Self.describe(tip)) (way \(piece.firstWay)) carried to its edge")
                        }
                    }
                    pieces = kept
                    return rings
                }
                let ranks = e == ends.count - 1 ? (remaining < options[e].count ? remaining..<remaining + 1 : 0..<0)
                                                : 0..<min(options[e].count, remaining + 1)
                for rank in ranks {
                    choice[e] = rank
                    if let rings = search(e + 1, remaining - rank) { return rings }
                }
                return nil
            }
            if let rings = search(0, total) { return rings }
        }
        return giveUp()
    }

    /// The option of leaving a short piece out rather than carrying its end to the bounds.
    private static let dropStub = MKMapPoint(x: .nan, y: .nan)

    static func length(_ points: [MKMapPoint]) -> Double {
        var total = 0.0
        for i in points.indices.dropFirst() { total += hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y) }
        return total
    }

    /// Where a ray from `origin` (inside the bounds) leaves them; nil for no direction.
    private func rayExit(from origin: MKMapPoint, direction d: MKMapPoint) -> MKMapPoint? {
        guard d.x != 0 || d.y != 0, d.x.isFinite, d.y.isFinite else { return nil }
        var t = Double.infinity
        if d.x > 0 { t = min(t, (bounds.maxX - origin.x) / d.x) } else if d.x < 0 { t = min(t, (bounds.minX - origin.x) / d.x) }
        if d.y > 0 { t = min(t, (bounds.maxY - origin.y) / d.y) } else if d.y < 0 { t = min(t, (bounds.minY - origin.y) / d.y) }
        guard t.isFinite, t >= 0 else { return nil }
        // Snapped onto the edge it reaches, so the walk sees it on the boundary.
        var p = MKMapPoint(x: origin.x + t * d.x, y: origin.y + t * d.y)
        p.x = min(max(p.x, bounds.minX), bounds.maxX)
        p.y = min(max(p.y, bounds.minY), bounds.maxY)
        let dx = min(abs(p.x - bounds.minX), abs(p.x - bounds.maxX)), dy = min(abs(p.y - bounds.minY), abs(p.y - bounds.maxY))
        if dx <= dy { p.x = abs(p.x - bounds.minX) < abs(p.x - bounds.maxX) ? bounds.minX : bounds.maxX }
        else { p.y = abs(p.y - bounds.minY) < abs(p.y - bounds.maxY) ? bounds.minY : bounds.maxY }
        return p
    }

    /// Whether the segment from `a` (a piece's end) to `b` touches any coastline other than at `a`.
    private func crossesCoast(_ a: MKMapPoint, _ b: MKMapPoint, _ pieces: [Piece]) -> Bool {
        let box = MKMapRect(boundingPoints: [a, b])
        for piece in pieces {
            let points = piece.points
            for i in 1..<points.count {
                let p = points[i - 1], q = points[i]
                if p == a || q == a {
                    // The coast's own last segment: only turning straight back along it touches it.
                    let other = p == a ? q : p
                    if (other.x - a.x) * (b.y - a.y) == (other.y - a.y) * (b.x - a.x),
                       (other.x - a.x) * (b.x - a.x) + (other.y - a.y) * (b.y - a.y) > 0 { return true }
                    continue
                }
                if max(p.x, q.x) < box.minX || min(p.x, q.x) > box.maxX || max(p.y, q.y) < box.minY || min(p.y, q.y) > box.maxY { continue }
                if Self.segmentsTouch(a, b, p, q) { return true }
            }
        }
        return false
    }

    static func segmentsTouch(_ a: MKMapPoint, _ b: MKMapPoint, _ c: MKMapPoint, _ d: MKMapPoint) -> Bool {
        func cross(_ o: MKMapPoint, _ p: MKMapPoint, _ q: MKMapPoint) -> Double { (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x) }
        func within(_ o: MKMapPoint, _ p: MKMapPoint, _ q: MKMapPoint) -> Bool {
            min(o.x, p.x) <= q.x && q.x <= max(o.x, p.x) && min(o.y, p.y) <= q.y && q.y <= max(o.y, p.y)
        }
        let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        return (d1 == 0 && within(c, d, a)) || (d2 == 0 && within(c, d, b)) || (d3 == 0 && within(a, b, c)) || (d4 == 0 && within(a, b, d))
    }

    // MARK: The walk along the bounds

    /// Where a boundary point lies along the bounds, measured clockwise on the map from the
    /// top-left corner: top edge, right edge, bottom edge, left edge.
    private func perimeterPosition(_ p: MKMapPoint) -> Double {
        let w = bounds.width, h = bounds.height
        let dTop = abs(p.y - bounds.minY), dRight = abs(p.x - bounds.maxX)
        let dBottom = abs(p.y - bounds.maxY), dLeft = abs(p.x - bounds.minX)
        let nearest = min(dTop, dRight, dBottom, dLeft)
        if nearest == dTop { return min(max(p.x - bounds.minX, 0), w) }
        if nearest == dRight { return w + min(max(p.y - bounds.minY, 0), h) }
        if nearest == dBottom { return w + h + min(max(bounds.maxX - p.x, 0), w) }
        return 2 * w + h + min(max(bounds.maxY - p.y, 0), h)
    }

    /// Closes every piece into water rings: from each piece's exit, clockwise along the bounds
    /// (water lies right of the coast, so clockwise from where it leaves) to the next entry. Nil
    /// when the next event along the bounds is another exit: coast directions contradict each other.
    private func walk(_ pieces: [Piece]) -> [[MKMapPoint]]? {
        let perimeter = 2 * (bounds.width + bounds.height)
        let entryPosition = pieces.map { perimeterPosition($0.points[0]) }
        let exitPosition = pieces.map { perimeterPosition($0.points[$0.points.count - 1]) }
        guard let nextPiece = Self.links(entries: entryPosition, exits: exitPosition) else { return nil }
        let w = bounds.width, h = bounds.height
        let corners: [(Double, MKMapPoint)] = [
            (0, MKMapPoint(x: bounds.minX, y: bounds.minY)), (w, MKMapPoint(x: bounds.maxX, y: bounds.minY)),
            (w + h, MKMapPoint(x: bounds.maxX, y: bounds.maxY)), (2 * w + h, MKMapPoint(x: bounds.minX, y: bounds.maxY)),
        ]
        var rings: [[MKMapPoint]] = []
        var done = [Bool](repeating: false, count: pieces.count)
        for start in pieces.indices where !done[start] {
            var ring: [MKMapPoint] = []
            var index = start
            while !done[index] {
                done[index] = true
                ring += pieces[index].points
                let next = nextPiece[index]
                // The corners passed going clockwise from this exit to the next entry.
                let from = exitPosition[index]
                var span = entryPosition[next] - from
                if span < 0 { span += perimeter }
                for (position, corner) in corners.map({ ($0.0 - from < 0 ? $0.0 - from + perimeter : $0.0 - from, $0.1) })
                    .sorted(by: { $0.0 < $1.0 }) where position > 0 && position < span {
                    ring.append(corner)
                }
                index = next
            }
            guard index == start else { return nil }  // joined into another ring's middle: inconsistent
            if let first = ring.first { ring.append(first) }
            if ring.count >= 4, PlanarPolygon.signedArea(ring) > 0 { rings.append(ring) }
        }
        return rings
    }

    /// For each piece, the piece whose entry comes next clockwise along the bounds after its exit;
    /// nil when an exit comes next instead (the coast's directions contradict each other).
    static func links(entries: [Double], exits: [Double]) -> [Int]? {
        // Events along the bounds; at one position an exit sorts before an entry, so a coast
        // touching the bounds and turning back links to itself.
        struct Event { var position: Double; var piece: Int; var isEntry: Bool }
        var events: [Event] = []
        events.reserveCapacity(2 * entries.count)
        for index in entries.indices {
            events.append(Event(position: entries[index], piece: index, isEntry: true))
            events.append(Event(position: exits[index], piece: index, isEntry: false))
        }
        events.sort { $0.position != $1.position ? $0.position < $1.position : (!$0.isEntry && $1.isEntry) }
        var next = [Int](repeating: -1, count: entries.count)
        for (k, event) in events.enumerated() where !event.isEntry {
            let following = events[(k + 1) % events.count]
            guard following.isEntry else { return nil }
            next[event.piece] = following.piece
        }
        return next
    }

    // MARK: Splitting

    /// The polygon cut along tile boundaries into parts of at most ``maximumVertices`` vertices.
    private func split(_ polygon: [[MKMapPoint]]) -> [[[MKMapPoint]]] {
        var result: [[[MKMapPoint]]] = []
        var work: [([[MKMapPoint]], TileID)] = [(polygon, Self.enclosingTile(MKMapRect(boundingPoints: polygon[0])))]
        while let (part, tile) = work.popLast() {
            let count = part.reduce(0) { $0 + $1.count }
            guard count > maximumVertices, tile.z < 14 else {
                result.append(part)
                continue
            }
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                guard let child = TileID(z: tile.z + 1, x: 2 * tile.x + dx, y: 2 * tile.y + dy) else { continue }
                for piece in Clipping.clipPolygonParts(part, to: child.mapRect) { work.append((piece, child)) }
            }
        }
        return result
    }

    /// The deepest tile holding all of `rect`.
    static func enclosingTile(_ rect: MKMapRect) -> TileID {
        var tile = TileID(z: 0, x: 0, y: 0)!
        for z in 1...14 {
            let a = TileID(containing: MKMapPoint(x: rect.minX, y: rect.minY), zoom: z)
            let b = TileID(containing: MKMapPoint(x: rect.maxX, y: rect.maxY), zoom: z)
            guard a == b else { break }
            tile = a
        }
        return tile
    }

    // MARK: Geometry helpers

    private func onBoundary(_ p: MKMapPoint) -> Bool {
        p.x == bounds.minX || p.x == bounds.maxX || p.y == bounds.minY || p.y == bounds.maxY
    }

    static func closedContains(_ rect: MKMapRect, _ p: MKMapPoint) -> Bool {
        p.x >= rect.minX && p.x <= rect.maxX && p.y >= rect.minY && p.y <= rect.maxY
    }

    /// Whether `ring` lies inside `other`: rings of a valid coastline never cross, so one vertex decides.
    static func ring(_ ring: [MKMapPoint], isInside other: [MKMapPoint]) -> Bool {
        guard let probe = ring.first else { return false }
        return PlanarPolygon.contains(probe, in: [other])
    }

    static func describe(_ p: MKMapPoint) -> String {
        let c = p.coordinate
        return String(format: "%.5f N, %.5f E", c.latitude, c.longitude)
    }

    /// Warnings: at most ``CoastlineAssembler/warningLimit`` details listed and the rest counted;
    /// conclusions (why no sea was made) are always kept.
    struct Warnings {
        private var details: [String] = []
        private var conclusions: [String] = []
        private var dropped = 0

        mutating func add(_ warning: String) {
            if details.count < CoastlineAssembler.warningLimit { details.append(warning) } else { dropped += 1 }
        }

        mutating func conclude(_ warning: String) { conclusions.append(warning) }

        var list: [String] { details + (dropped > 0 ? ["coastline: \(dropped) more warning(s)"] : []) + conclusions }
    }
}
