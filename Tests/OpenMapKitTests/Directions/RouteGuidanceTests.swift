import Foundation
@testable import MapRouting
@testable import OpenMapKit
import XCTest

/// Builds a `RoutePath` leg by leg, the way a road graph would report it: each leg heads off on a
/// compass bearing for some metres; a new road starts a new segment, with a junction at the
/// shared point listing the other roads there.
private struct PathBuilder {
    var coordinates: [CLLocationCoordinate2D]
    var segments: [RouteSegment] = []
    var headings: [Double] = []      // heading of the leg ending at each coordinate (index-aligned from 1)
    var mode: TravelMode = .automobile

    init(start: CLLocationCoordinate2D = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)) {
        coordinates = [start]
        headings = [0]
    }

    var end: CLLocationCoordinate2D { coordinates[coordinates.count - 1] }

    static func offset(_ c: CLLocationCoordinate2D, bearing: Double, metres: Double) -> CLLocationCoordinate2D {
        let d = Geodesic.wgs84.direct(latitude1: c.latitude, longitude1: c.longitude, azimuth1: bearing, distance: metres)
        return CLLocationCoordinate2D(latitude: d.latitude2, longitude: d.longitude2)
    }

    private mutating func addLeg(heading: Double, metres: Double) {
        coordinates.append(Self.offset(end, bearing: heading, metres: metres))
        headings.append(heading)
    }

    /// A junction at the current end point, arriving by the last leg and leaving on `heading`,
    /// with other roads leaving on `others` (`allowed` says which of them the mode may take).
    private func junction(leaving heading: Double, others: [Double], allowed: [Bool]?, minor: [Bool]? = nil,
                          takenIsMinor: Bool = false) -> RouteJunction {
        let back = (headings[headings.count - 1] + 180).truncatingRemainder(dividingBy: 360)
        return RouteJunction(coordinateIndex: coordinates.count - 1, bearings: [back, heading] + others,
                             takenBearing: heading, arrivedBearing: back,
                             exitAllowed: [true, true] + (allowed ?? others.map { _ in true }),
                             exitIsMinor: [false, takenIsMinor] + (minor ?? others.map { _ in false }))
    }

    /// A new road: a new segment starting at the current end.
    mutating func road(_ name: String?, heading: Double, metres: Double, roadClass: String = "residential",
                       others: [Double] = [], allowed: [Bool]? = nil, roundabout: Bool = false, ferry: Bool = false,
                       toll: Bool = false, ref: String? = nil, minor: [Bool]? = nil, isMinor: Bool = false) {
        if !segments.isEmpty {
            segments[segments.count - 1].junctions.append(junction(leaving: heading, others: others, allowed: allowed,
                                                                   minor: minor, takenIsMinor: isMinor))
        }
        let start = coordinates.count - 1
        addLeg(heading: heading, metres: metres)
        segments.append(RouteSegment(name: name, ref: ref, wayIDs: [Int64(segments.count + 1)],
                                     coordinateRange: start..<coordinates.count, distance: metres, travelTime: metres / 10,
                                     roadClass: ferry ? "ferry" : roadClass, isRoundabout: roundabout, isToll: toll,
                                     isMotorway: roadClass == "motorway", isFerry: ferry, junctions: []))
    }

    /// The same road goes on in another direction from the current end (a junction inside the
    /// segment when `others` is not empty; a mere bend otherwise).
    mutating func bend(heading: Double, metres: Double, others: [Double] = [], allowed: [Bool]? = nil) {
        if !others.isEmpty {
            segments[segments.count - 1].junctions.append(junction(leaving: heading, others: others, allowed: allowed))
        }
        addLeg(heading: heading, metres: metres)
        segments[segments.count - 1].coordinateRange = segments[segments.count - 1].coordinateRange.lowerBound..<coordinates.count
        segments[segments.count - 1].distance += metres
        segments[segments.count - 1].travelTime += metres / 10
    }

    var path: RoutePath {
        RoutePath(coordinates: coordinates, distance: segments.reduce(0) { $0 + $1.distance },
                  travelTime: segments.reduce(0) { $0 + $1.travelTime }, segments: segments,
                  hasTolls: segments.contains { $0.isToll }, hasMotorways: segments.contains { $0.isMotorway }, mode: mode)
    }
}

/// The English turn-by-turn wording and the step layout, on hand-built paths.
final class RouteGuidanceTests: XCTestCase {
    private func instructions(_ path: RoutePath, destination: CLLocationCoordinate2D? = nil) -> [String] {
        RouteGuidance.steps(for: path, destination: destination).map(\.instructions)
    }

