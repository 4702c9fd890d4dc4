import Foundation
import MapGeometry
import MapRouting

// Turn-by-turn guidance: a `RoutePath` from MapRouting turned into the steps `MKRoute.Step`
// carries. Everything here is a pure function of the path (and the query points), so the wording
// can be tested on hand-built paths without a road graph.

/// One instruction and the stretch of route it covers.
struct GuidanceStep: Sendable {
    /// What to do at the start of the stretch, in English ("Turn left onto Avenue de la Costa").
    var instructions: String
    /// Something to know about the stretch (a toll, a ferry), or nil.
    var notice: String?
    /// The stretch's shape: a slice of the route's coordinates, sharing its first point with the
    /// previous step's last and its last with the next step's first.
    var coordinates: [CLLocationCoordinate2D]
    /// Metres along the route.
    var distance: Double
}

enum RouteGuidance {
    // Turn angles in degrees (positive = right): below `straight` the road is followed; a junction
    // with another way out closer than `forkSpread` to the one taken is a fork ("Keep left").
    static let straight = 25.0, slight = 45.0, sharp = 135.0, uTurn = 165.0
    static let forkSpread = 60.0
    /// A turn at least this sharp is worth saying even where the road is the only way on.
    static let bendWorthSaying = 60.0

    /// The steps of `path`, as MapKit lays them out: a first step with empty instructions at the
    /// start (MapKit's first step is the starting point, not a manoeuvre; apps that skip
    /// `steps[0]` keep working), then "Head north on …", one step per manoeuvre, and a last,
    /// zero-length "Arrive at the destination" step. `destination` is the point that was asked
    /// for (before snapping to the road), used to say on which side it lies.
    static func steps(for path: RoutePath, destination: CLLocationCoordinate2D? = nil) -> [GuidanceStep] {
        let coordinates = path.coordinates
        guard let first = coordinates.first, let last = coordinates.last else { return [] }
        let along = cumulativeLengths(coordinates, total: path.distance)
        var events = maneuvers(in: path).filter { $0.index >= 0 && $0.index < coordinates.count }
        // A zero-length step helps no one: of two manoeuvres at one point the later one is the
        // one the driver acts on.
        let all = events
        events = all.enumerated().filter { index, event in
            index + 1 >= all.count || all[index + 1].index > event.index
        }.map(\.element)

        var steps = [GuidanceStep(instructions: "", notice: nil, coordinates: [first], distance: 0)]
        for (n, event) in events.enumerated() {
            let end = n + 1 < events.count ? events[n + 1].index : coordinates.count - 1
            guard end >= event.index else { continue }
            steps.append(GuidanceStep(instructions: event.text, notice: event.notice,
                                      coordinates: Array(coordinates[event.index...end]),
                                      distance: max(0, along[end] - along[event.index])))
        }
        var arrive = "Arrive at the destination"
        if let destination, let side = side(of: destination, coordinates: coordinates) { arrive += ", on the \(side)" }
        steps.append(GuidanceStep(instructions: arrive, notice: nil, coordinates: [last], distance: 0))
        return steps
    }

    /// A manoeuvre: where it starts on the route and what to say.
    struct Event {
        var index: Int
        var text: String
        var notice: String?
    }

