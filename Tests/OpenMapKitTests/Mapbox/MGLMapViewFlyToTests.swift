import Foundation
@testable import OpenMapKit
import XCTest

/// Mapbox's powered flight (inventory M-25; MapLibre's Transform::flyTo).
final class MGLMapViewFlyToTests: XCTestCase {
    static let newYork = CLLocationCoordinate2D(latitude: 40.7128, longitude: -74.0060)
    static let boston = CLLocationCoordinate2D(latitude: 42.3601, longitude: -71.0589)
    static let losAngeles = CLLocationCoordinate2D(latitude: 34.0522, longitude: -118.2437)

    private func camera(_ map: MGLMapView, _ c: CLLocationCoordinate2D, zoom: Double) -> MGLMapCamera {
        MGLMapCamera(lookingAtCenter: c, altitude: MGLAltitudeForZoomLevel(zoom, 0, c.latitude, map.bounds.size), pitch: 0, heading: 0)
    }

    /// Flies from New York at zoom 12 to `target`, recording the zoom of each frame.
    private func fly(to target: CLLocationCoordinate2D, duration: TimeInterval = -1, peakAltitude: CLLocationDistance = -1)
        -> (zooms: [Double], seconds: Double, completed: Int, map: MGLMapView) {
        let (map, _, clock) = MapboxFixtures.map()
        map.setCenter(MGLMapViewFlyToTests.newYork, zoomLevel: 12, animated: false)
        var completed = 0
        let start = clock.now
        map.fly(to: camera(map, target, zoom: 12), withDuration: duration, peakAltitude: peakAltitude) { completed += 1 }
        var zooms: [Double] = []
        while map.isAnimating, zooms.count < 5000 {
            clock.advance(by: 1.0 / 60)
            map.advanceAnimations()
            zooms.append(map.zoomLevel)
        }
        return (zooms, clock.now - start, completed, map)
    }

    func testFlightZoomsOutThenInAndTakesLongerForLongerFlights() {
        let toBoston = fly(to: MGLMapViewFlyToTests.boston)
        XCTAssertEqual(toBoston.completed, 1)
        let lowest = toBoston.zooms.min()!
        XCTAssertLessThan(lowest, 10, "the flight climbs well above zoom 12")
        let lowestIndex = toBoston.zooms.firstIndex(of: lowest)!
        XCTAssertGreaterThan(lowestIndex, toBoston.zooms.count / 5)
        XCTAssertLessThan(lowestIndex, toBoston.zooms.count * 4 / 5, "the peak is in the middle part")
        XCTAssertEqual(toBoston.zooms.last!, 12, accuracy: 1e-9)
        XCTAssertEqual(toBoston.map.centerCoordinate.latitude, MGLMapViewFlyToTests.boston.latitude, accuracy: 1e-9)
        XCTAssertEqual(toBoston.map.centerCoordinate.longitude, MGLMapViewFlyToTests.boston.longitude, accuracy: 1e-9)
        let toLosAngeles = fly(to: MGLMapViewFlyToTests.losAngeles)
        XCTAssertGreaterThan(toLosAngeles.seconds, toBoston.seconds, "longer flights take longer")
        XCTAssertLessThan(toLosAngeles.zooms.min()!, lowest)
    }

    func testDefaultDurationIsThePathLengthAtMapLibresSpeed() {
        // The path's length S in ρ-screenfuls at 1.2 per second (MapLibre's V).
        let (map, _, _) = MapboxFixtures.map()
        map.setCenter(MGLMapViewFlyToTests.newYork, zoomLevel: 12, animated: false)
        let from = map.engine.viewport
        var to = from
        to.centerCoordinate = MGLMapViewFlyToTests.boston
        let path = FlightPath(from: from, to: to, span: 400, peakZoom: nil, zoomLimits: 0...22)
        XCTAssertEqual(path.rho, 1.42)
        // By hand: u1 = ground distance in points at zoom 12; same zoom, so S = 2·asinh(ρ²u1 / 2w0)/ρ.
        let a = MKMapPoint(MGLMapViewFlyToTests.newYork), b = MKMapPoint(MGLMapViewFlyToTests.boston)
        let u1 = hypot(b.x - a.x, b.y - a.y) * exp2(12 - 19)
        let rho2 = 1.42 * 1.42
        let expected = 2 * asinh(rho2 * u1 / (2 * 400)) / 1.42
        XCTAssertEqual(path.length, expected, accuracy: 1e-9)
        XCTAssertEqual(path.defaultDuration, expected / 1.2, accuracy: 1e-9)
        let flown = fly(to: MGLMapViewFlyToTests.boston)
        XCTAssertEqual(flown.seconds, expected / 1.2, accuracy: 1.0 / 60 + 1e-9)
    }