    /// Step polylines chain: each starts where the previous ended, and together they are the route.
    private func assertChains(_ path: RoutePath, file: StaticString = #filePath, line: UInt = #line) {
        let steps = RouteGuidance.steps(for: path)
        var joined: [CLLocationCoordinate2D] = []
        for step in steps {
            XCTAssertFalse(step.coordinates.isEmpty, file: file, line: line)
            if let last = joined.last {
                XCTAssertEqual(step.coordinates.first, last, "a step does not start where the previous ended", file: file, line: line)
                joined += step.coordinates.dropFirst()
            } else {
                joined = step.coordinates
            }
        }
        XCTAssertEqual(joined, path.coordinates, file: file, line: line)
        XCTAssertEqual(steps.reduce(0) { $0 + $1.distance }, path.distance, accuracy: 0.01, file: file, line: line)
        XCTAssertEqual(steps.first?.instructions, "", file: file, line: line)
        XCTAssertEqual(steps.first?.distance, 0, file: file, line: line)
        XCTAssertEqual(steps.last?.distance, 0, file: file, line: line)
    }

    func testTurnLeftOntoANamedStreet() {
        var b = PathBuilder()
        b.road("Boulevard des Moulins", heading: 0, metres: 200)
        b.road("Avenue de la Costa", heading: 270, metres: 150, others: [0, 90])
        XCTAssertEqual(instructions(b.path), ["", "Head north on Boulevard des Moulins", "Turn left onto Avenue de la Costa",
                                              "Arrive at the destination"])
        let steps = RouteGuidance.steps(for: b.path)
        XCTAssertEqual(steps[1].distance, 200, accuracy: 0.5)
        XCTAssertEqual(steps[2].distance, 150, accuracy: 0.5)
        assertChains(b.path)
    }

    func testTurnStrengthsAndUTurn() {
        var b = PathBuilder()
        b.road("A", heading: 90, metres: 100)
        b.road("B", heading: 120, metres: 100, others: [90])        // 30° right, another road ahead
        b.road("C", heading: 260, metres: 100, others: [120, 30])   // 140° right: sharp
        b.road(nil, heading: 180, metres: 100, others: [260])       // 80° left, unnamed
        b.road("E", heading: 0, metres: 100, others: [90])          // back the way we came
        XCTAssertEqual(instructions(b.path), ["", "Head east on A", "Keep right onto B", "Turn sharp right onto C",
                                              "Turn left", "Make a U-turn onto E", "Arrive at the destination"])
        assertChains(b.path)

        var slight = PathBuilder()
        slight.road("A", heading: 0, metres: 100)
        slight.road("B", heading: 35, metres: 100, others: [270, 90])
        XCTAssertEqual(instructions(slight.path)[2], "Turn slightly right onto B")
    }

    func testNothingToSayMergesSteps() {
        // Same name, another road class, straight on: one step. A new name straight on: "Continue onto".
        var b = PathBuilder()
        b.road("Rue Grimaldi", heading: 10, metres: 120, roadClass: "secondary")
        b.road("Rue Grimaldi", heading: 15, metres: 80, roadClass: "tertiary", others: [100, 280])
        b.road("Boulevard Charles III", heading: 5, metres: 90, others: [270])
        // The road bends with no other way out: nothing to say either.
        b.road("Boulevard Charles III", heading: 50, metres: 60, roadClass: "primary")
        let steps = RouteGuidance.steps(for: b.path)
        XCTAssertEqual(steps.map(\.instructions), ["", "Head north on Rue Grimaldi", "Continue onto Boulevard Charles III",
                                                   "Arrive at the destination"])
        XCTAssertEqual(steps[1].distance, 200, accuracy: 0.5)
        XCTAssertEqual(steps[2].distance, 150, accuracy: 0.5)
        assertChains(b.path)
    }

    func testTurnOffTheStraightOnStaysOnTheSameRoad() {
        var b = PathBuilder()
        b.road("Rue Grimaldi", heading: 0, metres: 100)
        b.bend(heading: 90, metres: 100, others: [0])   // the street turns right; another goes straight on
        b.bend(heading: 100, metres: 50)                 // a bend, no junction
        XCTAssertEqual(instructions(b.path), ["", "Head north on Rue Grimaldi", "Turn right to stay on Rue Grimaldi",
                                              "Arrive at the destination"])
        assertChains(b.path)
    }

    func testStreetResumingAfterAnUnnamedStretchIsNoNewName() {
        // Rue Grimaldi, an unnamed bridge, Rue Grimaldi again, straight on: one street. A
        // different name after the bridge is still announced.
        var b = PathBuilder()
        b.road("Rue Grimaldi", heading: 90, metres: 200)
        b.road(nil, heading: 90, metres: 100, others: [0])
        b.road("Rue Grimaldi", heading: 90, metres: 200, others: [180])
        b.road("Rue Caroline", heading: 90, metres: 100, others: [0])
        XCTAssertEqual(instructions(b.path), ["", "Head east on Rue Grimaldi", "Continue onto Rue Caroline", "Arrive at the destination"])
        assertChains(b.path)
    }