    /// Every point where the traveller has to be told something, in route order, starting with
    /// the departure at index 0.
    static func maneuvers(in path: RoutePath) -> [Event] {
        // Ranges outside the shape would be a graph bug; guidance skips them rather than trap.
        let segments = path.segments.filter { !$0.coordinateRange.isEmpty && $0.coordinateRange.lowerBound >= 0
            && $0.coordinateRange.upperBound <= path.coordinates.count }
        guard let firstSegment = segments.first else {
            return path.coordinates.count > 1 ? [Event(index: 0, text: "Head \(compass(initialBearing(path.coordinates, from: 0)))")] : []
        }
        var events: [Event] = []
        let startName = displayName(firstSegment)
        if firstSegment.isFerry {
            events.append(Event(index: 0, text: "Take the ferry" + (startName.map { " (\($0))" } ?? ""), notice: notice(for: firstSegment)))
        } else {
            let heading = compass(initialBearing(path.coordinates, from: firstSegment.coordinateRange.lowerBound))
            events.append(Event(index: 0, text: "Head \(heading)" + (startName.map { " on \($0)" } ?? ""), notice: notice(for: firstSegment)))
        }

        var i = 0
        // The last name the route ran along: going straight on from an unnamed stretch (a
        // bridge, a crossing) back onto that street is no new street to announce.
        var lastName: String? = nil
        while i < segments.count {
            let current = segments[i]
            if let name = displayName(current) { lastName = name }
            if !current.isRoundabout && !current.isFerry {
                events += turnsWithinSegment(current, coordinates: path.coordinates)
            }
            guard i + 1 < segments.count else { break }
            let next = segments[i + 1]
            let at = next.coordinateRange.lowerBound
            let junction = current.junctions.last { $0.coordinateIndex == at }
            let nextName = displayName(next), currentName = displayName(current)

            if next.isRoundabout && !current.isRoundabout {
                // The whole roundabout is one manoeuvre: count the ways out passed on the way round.
                var m = i + 1
                while m < segments.count && segments[m].isRoundabout { m += 1 }
                guard m < segments.count else {
                    events.append(Event(index: at, text: "Enter the roundabout", notice: notice(for: next)))
                    break
                }
                let exitIndex = segments[m].coordinateRange.lowerBound
                // Car park aisles and driveways off the roundabout are no exits to count, unless
                // the route itself leaves by one.
                let exitJunction = segments[m - 1].junctions.last { $0.coordinateIndex == exitIndex }
                let leavesByMinorWay = exitJunction.map(takesMinorWay) ?? false
                var exits = 1
                for segment in segments[(i + 1)..<m] {
                    for passed in segment.junctions where passed.coordinateIndex != exitIndex {
                        exits += otherExits(passed, includingMinor: leavesByMinorWay).count
                    }
                }
                let onto = displayName(segments[m]).map { " onto \($0)" } ?? ""
                events.append(Event(index: at, text: "At the roundabout, take the \(ordinal(exits)) exit\(onto)",
                                    notice: notice(for: segments[m])))
                i = m
                continue
            }
            defer { i += 1 }
            if current.isRoundabout && !next.isRoundabout {
                // Only reached when the route started on the roundabout.
                events.append(Event(index: at, text: "Exit the roundabout" + (nextName.map { " onto \($0)" } ?? ""), notice: notice(for: next)))
                continue
            }
            if next.isFerry && !current.isFerry {
                events.append(Event(index: at, text: "Take the ferry" + (nextName.map { " (\($0))" } ?? ""), notice: notice(for: next)))
                continue
            }
            if current.isFerry && !next.isFerry {
                events.append(Event(index: at, text: "Leave the ferry" + (nextName.map { " onto \($0)" } ?? ""), notice: notice(for: next)))
                continue
            }
            let angle = turnAngle(junction: junction, coordinates: path.coordinates, at: at)
            let others = junction.map { j in otherExits(j).map { normalize($0 - (j.arrivedBearing + 180)) } } ?? []
            let renamed = nextName != nil && nextName != currentName
            let onto = nextName.map { renamed ? " onto \($0)" : " to stay on \($0)" } ?? ""

            if abs(angle) >= uTurn {
                events.append(Event(index: at, text: "Make a U-turn" + onto, notice: notice(for: next)))
            } else if isHighway(current) && next.roadClass.hasSuffix("_link") {
                events.append(Event(index: at, text: "Take the exit" + (nextName.map { " onto \($0)" } ?? ""), notice: notice(for: next)))
            } else if current.roadClass.hasSuffix("_link") && isHighway(next) {
                events.append(Event(index: at, text: "Merge" + (nextName.map { " onto \($0)" } ?? ""), notice: notice(for: next)))
            } else if abs(angle) < slight, let nearest = others.min(by: { abs($0 - angle) < abs($1 - angle) }),
                      abs(nearest) < forkSpread {
                // Two ways on, both roughly ahead: which side of the fork matters, not the angle.
                let side = angle < nearest ? "left" : "right"
                events.append(Event(index: at, text: "Keep \(side)" + onto, notice: notice(for: next)))
            } else if abs(angle) < straight || (others.isEmpty && abs(angle) < bendWorthSaying) {
                // Straight on (or the road simply bends): only a new name is worth a word.
                if renamed, let nextName, !(currentName == nil && nextName == lastName) {
                    events.append(Event(index: at, text: "Continue onto \(nextName)", notice: notice(for: next)))
                } else if next.isToll && !current.isToll {
                    events.append(Event(index: at, text: "Continue" + onto, notice: notice(for: next)))
                }
            } else {
                events.append(Event(index: at, text: turnPhrase(angle) + onto, notice: notice(for: next)))
            }
        }
        return events
    }

