import Foundation
import MapRender
@testable import OpenMapKit
import TestSupport
import XCTest

/// How the map view draws its annotation views: MKPinAnnotationView, MKUserLocationView, the
/// drawing order (zPriority, selected on top), highlighting, glyph tint, subtitles and the
/// appearing animations on the view's clock.
final class MapViewAnnotationViewDrawingTests: XCTestCase {
    final class Views: MKMapViewDelegate {
        var make: (any MKAnnotation) -> MKAnnotationView? = { _ in nil }
        func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? { make(annotation) }
    }

    /// The delegates of the maps made (a map view holds its delegate weakly).
    private var delegates: [Views] = []

    private func map(_ make: @escaping (any MKAnnotation) -> MKAnnotationView?) throws -> (MKMapView, Views, MKManualMapViewClock) {
        let clock = MKManualMapViewClock()
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 300, height: 300), clock: clock)
        map.dataSource = try MonacoBundle.dataSource()
        map.region = MapViewFixtures.monacoRegion
        map.showsAttribution = false
        let views = Views()
        views.make = make
        map.delegate = views
        delegates.append(views)
        return (map, views, clock)
    }

    private func square(_ color: UIColor, side: Double = 30) throws -> UIImage {
        let canvas = try RenderCanvas(width: side, height: side)
        canvas.fill(color.renderColor)
        return UIImage(canvas: canvas)
    }

    func testPinViewIsDrawnAsAPinOnItsPoint() throws {
        let (map, _, _) = try map { annotation in
            let pin = MKPinAnnotationView(annotation: annotation, reuseIdentifier: "pin")
            pin.pinTintColor = MKPinAnnotationView.greenPinColor()
            return pin
        }
        let place = MKPointAnnotation(coordinate: MapViewFixtures.monaco, title: "Here", subtitle: nil)
        map.addAnnotation(place)
        let view = try XCTUnwrap(map.view(for: place) as? MKPinAnnotationView)
        let frame = try XCTUnwrap(map.frame(of: view))
        let point = map.convert(MapViewFixtures.monaco, toPointTo: map)
        XCTAssertEqual(frame.size, CGSize(width: 16, height: 40))
        XCTAssertEqual(frame.maxY, point.y, accuracy: 1e-6, "the needle's point is on the coordinate")
        let image = try map.render()
        MonacoBundle.save(image, "mapview-pin")
        let head = CGPoint(x: point.x + 2, y: point.y - 40 + 8 + 2)
        assertColor(image.color(at: head), near: MKPinAnnotationView.greenPinColor(), tolerance: 0.12)
        // The deprecated colour enumeration maps onto the tint.
        view.pinColor = .purple
        XCTAssertEqual(view.pinTintColor, MKPinAnnotationView.purplePinColor())
        XCTAssertEqual(view.pinColor, .purple)
    }

    func testDroppingPinFallsOnTheClock() throws {
        let (map, _, clock) = try map { annotation in
            let pin = MKPinAnnotationView(annotation: annotation, reuseIdentifier: "pin")
            pin.animatesDrop = true
            return pin
        }
        let place = MKPointAnnotation(coordinate: MapViewFixtures.monaco, title: nil, subtitle: nil)
        map.addAnnotation(place)
        let point = map.convert(MapViewFixtures.monaco, toPointTo: map)
        let head = CGPoint(x: point.x + 2, y: point.y - 40 + 8 + 2)
        XCTAssertTrue(map.isAnimating, "the drop runs on the clock")
        let first = try map.render()
        XCTAssertFalse(isColor(first.color(at: head), near: MKPinAnnotationView.redPinColor(), tolerance: 0.12), "still above")
        clock.advance(by: MKPinAnnotationView.dropDuration + 0.01)
        let landed = try map.render()
        assertColor(landed.color(at: head), near: MKPinAnnotationView.redPinColor(), tolerance: 0.12)
        XCTAssertFalse(map.isAnimating)
    }

    func testMarkerGrowsInWhenAnimatesWhenAdded() throws {
        let (map, _, clock) = try map { annotation in
            let marker = MKMarkerAnnotationView(annotation: annotation, reuseIdentifier: "m")
            marker.animatesWhenAdded = true
            marker.markerTintColor = .systemBlue
            return marker
        }
        map.addAnnotation(MKPointAnnotation(coordinate: MapViewFixtures.monaco, title: nil, subtitle: nil))
        let point = map.convert(MapViewFixtures.monaco, toPointTo: map)
        // Beside the glyph, inside the balloon's head.
        let headSide = CGPoint(x: point.x + 10, y: point.y - AnnotationDrawing.tipToCenter)
        let first = try map.render()
        XCTAssertFalse(isColor(first.color(at: headSide), near: .systemBlue, tolerance: 0.12), "not grown yet")
        clock.advance(by: MKMarkerAnnotationView.appearDuration / 2)
        XCTAssertTrue(map.isAnimating)
        clock.advance(by: MKMarkerAnnotationView.appearDuration)
        let grown = try map.render()
        assertColor(grown.color(at: headSide), near: .systemBlue, tolerance: 0.12)
        XCTAssertFalse(map.isAnimating)
    }

    func testZPriorityOrdersDrawingAndTapsAndSelectionComesOnTop() throws {
        let red = try square(.systemRed), blue = try square(.systemBlue)
        let (map, _, _) = try map { annotation in
            let view = MKAnnotationView(annotation: annotation, reuseIdentifier: nil)
            view.image = annotation.title == "red" ? red : blue
            view.canShowCallout = false
            return view
        }
        // Two squares on the same point, the red one added last.
        let bluePlace = MKPointAnnotation(coordinate: MapViewFixtures.monaco, title: "blue", subtitle: nil)
        let redPlace = MKPointAnnotation(coordinate: MapViewFixtures.monaco, title: "red", subtitle: nil)
        map.addAnnotations([bluePlace, redPlace])
        let point = map.convert(MapViewFixtures.monaco, toPointTo: map)
        map.view(for: bluePlace)!.zPriority = .max
        XCTAssertTrue(isColor(try map.render().color(at: point), near: .systemBlue), "the higher zPriority is in front")
        XCTAssertTrue(map.annotationView(at: point)?.annotation === bluePlace)
        map.view(for: bluePlace)!.zPriority = .min
        XCTAssertTrue(isColor(try map.render().color(at: point), near: .systemRed))
        XCTAssertTrue(map.annotationView(at: point)?.annotation === redPlace)
        // Selected: its selectedZPriority (defaultSelected) puts it over the unselected one.
        map.selectAnnotation(bluePlace, animated: false)
        XCTAssertTrue(isColor(try map.render().color(at: point), near: .systemBlue))
        map.view(for: bluePlace)!.selectedZPriority = .min
        XCTAssertTrue(isColor(try map.render().color(at: point), near: .systemRed))
        // Alpha fades, hidden hides.
        map.view(for: redPlace)!.isHidden = true
        XCTAssertTrue(isColor(try map.render().color(at: point), near: .systemBlue))
    }

    func testHighlightGlyphTintAndSubtitleChangeTheFrame() throws {
        let (map, _, _) = try map { annotation in
            let marker = MKMarkerAnnotationView(annotation: annotation, reuseIdentifier: "m")
            marker.titleVisibility = .visible
            return marker
        }
        let place = MKPointAnnotation(coordinate: MapViewFixtures.monaco, title: "Palais", subtitle: "Monaco-Ville")
        map.addAnnotation(place)
        let marker = try XCTUnwrap(map.view(for: place) as? MKMarkerAnnotationView)
        let point = map.convert(MapViewFixtures.monaco, toPointTo: map)
        let headSide = CGPoint(x: point.x + 10, y: point.y - AnnotationDrawing.tipToCenter)
        let plain = try map.render()
        marker.isHighlighted = true
        let pressed = try map.render()
        let before = try XCTUnwrap(plain.color(at: headSide)), after = try XCTUnwrap(pressed.color(at: headSide))
        XCTAssertLessThan(after.red, before.red - 0.1, "a highlighted balloon is darker")
        marker.isHighlighted = false
        // The pin glyph in black: dark pixels in the middle of the head.
        marker.glyphTintColor = UIColor(red: 0, green: 0, blue: 0, alpha: 1)
        let tinted = try map.render()
        let glyphArea = (-6...6).flatMap { dx in (-6...6).map { dy in CGPoint(x: point.x + CGFloat(dx), y: point.y - AnnotationDrawing.tipToCenter + CGFloat(dy)) } }
        XCTAssertTrue(glyphArea.compactMap { tinted.color(at: $0) }.contains { $0.red < 0.2 && $0.green < 0.2 })
        XCTAssertFalse(glyphArea.compactMap { plain.color(at: $0) }.contains { $0.red < 0.2 && $0.green < 0.2 }, "white by default")
        // The subtitle: adaptive shows it only while selected; visible always; hidden never.
        func subtitleInk(_ image: UIImage) -> Int {
            let band = stride(from: point.x - 30, to: point.x + 30, by: 1).flatMap { x in
                stride(from: point.y + 17, to: point.y + 28, by: 1).map { CGPoint(x: x, y: $0) }
            }
            return band.compactMap { image.color(at: $0) }.filter { $0.red < 0.55 && $0.green < 0.55 && $0.blue < 0.6 }.count
        }
        marker.glyphTintColor = nil
        let unselected = subtitleInk(try map.render())
        map.selectAnnotation(place, animated: false)
        let selected = subtitleInk(try map.render())
        XCTAssertGreaterThan(selected, unselected + 5, "adaptive: the subtitle shows while selected")
        marker.subtitleVisibility = .hidden
        XCTAssertLessThan(subtitleInk(try map.render()), selected - 5)
        map.deselectAnnotation(place, animated: false)
        marker.subtitleVisibility = .visible
        XCTAssertGreaterThan(subtitleInk(try map.render()), unselected + 5)
    }

    func testUserLocationUsesTheLocationViewWithItsAccuracyCircle() throws {
        final class Provider: MKUserLocationProvider {
            func startUpdatingLocation(_ handler: @escaping (MKUserLocationEvent) -> Void) {
                handler(.location(CLLocation(coordinate: MapViewFixtures.monaco, altitude: 0, horizontalAccuracy: 400, verticalAccuracy: -1,
                                             timestamp: Date())))
            }
            func stopUpdatingLocation() {}
        }
        let (map, _, _) = try map { _ in nil }
        map.region = MKCoordinateRegion(center: MapViewFixtures.monaco, latitudinalMeters: 1500, longitudinalMeters: 1500)
        map.userLocationProvider = Provider()
        map.showsUserLocation = true
        let view = try XCTUnwrap(map.view(for: map.userLocation))
        XCTAssertTrue(view is MKUserLocationView)
        XCTAssertEqual(view.frame.size, CGSize(width: 22, height: 22))
        let point = map.convert(MapViewFixtures.monaco, toPointTo: map)
        let image = try map.render()
        MonacoBundle.save(image, "mapview-user-location")
        assertColor(image.color(at: point), near: .systemBlue, tolerance: 0.1)
        // 400 m at this zoom is well beyond the dot's halo: the circle's edge shows blue.
        let radius = 400 / map.viewport.metersPerPoint
        XCTAssertGreaterThan(radius, 30)
        let ring = try XCTUnwrap(image.color(at: CGPoint(x: point.x, y: point.y - radius + 1.5)))
        XCTAssertGreaterThan(ring.blue, ring.red + 0.05, "the accuracy circle's edge")
        (view as! MKUserLocationView).showsAccuracyRing = false
        let without = try XCTUnwrap(try map.render().color(at: CGPoint(x: point.x, y: point.y - radius + 1.5)))
        XCTAssertNotEqual(without, ring)
    }
}
