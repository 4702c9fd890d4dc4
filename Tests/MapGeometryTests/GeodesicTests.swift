import Foundation
import TestSupport
import XCTest
@testable import MapGeometry

/// Geodesic tests: the GeographicLib conformance set both ways, special cases checked against
/// independent formulas, interpolation, CLLocation distance and polygon areas.
final class GeodesicTests: XCTestCase {
    let g = Geodesic.wgs84
    let a = 6_378_137.0
    let f = 1 / 298.257223563

    // MARK: - Conformance data (GeographicLib 2.1, WGS84)

    struct Row {
        var line: Int
        var lat1, lon1, azi1, lat2, lon2, azi2, s12: Double
        var text: String
    }

    /// The package root is three levels above this file (Tests/MapGeometryTests/GeodesicTests.swift);
    /// the shared data sits beside it.
    static var dataURL: URL {
        TestData.shared("conformance/geodesic/wgs84-geodesics.txt")
    }

    func loadRows() throws -> [Row] {
        let url = GeodesicTests.dataURL
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            XCTFail("geodesic conformance data missing: \(url.path)")
            throw XCTSkip("no data at \(url.path)")
        }
        var rows: [Row] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let v = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
            guard v.count == 7 else {
                XCTFail("line \(index + 1) of \(url.path) does not have 7 numbers: \(trimmed)")
                continue
            }
            rows.append(Row(line: index + 1, lat1: v[0], lon1: v[1], azi1: v[2], lat2: v[3], lon2: v[4],
                            azi2: v[5], s12: v[6], text: trimmed))
        }
        XCTAssertGreaterThan(rows.count, 3000, "expected about 3500 rows in \(url.path)")
        return rows
    }

    /// |x − y| for angles, modulo 360 (so 180 and −180 agree).
    func angleError(_ x: Double, _ y: Double) -> Double {
        abs((x - y).remainder(dividingBy: 360))
    }

    /// Tracks the worst error of one quantity and the row where it happened.
    struct Worst: CustomStringConvertible {
        var name: String
        var value = 0.0
        var line = 0
        mutating func note(_ error: Double, _ row: Row) {
            if !(error <= value) { value = error; line = row.line }   // NaN counts as worst
        }
        var description: String { String(format: "%@ %.3g (data line %d)", name, value, line) }
    }

    /// How far the file's s12 may be from the exact distance between its points as printed: each of
    /// the four coordinates is rounded to half of 1e-12°, which moves an end point by at most
    /// √2 · 0.5e-12° · 111,320 m/° ≈ 79 nm, so the distance by at most 158 nm, plus GeographicLib's
    /// own 15 nm. (Against GeodSolve on the same inputs the tolerance is the 15 nm alone.)
    static let printedDistanceTolerance = 2 * 2.0.squareRoot() * 0.5e-12 * 111_320 + 15e-9

    func testConformanceInverse() throws {
        let rows = try loadRows()
        var ws = Worst(name: "s12 [m]"), wa1 = Worst(name: "azi1 [deg]"), wa2 = Worst(name: "azi2 [deg]")
        var nonUnique: [String] = []
        for row in rows {
            let r = g.inverse(latitude1: row.lat1, longitude1: row.lon1, latitude2: row.lat2, longitude2: row.lon2)
            ws.note(abs(r.distance - row.s12), row)
            XCTAssertEqual(r.distance, row.s12, accuracy: Self.printedDistanceTolerance, "s12, data line \(row.line): \(row.text)")
            let e1 = angleError(r.azimuth1, row.azi1), e2 = angleError(r.azimuth2, row.azi2)
            // Geometrically degenerate rows (an end at a pole, or exactly antipodal points) have no
            // unique azimuth: verify those through the direct problem whatever the comparison says.
            let degenerate = abs(row.lat1) == 90 || abs(row.lat2) == 90
                || (row.lat1 == -row.lat2 && abs(angleError(row.lon2, row.lon1) - 180) < 1e-12)
            if degenerate {
                let d = g.direct(latitude1: row.lat1, longitude1: row.lon1, azimuth1: r.azimuth1, distance: r.distance)
                let reaches = abs(d.latitude2 - row.lat2) < 1e-9 && (abs(row.lat2) == 90 || angleError(d.longitude2, row.lon2) < 1e-9)
                XCTAssertTrue(reaches, "degenerate row, data line \(row.line): \(row.text): direct from azi1 \(r.azimuth1) gave \(d)")
                nonUnique.append("line \(row.line) [\(row.text)] azi1 \(r.azimuth1) azi2 \(r.azimuth2) (data \(row.azi1), \(row.azi2)); direct reaches point 2: \(reaches)")
                continue
            }
            if e1 <= 1e-7 && e2 <= 1e-7 {
                wa1.note(e1, row)
                wa2.note(e2, row)
                continue
            }
            // Azimuths differ: acceptable only where the shortest path is not unique. Then the direct
            // problem from our azimuth over our distance must land on point 2 with our azi2.
            let d = g.direct(latitude1: row.lat1, longitude1: row.lon1, azimuth1: r.azimuth1, distance: r.distance)
            let atPole = abs(row.lat2) == 90
            let reaches = abs(d.latitude2 - row.lat2) < 1e-9 && (atPole || angleError(d.longitude2, row.lon2) < 1e-9)
            if reaches && (atPole || angleError(d.azimuth2, r.azimuth2) < 1e-9) {
                nonUnique.append("line \(row.line): \(row.text) → azi1 \(r.azimuth1) azi2 \(r.azimuth2)")
            } else {
                XCTFail("azimuths, data line \(row.line): \(row.text) → azi1 \(r.azimuth1) azi2 \(r.azimuth2)")
            }
        }
        print("geodesic inverse conformance, \(rows.count) rows, worst: \(ws); \(wa1); \(wa2)")
        print("geodesic inverse rows with a non-unique azimuth (checked by the direct problem): "
              + (nonUnique.isEmpty ? "none" : nonUnique.joined(separator: "; ")))
        XCTAssertLessThan(ws.value, Self.printedDistanceTolerance)
        XCTAssertLessThan(wa1.value, 1e-7)
        XCTAssertLessThan(wa2.value, 1e-7)
    }

    func testConformanceDirect() throws {
        let rows = try loadRows()
        var wlat = Worst(name: "lat2 [deg]"), wlon = Worst(name: "lon2 [deg]"), wazi = Worst(name: "azi2 [deg]")
        var poleRows: [String] = []
        for row in rows {
            let r = g.direct(latitude1: row.lat1, longitude1: row.lon1, azimuth1: row.azi1, distance: row.s12)
            let elat = abs(r.latitude2 - row.lat2)
            wlat.note(elat, row)
            XCTAssertLessThan(elat, 1e-9, "lat2, data line \(row.line): \(row.text) → \(r)")
            if abs(row.lat2) == 90 {
                // At a pole longitude and azimuth are tied: only lon2 − azi2 (south) or lon2 + azi2
                // (north) is the direction of travel.
                let sign = row.lat2 > 0 ? 1.0 : -1.0
                let e = angleError(r.longitude2 + sign * r.azimuth2, row.lon2 + sign * row.azi2)
                XCTAssertLessThan(e, 1e-9, "pole row, data line \(row.line): \(row.text) → \(r)")
                poleRows.append("line \(row.line) (lon2 \(r.longitude2), azi2 \(r.azimuth2); data \(row.lon2), \(row.azi2))")
                continue
            }
            let elon = angleError(r.longitude2, row.lon2), eazi = angleError(r.azimuth2, row.azi2)
            wlon.note(elon, row)
            wazi.note(eazi, row)
            XCTAssertLessThan(elon, 1e-9, "lon2, data line \(row.line): \(row.text) → \(r)")
            XCTAssertLessThan(eazi, 1e-9, "azi2, data line \(row.line): \(row.text) → \(r)")
        }
        print("geodesic direct conformance, \(rows.count) rows, worst: \(wlat); \(wlon); \(wazi)")
        print("geodesic direct rows ending at a pole (lon2/azi2 compared as one direction): "
              + (poleRows.isEmpty ? "none" : poleRows.joined(separator: "; ")))
    }

    // MARK: - GeographicLib's own accuracy, against GeographicLib

    /// GeographicLib states its geodesic solutions are accurate to 15 nanometres in distance. The
    /// data file prints its values to 12 decimals (1e-12° is about 110 nm on the ground), too coarse
    /// to check that, so every row's inputs, as printed, also go to GeographicLib's own `GeodSolve`
    /// (Debian's geographiclib-tools) at full precision (`-p 10`: 0.1 nm), and our answers to the
    /// same inputs must agree with it within 15 nm: the inverse's distance, and the direct problem's
    /// end point measured on the ground.
    func testAgreesWithGeodSolveWithinFifteenNanometres() throws {
        let rows = try loadRows()
        let tolerance = 15e-9
        func geodSolve(_ arguments: [String], _ lines: [String]) throws -> [[Double]] {
            let result = try runProcess("GeodSolve", arguments + ["-p", "10"], input: Data((lines.joined(separator: "\n") + "\n").utf8))
            XCTAssertEqual(result.status, 0, "GeodSolve (apt-get install geographiclib-tools; make test installs it) failed: \(result.stderr)")
            return result.stdout.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
        }
        let inverse = try geodSolve(["-i"], rows.map { "\($0.lat1) \($0.lon1) \($0.lat2) \($0.lon2)" })
        let direct = try geodSolve([], rows.map { "\($0.lat1) \($0.lon1) \($0.azi1) \($0.s12)" })
        XCTAssertEqual(inverse.count, rows.count, "GeodSolve -i answered \(inverse.count) of \(rows.count) rows")
        XCTAssertEqual(direct.count, rows.count, "GeodSolve answered \(direct.count) of \(rows.count) rows")
        var ws = Worst(name: "inverse s12 [m]"), wp = Worst(name: "direct end point [m]")
        for (index, row) in rows.enumerated() where index < inverse.count && index < direct.count {
            let r = g.inverse(latitude1: row.lat1, longitude1: row.lon1, latitude2: row.lat2, longitude2: row.lon2)
            let reference = inverse[index]
            guard reference.count == 3 else { XCTFail("GeodSolve -i line \(index + 1): \(reference)"); continue }
            ws.note(abs(r.distance - reference[2]), row)
            XCTAssertLessThanOrEqual(abs(r.distance - reference[2]), tolerance, "s12, data line \(row.line): \(row.text)")
            let d = g.direct(latitude1: row.lat1, longitude1: row.lon1, azimuth1: row.azi1, distance: row.s12)
            let end = direct[index]
            guard end.count == 3 else { XCTFail("GeodSolve line \(index + 1): \(end)"); continue }
            // The end points' separation on the ground: metres per degree of latitude, and of longitude
            // at that latitude (an upper bound of either radius of curvature, so never an undercount).
            let metresPerDegree = a * .pi / 180 * 1.01
            let north = (d.latitude2 - end[0]) * metresPerDegree
            let east = angleError(d.longitude2, end[1]) * metresPerDegree * cos(end[0] * .pi / 180)
            let separation = (north * north + east * east).squareRoot()
            wp.note(separation, row)
            XCTAssertLessThanOrEqual(separation, tolerance, "direct end point, data line \(row.line): \(row.text) → \(d); GeodSolve \(end)")
        }
        print("geodesics against GeodSolve -p 10 on the same inputs, \(rows.count) rows, worst: \(ws); \(wp)")
    }

    // MARK: - Special cases against independent formulas

    /// The quarter meridian from the classic rectifying-radius series (Helmert), independent of Karney's code.
    var quarterMeridian: Double {
        let n = f / (2 - f), n2 = n * n
        return a / (1 + n) * (1 + n2 / 4 + n2 * n2 / 64 + n2 * n2 * n2 / 256 + 25 * n2 * n2 * n2 * n2 / 16384) * .pi / 2
    }

    /// Meridian arc length from latitude φ1 to φ2 (degrees) by Simpson's rule on the meridian radius of curvature.
    func meridianArc(_ phi1: Double, _ phi2: Double) -> Double {
        let e2 = f * (2 - f)
        let steps = 20_000
        let x0 = phi1 * .pi / 180, h = (phi2 - phi1) * .pi / 180 / Double(steps)
        func m(_ x: Double) -> Double { let s = sin(x); return a * (1 - e2) / pow(1 - e2 * s * s, 1.5) }
        var sum = m(x0) + m(x0 + Double(steps) * h)
        for k in 1..<steps { sum += m(x0 + Double(k) * h) * (k % 2 == 1 ? 4 : 2) }
        return sum * h / 3
    }

    func testCoincidentPoints() {
        for (lat, lon) in [(0.0, 0.0), (45.0, 10.0), (-89.5, 170.0), (90.0, 0.0), (-90.0, 33.0), (12.0, 180.0)] {
            let r = g.inverse(latitude1: lat, longitude1: lon, latitude2: lat, longitude2: lon)
            XCTAssertEqual(r.distance, 0, "(\(lat), \(lon))")
            XCTAssertFalse(r.azimuth1.isNaN)
            // The same point written with a longitude a whole turn away.
            XCTAssertEqual(g.inverse(latitude1: lat, longitude1: lon, latitude2: lat, longitude2: lon + 360).distance, 0)
        }
        let d = g.direct(latitude1: 10, longitude1: 20, azimuth1: 33, distance: 0)
        XCTAssertEqual(d.latitude2, 10, accuracy: 1e-13)
        XCTAssertEqual(d.longitude2, 20, accuracy: 1e-13)
        XCTAssertEqual(d.azimuth2, 33, accuracy: 1e-13)
    }

    func testAntipodalOnEquator() {
        let half = 2 * quarterMeridian
        XCTAssertEqual(half, 20_003_931.4586, accuracy: 1e-4)
        for (lon1, lon2) in [(0.0, 180.0), (0.0, -180.0), (30.0, -150.0), (-90.0, 90.0)] {
            let r = g.inverse(latitude1: 0, longitude1: lon1, latitude2: 0, longitude2: lon2)
            XCTAssertEqual(r.distance, half, accuracy: 1e-7, "\(lon1) → \(lon2)")
            // Over a pole: the path is a meridian, so both azimuths are 0 or 180.
            XCTAssertEqual(abs(r.azimuth1).remainder(dividingBy: 180), 0, accuracy: 1e-12)
            XCTAssertEqual(abs(r.azimuth2).remainder(dividingBy: 180), 0, accuracy: 1e-12)
        }
        // Pole to pole.
        let p = g.inverse(latitude1: 90, longitude1: 0, latitude2: -90, longitude2: 0)
        XCTAssertEqual(p.distance, half, accuracy: 1e-7)
    }

    func testSameMeridian() {
        for (lat1, lat2) in [(10.0, 50.0), (-30.0, -31.0), (-60.0, 75.0), (0.0, 89.0), (-45.0, 0.0)] {
            let r = g.inverse(latitude1: lat1, longitude1: 20, latitude2: lat2, longitude2: 20)
            XCTAssertEqual(r.distance, abs(meridianArc(lat1, lat2)), accuracy: 1e-6, "\(lat1) → \(lat2)")
            let heading = lat2 > lat1 ? 0.0 : 180.0
            XCTAssertEqual(angleError(r.azimuth1, heading), 0, accuracy: 1e-12)
            XCTAssertEqual(angleError(r.azimuth2, heading), 0, accuracy: 1e-12)
        }
        // Across the pole onto the opposite meridian: 80°N 0°E → 80°N 180°E.
        let r = g.inverse(latitude1: 80, longitude1: 0, latitude2: 80, longitude2: 180)
        XCTAssertEqual(r.distance, 2 * meridianArc(80, 90), accuracy: 1e-6)
        XCTAssertEqual(r.azimuth1, 0, accuracy: 1e-12)
        XCTAssertEqual(abs(r.azimuth2), 180, accuracy: 1e-12)
        XCTAssertEqual(r.distance, 2_233_651.714751699, accuracy: 1e-6)   // GeodSolve
    }

    func testEquatorialLines() {
        // Along the equator while the longitude difference is below (1 − f)·180° ≈ 179.3965°.
        for (lon1, lon2) in [(0.0, 1.0), (0.0, 100.0), (-10.0, 169.0), (170.0, -170.0), (0.0, 179.39)] {
            let r = g.inverse(latitude1: 0, longitude1: lon1, latitude2: 0, longitude2: lon2)
            let dlon = abs((lon2 - lon1).remainder(dividingBy: 360))
            XCTAssertEqual(r.distance, a * dlon * .pi / 180, accuracy: 1e-8, "\(lon1) → \(lon2)")
            XCTAssertEqual(abs(r.azimuth1), 90, accuracy: 1e-12)
            XCTAssertEqual(abs(r.azimuth2), 90, accuracy: 1e-12)
        }
        // Beyond the threshold the shortest path leaves the equator and is shorter than a·Δλ.
        let r = g.inverse(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 179.5)
        XCTAssertLessThan(r.distance, a * 179.5 * .pi / 180)
        XCTAssertEqual(r.distance, 19_980_861.908890963, accuracy: 1e-6)   // GeodSolve
        XCTAssertEqual(r.azimuth1, 55.96649514015864, accuracy: 1e-10)
    }

    func testPoles() {
        // From the north pole the azimuth is measured from the meridian lon1: 180° runs down it.
        let r = g.inverse(latitude1: 90, longitude1: 0, latitude2: 60, longitude2: 45)
        XCTAssertEqual(r.distance, meridianArc(60, 90), accuracy: 1e-6)
        XCTAssertEqual(r.azimuth1, 135, accuracy: 1e-12)
        XCTAssertEqual(r.azimuth2, 180, accuracy: 1e-12)
        let s = g.inverse(latitude1: -90, longitude1: 0, latitude2: -30, longitude2: 10)
        XCTAssertEqual(s.distance, meridianArc(-90, -30), accuracy: 1e-6)
        XCTAssertEqual(s.azimuth2, 0, accuracy: 1e-12)
        // Direct to the pole and on over it.
        let d = g.direct(latitude1: 60, longitude1: 10, azimuth1: 0, distance: meridianArc(60, 90))
        XCTAssertEqual(d.latitude2, 90, accuracy: 1e-9)
        let over = g.direct(latitude1: 60, longitude1: 10, azimuth1: 0, distance: 2 * meridianArc(60, 90))
        XCTAssertEqual(over.latitude2, 60, accuracy: 1e-9)
        XCTAssertEqual(angleError(over.longitude2, -170), 0, accuracy: 1e-9)
        XCTAssertEqual(abs(over.azimuth2), 180, accuracy: 1e-9)
    }

    func testLongitudesBeyond180() {
        let base = g.inverse(latitude1: 10, longitude1: 0, latitude2: 20, longitude2: 10)
        for lon2 in [370.0, -350.0, 730.0, 10 - 3600.0] {
            let r = g.inverse(latitude1: 10, longitude1: 0, latitude2: 20, longitude2: lon2)
            XCTAssertEqual(r.distance, base.distance, accuracy: 1e-8, "lon2 \(lon2)")
            XCTAssertEqual(r.azimuth1, base.azimuth1, accuracy: 1e-11)
            XCTAssertEqual(r.azimuth2, base.azimuth2, accuracy: 1e-11)
        }
        let r = g.inverse(latitude1: 10, longitude1: 540, latitude2: 20, longitude2: -170)
        XCTAssertEqual(r.distance, base.distance, accuracy: 1e-8)
        // Direct: longitudes come back in −180…180, azimuths beyond ±180 are reduced.
        let d = g.direct(latitude1: 10, longitude1: 350, azimuth1: 400, distance: 100_000)
        let e = g.direct(latitude1: 10, longitude1: -10, azimuth1: 40, distance: 100_000)
        XCTAssertEqual(d.longitude2, e.longitude2, accuracy: 1e-11)
        XCTAssertTrue((-180...180).contains(d.longitude2))
    }

    func testNaNAndInvalidInput() {
        let cases: [(Double, Double, Double, Double)] = [
            (.nan, 0, 10, 10), (0, .nan, 10, 10), (0, 0, .nan, 10), (0, 0, 10, .nan),
            (-90, .nan, 10, 10), (91, 0, 10, 10), (0, 0, -90.5, 0), (.infinity, 0, 0, 0), (0, .infinity, 0, 0),
        ]
        for c in cases {
            let r = g.inverse(latitude1: c.0, longitude1: c.1, latitude2: c.2, longitude2: c.3)
            XCTAssertTrue(r.distance.isNaN, "\(c) gave \(r)")
        }
        for c in [(Double.nan, 0.0, 0.0, 1.0), (0, .nan, 0, 1), (0, 0, .nan, 1), (0, 0, 0, .nan), (95, 0, 0, 1), (0, 0, 0, .infinity)] {
            let r = g.direct(latitude1: c.0, longitude1: c.1, azimuth1: c.2, distance: c.3)
            XCTAssertTrue(r.latitude2.isNaN || r.longitude2.isNaN, "\(c) gave \(r)")
        }
        let p = g.interpolate(from: CLLocationCoordinate2D(latitude: .nan, longitude: 0),
                              to: CLLocationCoordinate2D(latitude: 1, longitude: 1), maximumSpacing: 10)
        XCTAssertEqual(p.count, 2)
    }

    func testAstroidRoot() {
        for (x, y) in [(-0.5, 0.3), (-1.5, 0.01), (-0.1, 2.0), (-3.0, 4.0), (-0.999, 1e-6)] {
            let k = Geodesic.astroid(x, y)
            XCTAssertGreaterThan(k, 0)
            let residual = k * k * k * k + 2 * k * k * k - (x * x + y * y - 1) * k * k - 2 * y * y * k - y * y
            XCTAssertEqual(residual, 0, accuracy: 1e-12 * max(1, k * k * k * k), "(\(x), \(y)) → \(k)")
        }
    }

    func testInverseDirectRoundTrip() {
        var random = SplitMix64(seed: 12345)
        for _ in 0..<2000 {
            let lat1 = random.uniform(-90, 90), lon1 = random.uniform(-180, 180)
            let lat2 = random.uniform(-90, 90), lon2 = random.uniform(-180, 180)
            let r = g.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            let d = g.direct(latitude1: lat1, longitude1: lon1, azimuth1: r.azimuth1, distance: r.distance)
            XCTAssertEqual(d.latitude2, lat2, accuracy: 1e-9)
            XCTAssertEqual(angleError(d.longitude2, lon2), 0, accuracy: 1e-9)
            XCTAssertEqual(angleError(d.azimuth2, r.azimuth2), 0, accuracy: 1e-9)
            // Reversed, the same length.
            let back = g.inverse(latitude1: lat2, longitude1: lon2, latitude2: lat1, longitude2: lon1)
            XCTAssertEqual(back.distance, r.distance, accuracy: 1e-8)
        }
    }

    // MARK: - Interpolation

    func testInterpolateAcrossAntimeridian() {
        let start = CLLocationCoordinate2D(latitude: 0, longitude: 170)
        let end = CLLocationCoordinate2D(latitude: 0, longitude: -170)
        let points = g.interpolate(from: start, to: end, maximumSpacing: 100_000)
        let total = a * 20 * .pi / 180
        XCTAssertEqual(points.count, Int((total / 100_000).rounded(.up)) + 1)
        XCTAssertEqual(points.first, start)
        XCTAssertEqual(points.last?.latitude, 0)
        XCTAssertEqual(points.last!.longitude, 190, accuracy: 1e-12)
        for (p, q) in zip(points, points.dropFirst()) {
            XCTAssertGreaterThan(q.longitude, p.longitude)
            XCTAssertEqual(p.latitude, 0, accuracy: 1e-12)
        }
        // Northern crossing the other way round.
        let west = g.interpolate(from: CLLocationCoordinate2D(latitude: 61, longitude: -179),
                                 to: CLLocationCoordinate2D(latitude: 60, longitude: 179), maximumSpacing: 10_000)
        XCTAssertEqual(west.last!.longitude, -181, accuracy: 1e-12)
        for (p, q) in zip(west, west.dropFirst()) { XCTAssertLessThan(abs(q.longitude - p.longitude), 180) }
    }

    func testInterpolateSpacingAndOnGeodesic() {
        let start = CLLocationCoordinate2D(latitude: 40.6, longitude: -73.8)
        let end = CLLocationCoordinate2D(latitude: 49.01666667, longitude: 2.55)
        let spacing = 50_000.0
        let total = g.inverse(latitude1: start.latitude, longitude1: start.longitude,
                              latitude2: end.latitude, longitude2: end.longitude).distance
        let points = g.interpolate(from: start, to: end, maximumSpacing: spacing)
        XCTAssertEqual(points.count, Int((total / spacing).rounded(.up)) + 1)
        XCTAssertEqual(points.first, start)
        XCTAssertEqual(points.last, end)
        for (p, q) in zip(points, points.dropFirst()) {
            let d = g.inverse(latitude1: p.latitude, longitude1: p.longitude, latitude2: q.latitude, longitude2: q.longitude).distance
            XCTAssertLessThanOrEqual(d, spacing * (1 + 1e-12))
            XCTAssertEqual(d, total / Double(points.count - 1), accuracy: 1e-6)
        }
        for p in points {
            let d1 = g.inverse(latitude1: start.latitude, longitude1: start.longitude, latitude2: p.latitude, longitude2: p.longitude).distance
            let d2 = g.inverse(latitude1: p.latitude, longitude1: p.longitude, latitude2: end.latitude, longitude2: end.longitude).distance
            XCTAssertEqual(d1 + d2, total, accuracy: 1e-6, "point \(p) is off the geodesic")
        }
    }

    func testInterpolateOverPole() {
        // Along the meridian 0 to the pole and down the meridian 180: the longitude jumps by 180° once.
        let points = g.interpolate(from: CLLocationCoordinate2D(latitude: 80, longitude: 0),
                                   to: CLLocationCoordinate2D(latitude: 80, longitude: 180), maximumSpacing: 10_000)
        XCTAssertEqual(points.count, Int((2_233_651.714751699 / 10_000).rounded(.up)) + 1)
        var jumps = 0
        for (p, q) in zip(points, points.dropFirst()) {
            let step = abs(q.longitude - p.longitude)
            XCTAssertLessThanOrEqual(step, 180)
            if step > 1e-9 { jumps += 1 }
        }
        XCTAssertEqual(jumps, 1)
        XCTAssertEqual(points.map(\.latitude).max()!, 90, accuracy: 0.1)
    }

    func testInterpolateDegenerateArguments() {
        let p = CLLocationCoordinate2D(latitude: 12, longitude: 34)
        XCTAssertEqual(g.interpolate(from: p, to: p, maximumSpacing: 1000), [p, p])
        let q = CLLocationCoordinate2D(latitude: -40, longitude: 150)
        XCTAssertEqual(g.interpolate(from: p, to: q, maximumSpacing: .infinity).count, 2)
        for spacing in [0.0, -5.0, .nan, 1e-9] {
            let points = g.interpolate(from: p, to: q, maximumSpacing: spacing)
            XCTAssertEqual(points.count, Geodesic.maximumInterpolatedPoints, "spacing \(spacing)")
            XCTAssertEqual(points.first, p)
            XCTAssertEqual(points.last!.latitude, q.latitude)
            XCTAssertEqual(angleError(points.last!.longitude, q.longitude), 0, accuracy: 1e-12)
        }
        // A spacing larger than the path: just the two ends.
        XCTAssertEqual(g.interpolate(from: p, to: q, maximumSpacing: 1e8), [p, q])
    }

    // MARK: - CLLocation

    func testCLLocationDistance() {
        let jfk = CLLocation(latitude: 40.6, longitude: -73.8)
        let cdg = CLLocation(latitude: 49.01666667, longitude: 2.55)
        XCTAssertEqual(jfk.distance(from: cdg), 5_853_226.255613290, accuracy: 1e-6)   // GeodSolve -i
        XCTAssertEqual(cdg.distance(from: jfk), jfk.distance(from: cdg), accuracy: 1e-8)
        XCTAssertEqual(jfk.distance(from: jfk), 0)
    }

    // MARK: - Areas

    func testEllipsoidArea() {
        // Surface of an oblate ellipsoid: 2πa²(1 + (1 − e²)/e · atanh e).
        let e2 = f * (2 - f), e = e2.squareRoot()
        let exact = 2 * .pi * a * a * (1 + (1 - e2) / e * atanh(e))
        XCTAssertEqual(exact, 510_065_621_724_088.5, accuracy: 1)
        XCTAssertEqual(g.ellipsoidArea, exact, accuracy: exact * 1e-15)
    }

    func testOctantArea() {
        let e2 = f * (2 - f), e = e2.squareRoot()
        let total = 2 * .pi * a * a * (1 + (1 - e2) / e * atanh(e))
        let ring = [CLLocationCoordinate2D(latitude: 0, longitude: 0), CLLocationCoordinate2D(latitude: 0, longitude: 90),
                    CLLocationCoordinate2D(latitude: 90, longitude: 0)]
        let r = g.area(of: ring)
        print(String(format: "geodesic octant area %.3f m², exact %.3f m², error %.3g m²", r.area, total / 8, r.area - total / 8))
        XCTAssertEqual(r.area, total / 8, accuracy: 0.5)
        XCTAssertEqual(r.perimeter, a * .pi / 2 + 2 * quarterMeridian, accuracy: 1e-6)
        // Clockwise: the same magnitude, negative. Closed ring (first point repeated): the same.
        XCTAssertEqual(g.area(of: ring.reversed()).area, -total / 8, accuracy: 0.5)
        XCTAssertEqual(g.area(of: ring + [ring[0]]).area, r.area)
    }

    func testSmallSquareAreaMatchesPlanarEstimate() {
        // 0.01° square at 45°N: area ≈ (M Δφ)(N cos φ Δλ) with the radii of curvature at the centre.
        let lat = 45.0, d = 0.01
        let ring = [CLLocationCoordinate2D(latitude: lat, longitude: 10), CLLocationCoordinate2D(latitude: lat, longitude: 10 + d),
                    CLLocationCoordinate2D(latitude: lat + d, longitude: 10 + d), CLLocationCoordinate2D(latitude: lat + d, longitude: 10)]
        let e2 = f * (2 - f)
        let phi = (lat + d / 2) * .pi / 180, s = sin(phi)
        let m = a * (1 - e2) / pow(1 - e2 * s * s, 1.5), n = a / (1 - e2 * s * s).squareRoot()
        let planar = (m * d * .pi / 180) * (n * cos(phi) * d * .pi / 180)
        let r = g.area(of: ring)
        XCTAssertEqual(r.area, planar, accuracy: planar * 1e-6)
        XCTAssertEqual(r.area, 876_163.4, accuracy: 0.1)   // GeographicLib's Planimeter
    }

    func testPolygonAreasAgainstPlanimeter() {
        // Reference values from GeographicLib's Planimeter (counter-clockwise positive).
        let cases: [([(Double, Double)], Double, Double)] = [
            ([(89, 0), (89, 90), (89, 180), (89, 270)], 631_819.874528, 24_952_305_678.0),         // round the north pole
            ([(-89, 0), (-89, 90), (-89, 180), (-89, 270)], 631_819.874528, -24_952_305_678.0),    // round the south pole, clockwise
            ([(10, 170), (10, -170), (-10, -170), (-10, 170)], 8_808_314.462270, -4_948_480_469_169.5), // across the antimeridian
            ([(0, -10), (0, 10), (40, 10), (40, -10)], 12_789_718.877155, 9_138_173_963_151.6),
            ([(60, -170), (60, 170), (-60, 170), (-60, -170)], 28_839_776.361272, 24_575_649_049_336.6),
            ([(0, 0), (0, 120), (0, 240)], 40_075_016.685578, 255_032_810_862_044.2),             // the equator: half the earth
        ]
        for (points, perimeter, area) in cases {
            let ring = points.map { CLLocationCoordinate2D(latitude: $0.0, longitude: $0.1) }
            let r = g.area(of: ring)
            XCTAssertEqual(r.perimeter, perimeter, accuracy: 1e-5, "\(points)")
            XCTAssertEqual(r.area, area, accuracy: 0.2, "\(points)")
        }
        XCTAssertEqual(g.area(of: []).area, 0)
        XCTAssertEqual(g.area(of: [CLLocationCoordinate2D(latitude: 1, longitude: 2)]).area, 0)
    }
}