    /// Turns inside one named stretch: where the road itself turns off while another way goes on
    /// straighter, the driver needs telling ("Turn left to stay on Rue Grimaldi").
    static func turnsWithinSegment(_ segment: RouteSegment, coordinates: [CLLocationCoordinate2D]) -> [Event] {
        var events: [Event] = []
        let end = segment.coordinateRange.upperBound - 1
        let stay = displayName(segment).map { " to stay on \($0)" } ?? ""
        for junction in segment.junctions where junction.coordinateIndex > segment.coordinateRange.lowerBound && junction.coordinateIndex < end {
            let angle = turnAngle(junction: junction, coordinates: coordinates, at: junction.coordinateIndex)
            guard abs(angle) >= slight else { continue }
            let others = otherExits(junction).map { normalize($0 - (junction.arrivedBearing + 180)) }
            // A U-turn is always worth saying; a turn only where another way goes on straighter.
            guard abs(angle) >= uTurn || others.contains(where: { abs($0) < abs(angle) - 30 }) else { continue }
            events.append(Event(index: junction.coordinateIndex, text: (abs(angle) >= uTurn ? "Make a U-turn" : turnPhrase(angle)) + stay))
        }
        // Turning back where no other road meets (a dead end, a turning circle) leaves no
        // junction behind, only the shape doubling back on itself.
        let atJunction = Set(segment.junctions.map(\.coordinateIndex))
        if segment.coordinateRange.lowerBound + 1 < end {
            // A point repeated in the shape turns once, at its first copy.
            for i in (segment.coordinateRange.lowerBound + 1)..<end where !atJunction.contains(i)
                && mayTurnBack(coordinates, at: i)
                && distance(coordinates[i - 1], coordinates[i]) >= 0.5
                && abs(turnAngle(junction: nil, coordinates: coordinates, at: i)) >= uTurn {
                events.append(Event(index: i, text: "Make a U-turn" + stay))
            }
        }
        return events.sorted { $0.index < $1.index }
    }

    /// A cheap test that rules out most shape points before the geodesic turn angle is measured
    /// (five geodesic solutions a point made step building four times slower): false only where
    /// both neighbours are over a metre away and, on a local flat projection, the shape turns by
    /// less than 135° there — far from the 165° of a U-turn, beyond any error of the projection
    /// over a few hundred metres. Everything else goes on to the exact test.
    static func mayTurnBack(_ c: [CLLocationCoordinate2D], at i: Int) -> Bool {
        guard i > 0, i + 1 < c.count else { return true }
        let scale = cos(c[i].latitude * .pi / 180)
        let ax = (c[i].longitude - c[i - 1].longitude) * scale, ay = c[i].latitude - c[i - 1].latitude
        let bx = (c[i + 1].longitude - c[i].longitude) * scale, by = c[i + 1].latitude - c[i].latitude
        let metresPerDegree = 111_000.0
        let la = (ax * ax + ay * ay).squareRoot() * metresPerDegree, lb = (bx * bx + by * by).squareRoot() * metresPerDegree
        guard la > 1, lb > 1 else { return true }
        // The angle between the incoming and outgoing directions; a U-turn is one near 180°.
        let cosine = (ax * bx + ay * by) * metresPerDegree * metresPerDegree / (la * lb)
        return cosine < cos(135 * Double.pi / 180)
    }

    /// "Turn left", "Turn slightly right", "Turn sharp left" for a turn angle (positive = right).
    static func turnPhrase(_ angle: Double) -> String {
        let side = angle < 0 ? "left" : "right"
        switch abs(angle) {
        case ..<slight: return "Turn slightly \(side)"
        case ..<sharp: return "Turn \(side)"
        default: return "Turn sharp \(side)"
        }
    }

