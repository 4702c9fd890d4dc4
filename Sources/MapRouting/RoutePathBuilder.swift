import Foundation
import MapGeometry

extension RouteQuery {
    /// A stretch of one graph node's edge as travelled: metres `from`…`to` along the travel direction.
    private func stretch(_ index: Int, of path: FoundPath) -> (edge: Int, reversed: Bool, from: Double, to: Double) {
        let node = Int(path.nodes[index])
        let o = Int(g.origin[node])
        let e = o >> 1, reversed = o & 1 == 1
        let length = g.edge(e).length
        func along(_ snap: Snap) -> Double { reversed ? length - snap.offset : snap.offset }
        // A route may start (end) on another road of the junction the point was snapped to.
        let from = index == 0 && e == source.edge ? along(source) : 0
        let to = index == path.nodes.count - 1 && e == target.edge ? along(target) : length
        return (e, reversed, min(from, to), max(from, to))
    }

    private func time(_ s: (edge: Int, reversed: Bool, from: Double, to: Double)) -> Double {
        let edge = g.edge(s.edge)
        let full = Double(s.reversed ? edge.backwardMs : edge.forwardMs) / 1000
        return edge.length > 0 ? full * (s.to - s.from) / edge.length : (s.to > s.from ? full : 0)
    }

    /// Distance and travel time without the shape.
    func totals(_ path: FoundPath) -> (distance: Double, travelTime: Double) {
        var distance = 0.0, time = 0.0
        for i in path.nodes.indices {
            let s = stretch(i, of: path)
            distance += s.to - s.from
            time += self.time(s) + Double(path.penalties[i]) / 1000
        }
        return (distance, time)
    }

    /// The edge's points in travel order with their distance along it.
    private func points(edge e: Int, reversed: Bool) -> [(CLLocationCoordinate2D, Double)] {
        let edge = g.edge(e)
        var result: [(CLLocationCoordinate2D, Double)] = []
        result.reserveCapacity(edge.geometryCount)
        var along = 0.0
        for k in 0..<edge.geometryCount {
            let i = reversed ? edge.geometryStart + edge.geometryCount - 1 - k : edge.geometryStart + k
            if k > 0 {
                let j = reversed ? i + 1 : i - 1
                along += metresE7(g.geometry[2 * j], g.geometry[2 * j + 1], g.geometry[2 * i], g.geometry[2 * i + 1])
            }
            result.append((g.point(i), along))
        }
        return result
    }

    /// The bearing leaving junction-end `code` (edge * 2 + end) along its edge.
    private func bearing(leaving code: Int) -> Double {
        let edge = g.edge(code >> 1)
        let a: Int, b: Int
        if code & 1 == 0 { a = edge.geometryStart; b = a + 1 } else { a = edge.geometryStart + edge.geometryCount - 1; b = a - 1 }
        return bearingE7(g.geometry[2 * a], g.geometry[2 * a + 1], g.geometry[2 * b], g.geometry[2 * b + 1])
    }