    func testUTurnAtADeadEndIsSaid() {
        // Up a dead-end street and back (OSRM's "continue uturn"): no junction at the far end,
        // only the shape doubling back, and the road graph repeats the turning point.
        var b = PathBuilder()
        b.road("Rue Basse", heading: 0, metres: 100)
        b.road("Impasse", heading: 90, metres: 100, others: [0])
        b.bend(heading: 90, metres: 0)
        b.bend(heading: 270, metres: 100)
        b.road("Rue Basse", heading: 180, metres: 100, others: [0])
        XCTAssertEqual(instructions(b.path), ["", "Head north on Rue Basse", "Turn right onto Impasse", "Make a U-turn to stay on Impasse",
                                              "Turn left onto Rue Basse", "Arrive at the destination"])
        assertChains(b.path)
    }

    func testRoundaboutExitsCountOnlyWaysOut() {
        var b = PathBuilder()
        b.road("Avenue d'Ostende", heading: 0, metres: 150)
        // Into the roundabout, turning right (counter-clockwise traffic would be left; the
        // count must not depend on it).
        b.road(nil, heading: 60, metres: 20, others: [0, 300], allowed: [false, false], roundabout: true)
        // Passing one way out and one way in only (a oneway entering the roundabout).
        b.road(nil, heading: 120, metres: 20, others: [80, 30], allowed: [true, false], roundabout: true)
        b.road(nil, heading: 200, metres: 20, others: [], allowed: [], roundabout: true)
        // Leaving by the second way out.
        b.road("Boulevard Albert Ier", heading: 250, metres: 100, others: [280], allowed: [false])
        XCTAssertEqual(instructions(b.path), ["", "Head north on Avenue d'Ostende",
                                              "At the roundabout, take the 2nd exit onto Boulevard Albert Ier",
                                              "Arrive at the destination"])
        assertChains(b.path)

        // Parking aisles and garage entrances off the roundabout are passed, not counted…
        var parking = PathBuilder()
        parking.road("Avenue d'Ostende", heading: 0, metres: 150)
        parking.road(nil, heading: 60, metres: 20, others: [0, 100], allowed: [false, true], roundabout: true, minor: [false, true])
        parking.road(nil, heading: 120, metres: 20, others: [80, 150], allowed: [true, true], roundabout: true, minor: [false, true])
        parking.road(nil, heading: 200, metres: 20, others: [], allowed: [], roundabout: true)
        parking.road("Boulevard Albert Ier", heading: 250, metres: 100)
        XCTAssertEqual(instructions(parking.path)[2], "At the roundabout, take the 2nd exit onto Boulevard Albert Ier")
        // …unless the route leaves by one: then every way out counts, as the driver sees them.
        var intoGarage = PathBuilder()
        intoGarage.road("Avenue d'Ostende", heading: 0, metres: 150)
        intoGarage.road(nil, heading: 60, metres: 20, others: [0], allowed: [false], roundabout: true)
        intoGarage.road(nil, heading: 120, metres: 20, others: [100], allowed: [true], roundabout: true, minor: [true])
        intoGarage.road(nil, heading: 200, metres: 30, roadClass: "service", isMinor: true)
        XCTAssertEqual(instructions(intoGarage.path)[2], "At the roundabout, take the 2nd exit")

        // Ending on the roundabout.
        var ends = PathBuilder()
        ends.road("A", heading: 0, metres: 100)
        ends.road(nil, heading: 60, metres: 20, others: [0], roundabout: true)
        XCTAssertEqual(instructions(ends.path), ["", "Head north on A", "Enter the roundabout", "Arrive at the destination"])
        XCTAssertEqual(RouteGuidance.ordinal(1), "1st")
        XCTAssertEqual(RouteGuidance.ordinal(3), "3rd")
        XCTAssertEqual(RouteGuidance.ordinal(11), "11th")
        XCTAssertEqual(RouteGuidance.ordinal(22), "22nd")
    }