    /// The bearings by which the traveller could have left `junction` but did not (allowed for
    /// the mode, neither the way taken nor the way back).
    /// With `includingMinor` false, parking aisles, driveways and garage entrances are left out.
    static func otherExits(_ junction: RouteJunction, includingMinor: Bool = true) -> [Double] {
        guard !junction.bearings.isEmpty else { return [] }
        // On a U-turn the way taken and the way back share a bearing: they still count as two.
        let back = nearestIndex(junction.bearings, to: junction.arrivedBearing, excluding: nil)
        let taken = nearestIndex(junction.bearings, to: junction.takenBearing, excluding: back)
        return junction.bearings.indices.compactMap { k in
            guard k != taken, k != back, k < junction.exitAllowed.count, junction.exitAllowed[k] else { return nil }
            if !includingMinor, k < junction.exitIsMinor.count, junction.exitIsMinor[k] { return nil }
            return junction.bearings[k]
        }
    }

    /// Whether the way the route leaves `junction` by is a parking aisle, driveway or garage entrance.
    static func takesMinorWay(_ junction: RouteJunction) -> Bool {
        let back = nearestIndex(junction.bearings, to: junction.arrivedBearing, excluding: nil)
        guard let taken = nearestIndex(junction.bearings, to: junction.takenBearing, excluding: back),
              taken < junction.exitIsMinor.count else { return false }
        return junction.exitIsMinor[taken]
    }

    private static func nearestIndex(_ bearings: [Double], to bearing: Double, excluding: Int?) -> Int? {
        bearings.indices.filter { $0 != excluding }.min { abs(normalize(bearings[$0] - bearing)) < abs(normalize(bearings[$1] - bearing)) }
    }

    /// The turn at coordinate `at`, from the junction's bearings when there is one, else from the
    /// route's own shape (the edges before and after the point).
    static func turnAngle(junction: RouteJunction?, coordinates: [CLLocationCoordinate2D], at: Int) -> Double {
        if let junction, junction.takenBearing.isFinite, junction.arrivedBearing.isFinite {
            return normalize(junction.takenBearing - (junction.arrivedBearing + 180))
        }
        guard let incoming = bearingBefore(coordinates, at: at), let outgoing = bearingAfter(coordinates, at: at) else { return 0 }
        return normalize(outgoing - incoming)
    }

    /// An angle in (-180, 180].
    static func normalize(_ angle: Double) -> Double {
        guard angle.isFinite else { return 0 }
        var a = angle.truncatingRemainder(dividingBy: 360)
        if a > 180 { a -= 360 }
        if a <= -180 { a += 360 }
        return a
    }

    private static func bearingBefore(_ c: [CLLocationCoordinate2D], at: Int) -> Double? {
        guard at > 0, at < c.count else { return nil }
        var k = at - 1
        while k > 0 && distance(c[k], c[at]) < 0.5 { k -= 1 }
        return distance(c[k], c[at]) < 0.01 ? nil : bearing(c[k], c[at])
    }

    private static func bearingAfter(_ c: [CLLocationCoordinate2D], at: Int) -> Double? {
        guard at >= 0, at + 1 < c.count else { return nil }
        var k = at + 1
        while k + 1 < c.count && distance(c[at], c[k]) < 0.5 { k += 1 }
        return distance(c[at], c[k]) < 0.01 ? nil : bearing(c[at], c[k])
    }

    static func initialBearing(_ c: [CLLocationCoordinate2D], from index: Int) -> Double {
        bearingAfter(c, at: index) ?? 0
    }

    /// "north", "northeast", … for a compass bearing.
    static func compass(_ bearing: Double) -> String {
        let names = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
        let b = (normalize(bearing) + 360).truncatingRemainder(dividingBy: 360)
        return names[Int(((b + 22.5) / 45).rounded(.down)) % 8]
    }

