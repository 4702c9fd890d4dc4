import Foundation
@testable import OpenMapKit
import XCTest

/// MKMapView's overlays: levels and their order, insertion rules, exchange, removal, renderers.
final class MapViewOverlayTests: XCTestCase {
    private func circle(_ name: String, latitude: Double = 43.7384, longitude: Double = 7.4246) -> MKCircle {
        let circle = MKCircle(center: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), radius: 100)
        circle.title = name
        return circle
    }

    private func names(_ overlays: [any MKOverlay]) -> [String] { overlays.map { ($0.title ?? nil) ?? "?" } }

    func testLevelsAndDefaultLevel() {
        let (map, _, _) = MapViewFixtures.map()
        let a = circle("a"), b = circle("b"), c = circle("c")
        map.addOverlay(a)
        map.addOverlay(b, level: .aboveRoads)
        map.addOverlays([c], level: .aboveLabels)
        XCTAssertEqual(names(map.overlays(in: .aboveLabels)), ["a", "c"], "addOverlay(_:) uses aboveLabels")
        XCTAssertEqual(names(map.overlays(in: .aboveRoads)), ["b"])
        XCTAssertEqual(names(map.overlays), ["b", "a", "c"], "drawing order: the lower level first")
        map.addOverlay(a, level: .aboveRoads)
        XCTAssertEqual(names(map.overlays), ["b", "a", "c"], "adding again moves it to the end of the level")
        XCTAssertEqual(map.overlays.count, 3)
    }

    func testInsertAtIndexAboveAndBelow() {
        let (map, _, _) = MapViewFixtures.map()
        let a = circle("a"), b = circle("b"), c = circle("c"), d = circle("d"), e = circle("e"), r = circle("r")
        map.addOverlays([a, b])
        map.insertOverlay(c, at: 99)
        map.insertOverlay(d, at: -4)
        XCTAssertEqual(names(map.overlays(in: .aboveLabels)), ["d", "a", "b", "c"], "past the end appends; negative is 0")
        map.insertOverlay(e, above: a)
        XCTAssertEqual(names(map.overlays(in: .aboveLabels)), ["d", "a", "e", "b", "c"])
        map.insertOverlay(e, below: a)
        XCTAssertEqual(names(map.overlays(in: .aboveLabels)), ["d", "e", "a", "b", "c"])
        map.addOverlay(r, level: .aboveRoads)
        let f = circle("f")
        map.insertOverlay(f, above: r)
        XCTAssertEqual(names(map.overlays(in: .aboveLabels)).last, "f", "a sibling in another level: appended to aboveLabels")
        XCTAssertEqual(names(map.overlays(in: .aboveRoads)), ["r"])
        let g = circle("g")
        map.insertOverlay(g, below: circle("notOnMap"))
        XCTAssertEqual(names(map.overlays(in: .aboveLabels)).last, "g")
        map.insertOverlay(g, above: g)
        XCTAssertEqual(map.overlays.filter { $0 === g }.count, 1)
        map.insertOverlay(circle("h"), at: 1, level: .aboveRoads)
        XCTAssertEqual(names(map.overlays(in: .aboveRoads)), ["r", "h"])
    }

    func testExchange() {
        let (map, _, _) = MapViewFixtures.map()
        let a = circle("a"), b = circle("b"), c = circle("c"), r = circle("r")
        map.addOverlays([a, b, c])
        map.addOverlay(r, level: .aboveRoads)
        map.exchangeOverlay(a, with: c)
        XCTAssertEqual(names(map.overlays(in: .aboveLabels)), ["c", "b", "a"])
        map.exchangeOverlay(b, with: r)
        XCTAssertEqual(names(map.overlays(in: .aboveLabels)), ["c", "r", "a"], "different levels: they swap levels too")
        XCTAssertEqual(names(map.overlays(in: .aboveRoads)), ["b"])
        map.exchangeOverlay(at: 0, withOverlayAt: 2)
        XCTAssertEqual(names(map.overlays(in: .aboveLabels)), ["a", "r", "c"])
        map.exchangeOverlay(at: 0, withOverlayAt: 3)
        map.exchangeOverlay(at: -1, withOverlayAt: 0)
        map.exchangeOverlay(a, with: circle("notOnMap"))
        XCTAssertEqual(names(map.overlays(in: .aboveLabels)), ["a", "r", "c"], "out of range or absent: nothing happens")
    }

    func testRemoveAndRenderers() {
        let (map, delegate, _) = MapViewFixtures.map()
        delegate.rendererFactory = { overlay in
            let renderer = MKCircleRenderer(circle: overlay as! MKCircle)
            renderer.fillColor = .systemBlue
            return renderer
        }
        let here = circle("here"), far = circle("far", latitude: 48.85, longitude: 2.35)
        map.addOverlays([here, far], level: .aboveRoads)
        XCTAssertTrue(map.renderer(for: here) is MKCircleRenderer)
        XCTAssertNil(map.renderer(for: far), "off screen: no renderer yet")
        map.setCenter(far.coordinate, animated: false)
        XCTAssertNotNil(map.renderer(for: far))
        XCTAssertNotNil(map.renderer(for: here), "renderers are kept once made")
        delegate.log = []
        map.removeOverlay(circle("stranger"))
        XCTAssertEqual(map.overlays.count, 2)
        map.removeOverlay(here)
        XCTAssertNil(map.renderer(for: here))
        XCTAssertEqual(names(map.overlays), ["far"])
        map.removeOverlays([far, far])
        XCTAssertTrue(map.overlays.isEmpty)
        XCTAssertEqual(delegate.log, [])
        // Added again: a new renderer is asked for.
        map.addOverlay(far)
        XCTAssertEqual(delegate.log, ["rendererFor(far)", "didAddRenderers(far)"])
    }

    func testOverlayAcrossTheAntimeridianGetsItsRendererFromEitherSide() {
        let (map, delegate, _) = MapViewFixtures.map()
        // A 50 km circle centred just west of the meridian reaches past it.
        let circle = circle("dateline", latitude: -17, longitude: 179.9)
        let wide = MKCircle(center: circle.coordinate, radius: 50_000)
        wide.title = "dateline"
        map.addOverlay(wide)
        XCTAssertEqual(delegate.log, [])
        map.region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: -17, longitude: -179.8),
                                        span: MKCoordinateSpan(latitudeDelta: 0.2, longitudeDelta: 0.2))
        XCTAssertTrue(delegate.log.contains("rendererFor(dateline)"), "\(delegate.log)")
    }

    func testDelegateRemovingOverlayInRendererForLeavesNoRenderer() {
        let (map, delegate, _) = MapViewFixtures.map()
        let a = circle("a"), b = circle("b")
        delegate.onceIn["rendererFor(a)"] = { map in map.removeOverlay(a) }
        map.addOverlays([a, b])
        XCTAssertEqual(delegate.log, ["rendererFor(a)", "rendererFor(b)", "didAddRenderers(b)"])
        XCTAssertNil(map.renderer(for: a))
        XCTAssertEqual(names(map.overlays), ["b"])
    }
}