    func testFerryMotorwayRampsAndNotices() {
        var b = PathBuilder()
        b.road("Quai", heading: 180, metres: 100)
        b.road("Navette", heading: 200, metres: 2000, ferry: true)
        b.road("Route du Port", heading: 200, metres: 100)
        b.road("A8", heading: 220, metres: 3000, roadClass: "motorway", others: [40], toll: true)
        b.road(nil, heading: 240, metres: 300, roadClass: "motorway_link", others: [220])
        b.road("D6007", heading: 300, metres: 500, roadClass: "primary", others: [120])
        let path = b.path
        let steps = RouteGuidance.steps(for: path)
        XCTAssertEqual(steps.map(\.instructions), ["", "Head south on Quai", "Take the ferry (Navette)", "Leave the ferry onto Route du Port",
                                                   "Continue onto A8", "Take the exit", "Turn right onto D6007", "Arrive at the destination"])
        XCTAssertEqual(steps[2].notice, "This step is a ferry crossing.")
        XCTAssertEqual(steps[4].notice, "Toll road.")
        XCTAssertNil(steps[6].notice)
        XCTAssertEqual(RouteGuidance.advisoryNotices(path), ["This route has tolls.", "This route includes a ferry."])
        XCTAssertEqual(RouteGuidance.routeName(path), "A8")
        assertChains(path)

        var merge = PathBuilder()
        merge.road(nil, heading: 90, metres: 200, roadClass: "motorway_link")
        merge.road("A8", heading: 80, metres: 1000, roadClass: "motorway", others: [260])
        XCTAssertEqual(instructions(merge.path), ["", "Head east", "Merge onto A8", "Arrive at the destination"])
    }

    func testArrivalSideAndCompass() {
        var b = PathBuilder()
        b.road("Rue Basse", heading: 0, metres: 100)
        let end = b.end
        let left = PathBuilder.offset(end, bearing: 270, metres: 15)
        let right = PathBuilder.offset(end, bearing: 85, metres: 15)
        let ahead = PathBuilder.offset(end, bearing: 2, metres: 15)
        XCTAssertEqual(instructions(b.path, destination: left).last, "Arrive at the destination, on the left")
        XCTAssertEqual(instructions(b.path, destination: right).last, "Arrive at the destination, on the right")
        XCTAssertEqual(instructions(b.path, destination: ahead).last, "Arrive at the destination")
        XCTAssertEqual(instructions(b.path, destination: end).last, "Arrive at the destination")
        XCTAssertEqual(instructions(b.path, destination: CLLocationCoordinate2D(latitude: .nan, longitude: 7)).last, "Arrive at the destination")

        XCTAssertEqual(["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest", "north"],
                       [0.0, 44, 91, 130, 181, 224, 269, 300, 350].map(RouteGuidance.compass))
        XCTAssertEqual(RouteGuidance.compass(-90), "west")
    }

    func testRouteNameWeighsLengthAndClass() {
        var b = PathBuilder()
        b.road("Chemin", heading: 0, metres: 400, roadClass: "service")
        b.road("Avenue Princesse Grace", heading: 90, metres: 300, roadClass: "primary", others: [0])
        b.road("Boulevard du Larvotto", heading: 90, metres: 250, roadClass: "primary", others: [0])
        XCTAssertEqual(RouteGuidance.routeName(b.path), "Avenue Princesse Grace and Boulevard du Larvotto")
        var unnamed = PathBuilder()
        unnamed.road(nil, heading: 0, metres: 100)
        XCTAssertEqual(RouteGuidance.routeName(unnamed.path), "")
        var byRef = PathBuilder()
        byRef.road(nil, heading: 0, metres: 100, ref: "M6")
        XCTAssertEqual(RouteGuidance.routeName(byRef.path), "M6")
    }

    func testDegeneratePaths() {
        // A single point (source and destination snapped together) and a path without segments.
        let point = RoutePath(coordinates: [CLLocationCoordinate2D(latitude: 43.7, longitude: 7.4)], distance: 0, travelTime: 0,
                              segments: [], hasTolls: false, hasMotorways: false, mode: .walking)
        XCTAssertEqual(RouteGuidance.steps(for: point).map(\.instructions), ["", "Arrive at the destination"])
        let empty = RoutePath(coordinates: [], distance: 0, travelTime: 0, segments: [], hasTolls: false, hasMotorways: false, mode: .walking)
        XCTAssertTrue(RouteGuidance.steps(for: empty).isEmpty)
        var line = PathBuilder()
        line.road("A", heading: 45, metres: 50)
        var bare = line.path
        bare.segments = []
        XCTAssertEqual(RouteGuidance.steps(for: bare).map(\.instructions), ["", "Head northeast", "Arrive at the destination"])
        XCTAssertEqual(RouteGuidance.normalize(.nan), 0)
        // A segment or junction pointing past the shape (a graph bug) is skipped, not a trap.
        var broken = line.path
        broken.segments.append(RouteSegment(name: "Ghost", ref: nil, wayIDs: [9], coordinateRange: 1..<7, distance: 10, travelTime: 1,
                                            roadClass: "residential", isRoundabout: false, isToll: false, isMotorway: false, isFerry: false,
                                            junctions: [RouteJunction(coordinateIndex: 40, bearings: [.nan], takenBearing: .nan,
                                                                      arrivedBearing: 3, exitAllowed: [])]))
        XCTAssertEqual(RouteGuidance.steps(for: broken).map(\.instructions), ["", "Head northeast on A", "Arrive at the destination"])
    }
}