    func testDurationSentinelsAndPeakAltitude() {
        // 0 jumps (completion at once), negative is the default.
        let (map, delegate, _) = MapboxFixtures.map()
        map.setCenter(MGLMapViewFlyToTests.newYork, zoomLevel: 12, animated: false)
        delegate.log = []
        var completed = 0
        map.fly(to: camera(map, MGLMapViewFlyToTests.boston, zoom: 12), withDuration: 0) { completed += 1 }
        XCTAssertFalse(map.isAnimating)
        XCTAssertEqual(completed, 1)
        XCTAssertEqual(delegate.log, ["will(false)", "did(false)"])
        XCTAssertEqual(fly(to: MGLMapViewFlyToTests.boston, duration: 2).seconds, 2, accuracy: 1.0 / 60 + 1e-9)
        // A negative peak is ignored.
        let natural = fly(to: MGLMapViewFlyToTests.boston)
        let ignored = fly(to: MGLMapViewFlyToTests.boston, peakAltitude: -5)
        XCTAssertEqual(ignored.zooms.min()!, natural.zooms.min()!, accuracy: 1e-9)
        // A higher peak: the midpoint reaches about that altitude's zoom.
        let peakAltitude = 2_000_000.0
        let latitude = (MGLMapViewFlyToTests.newYork.latitude + MGLMapViewFlyToTests.boston.latitude) / 2
        let peakZoom = MGLZoomLevelForAltitude(peakAltitude, 0, latitude, CGSize(width: 400, height: 400))
        XCTAssertLessThan(peakZoom, natural.zooms.min()!)
        let high = fly(to: MGLMapViewFlyToTests.boston, duration: 3, peakAltitude: peakAltitude)
        XCTAssertEqual(high.zooms.min()!, peakZoom, accuracy: 0.05)
        // A peak below the ends' altitudes is raised to the ends' zoom, which fixes a flatter ρ
        // (MapLibre's rule: ρ = √(2·w_max / u₁)): the flight climbs much less than its natural path.
        let low = fly(to: MGLMapViewFlyToTests.boston, duration: 3, peakAltitude: 10)
        XCTAssertGreaterThan(low.zooms.min()!, natural.zooms.min()! + 1)
        XCTAssertEqual(low.zooms.last!, 12, accuracy: 1e-9)
    }

    func testAnInterruptedFlightCompletesAndReportsTheCancellation() {
        let (map, delegate, clock) = MapboxFixtures.map()
        map.setCenter(MGLMapViewFlyToTests.newYork, zoomLevel: 12, animated: false)
        delegate.log = []
        delegate.reasons = []
        var completed = 0
        map.fly(to: camera(map, MGLMapViewFlyToTests.boston, zoom: 12)) { completed += 1 }
        clock.advance(by: 0.2)
        map.advanceAnimations()
        map.pan(by: CGPoint(x: 10, y: 0))
        XCTAssertFalse(map.isAnimating)
        XCTAssertEqual(completed, 1, "MapLibre finishes a cancelled transition: its completion runs")
        XCTAssertEqual(delegate.collapsed, ["will(true)", "changing*", "did(true)", "will(false)", "changing*", "did(false)"])
        XCTAssertTrue(delegate.reasons[1].contains(.transitionCancelled))
        XCTAssertTrue(delegate.reasons[2].contains(.gesturePan))
    }
}