    static func ordinal(_ n: Int) -> String {
        let suffix: String
        switch (n % 10, n % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }

    /// The name a traveller sees on the signs: the street name, else the road number.
    static func displayName(_ segment: RouteSegment) -> String? {
        if let name = segment.name?.trimmingWhitespace(), !name.isEmpty { return name }
        if let ref = segment.ref?.trimmingWhitespace(), !ref.isEmpty { return ref }
        return nil
    }

    static func notice(for segment: RouteSegment) -> String? {
        if segment.isFerry { return "This step is a ferry crossing." }
        if segment.isToll { return "Toll road." }
        return nil
    }

    private static func isHighway(_ segment: RouteSegment) -> Bool {
        segment.isMotorway || segment.roadClass == "motorway" || segment.roadClass == "trunk"
    }

    /// "left" or "right": the side of the road, seen in the direction of travel at the end of the
    /// route, on which `destination` lies; nil when it is on the road itself or ahead/behind.
    static func side(of destination: CLLocationCoordinate2D, coordinates: [CLLocationCoordinate2D]) -> String? {
        guard CLLocationCoordinate2DIsValid(destination), let end = coordinates.last,
              let heading = bearingBefore(coordinates, at: coordinates.count - 1) else { return nil }
        let offset = distance(end, destination)
        guard offset >= 3 else { return nil }
        let angle = normalize(bearing(end, destination) - heading)
        // Only clearly beside the road: not ahead of or behind the end point.
        guard abs(angle) >= 30 && abs(angle) <= 150 else { return nil }
        return angle < 0 ? "left" : "right"
    }

    /// The route's name, as MapKit gives it: its most significant roads, weighted by length and
    /// road class ("Boulevard du Larvotto and Avenue Princesse Grace"); empty when no road on it
    /// has a name.
    static func routeName(_ path: RoutePath) -> String {
        var weight: [String: Double] = [:], order: [String] = []
        for segment in path.segments where !segment.isFerry {
            guard let name = displayName(segment) else { continue }
            if weight[name] == nil { order.append(name) }
            weight[name, default: 0] += segment.distance * significance(segment.roadClass)
        }
        let ranked = order.sorted { weight[$0]! > weight[$1]! }
        guard let top = ranked.first else { return "" }
        // A second road joins the name only when it carries a good part of the route.
        if ranked.count > 1, weight[ranked[1]]! >= 0.5 * weight[top]! { return "\(top) and \(ranked[1])" }
        return top
    }

    private static func significance(_ roadClass: String) -> Double {
        switch roadClass.hasSuffix("_link") ? roadClass.dropLast(5) : Substring(roadClass) {
        case "motorway": 5
        case "trunk": 4
        case "primary": 3
        case "secondary": 2.5
        case "tertiary": 2
        case "unclassified", "residential", "living_street", "cycleway": 1.2
        case "service", "track": 0.6
        default: 1
        }
    }

    /// Metres from the first coordinate to each coordinate, scaled so the last is `total` (the
    /// graph's own distance) and the steps' distances add up to the route's.
    static func cumulativeLengths(_ c: [CLLocationCoordinate2D], total: Double) -> [Double] {
        var along = [0.0]
        along.reserveCapacity(c.count)
        // Haversine, not the geodesic: the lengths are rescaled to the graph's total anyway, and
        // one geodesic inverse per shape point cost more than the route query itself.
        for k in c.indices.dropFirst() { along.append(along[k - 1] + haversine(c[k - 1], c[k])) }
        if let length = along.last, length > 0, total.isFinite, total > 0 {
            let scale = total / length
            along = along.map { $0 * scale }
        }
        return along
    }

    /// Great-circle metres on the mean Earth radius (within 0.5% of the geodesic).
    static func haversine(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D) -> Double {
        let rad = Double.pi / 180
        let dphi = (b.latitude - a.latitude) * rad, dl = (b.longitude - a.longitude) * rad
        let h = sin(dphi / 2) * sin(dphi / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dl / 2) * sin(dl / 2)
        let d = 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
        return d.isFinite ? d : 0
    }

    static func distance(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D) -> Double {
        let d = Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude).distance
        return d.isFinite ? d : 0
    }

    static func bearing(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D) -> Double {
        Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude).azimuth1
    }

    /// Warnings for the whole route (MapKit's `advisoryNotices`).
    static func advisoryNotices(_ path: RoutePath) -> [String] {
        var notices: [String] = []
        if path.hasTolls || path.segments.contains(where: \.isToll) { notices.append("This route has tolls.") }
        if path.segments.contains(where: \.isFerry) { notices.append("This route includes a ferry.") }
        return notices
    }
}