    func path(_ found: FoundPath, mode: TravelMode) -> RoutePath {
        var coordinates: [CLLocationCoordinate2D] = []
        var segments: [RouteSegment] = []
        var totalDistance = 0.0, totalTime = 0.0
        var hasTolls = false, hasMotorways = false
        // A route starting or ending exactly at a junction may begin or end with an empty stretch
        // of the edge snapped to; it is no part of the journey.
        var indices = Array(found.nodes.indices)
        if indices.count > 1, stretch(indices[0], of: found).to - stretch(indices[0], of: found).from < 0.01 { indices.removeFirst() }
        if indices.count > 1, let last = indices.last, stretch(last, of: found).to - stretch(last, of: found).from < 0.01 { indices.removeLast() }
        for (position, i) in indices.enumerated() {
            let s = stretch(i, of: found)
            let pts = points(edge: s.edge, reversed: s.reversed)
            func interpolate(_ at: Double) -> CLLocationCoordinate2D {
                guard let k = pts.firstIndex(where: { $0.1 >= at }), k > 0 else { return at <= 0 ? pts[0].0 : pts[pts.count - 1].0 }
                let (a, da) = pts[k - 1], (b, db) = pts[k]
                let t = db > da ? (at - da) / (db - da) : 0
                return CLLocationCoordinate2D(latitude: a.latitude + (b.latitude - a.latitude) * t,
                                              longitude: a.longitude + (b.longitude - a.longitude) * t)
            }
            var piece = [interpolate(s.from)]
            for (p, d) in pts where d > s.from && d < s.to { piece.append(p) }
            piece.append(interpolate(s.to))
            let startIndex = coordinates.isEmpty ? 0 : coordinates.count - 1
            if coordinates.isEmpty { coordinates = piece } else { coordinates += piece.dropFirst() }
            let endIndex = coordinates.count - 1
            let distance = s.to - s.from
            let seconds = time(s) + Double(found.penalties[i]) / 1000
            totalDistance += distance
            totalTime += seconds
            let info = g.info(ofEdge: s.edge)
            if info.flags & WayFlags.toll != 0 { hasTolls = true }
            if info.flags & WayFlags.motorway != 0 { hasMotorways = true }
            let wayID = g.wayID(ofEdge: s.edge)
            if let last = segments.last, last.name == info.name, last.ref == info.ref, last.roadClass == info.roadClass {
                var segment = last
                segments.removeLast()
                if segment.wayIDs.last != wayID { segment.wayIDs.append(wayID) }
                segment.coordinateRange = segment.coordinateRange.lowerBound..<(endIndex + 1)
                segment.distance += distance
                segment.travelTime += seconds
                segment.isRoundabout = segment.isRoundabout || info.flags & WayFlags.roundabout != 0
                segment.isToll = segment.isToll || info.flags & WayFlags.toll != 0
                segments.append(segment)
            } else {
                segments.append(RouteSegment(name: info.name, ref: info.ref, wayIDs: [wayID], coordinateRange: startIndex..<(endIndex + 1),
                                             distance: distance, travelTime: seconds, roadClass: info.roadClass,
                                             isRoundabout: info.flags & WayFlags.roundabout != 0, isToll: info.flags & WayFlags.toll != 0,
                                             isMotorway: info.flags & WayFlags.motorway != 0, isFerry: info.flags & WayFlags.ferry != 0,
                                             junctions: []))
            }
            // The junction at this stretch's end, when another road meets there.
            guard position + 1 < indices.count else { continue }
            let edge = g.edge(s.edge)
            let j = s.reversed ? edge.from : edge.to
            let ends = Int(g.incidentOffsets[j])..<Int(g.incidentOffsets[j + 1])
            guard ends.count > 2 else { continue }
            var bearings: [Double] = [], allowed: [Bool] = [], minor: [Bool] = []
            for k in ends {
                let code = Int(g.incident[k])
                bearings.append(bearing(leaving: code))
                let other = g.edge(code >> 1)
                allowed.append((code & 1 == 0 ? other.forwardMs : other.backwardMs) != .max)
                minor.append(g.flags(ofEdge: code >> 1) & WayFlags.minorService != 0)
            }
            let next = stretch(i + 1, of: found)
            let taken = bearing(leaving: next.edge * 2 + (next.reversed ? 1 : 0))
            let arrived = bearing(leaving: s.edge * 2 + (s.reversed ? 0 : 1))
            segments[segments.count - 1].junctions.append(RouteJunction(coordinateIndex: endIndex, bearings: bearings, takenBearing: taken,
                                                                        arrivedBearing: arrived, exitAllowed: allowed,
                                                                        exitIsMinor: minor))
        }
        return RoutePath(coordinates: coordinates, distance: totalDistance, travelTime: totalTime, segments: segments,
                         hasTolls: hasTolls, hasMotorways: hasMotorways, mode: mode)
    }
}
