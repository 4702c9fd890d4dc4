import Foundation
@testable import OpenMapKit
import TestSupport
import XCTest

/// Callout accessory views: laid out in the callout, drawn, and a tap on a control reaching the
/// delegate's `calloutAccessoryControlTapped` (and nothing else).
final class MapViewCalloutAccessoryTests: XCTestCase {
    final class Delegate: MKMapViewDelegate {
        var log: [String] = []
        var configure: ((MKAnnotationView) -> Void)?
        func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? {
            let view = MKMarkerAnnotationView(annotation: annotation, reuseIdentifier: "m")
            view.canShowCallout = true
            configure?(view)
            return view
        }
        func mapView(_ mapView: MKMapView, annotationView view: MKAnnotationView, calloutAccessoryControlTapped control: UIControl) {
            log.append("accessory(\(control.tag))")
        }
        func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation) { log.append("select") }
        func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation) { log.append("deselect") }
    }

    private func selectedMap(_ configure: @escaping (MKAnnotationView) -> Void) throws -> (MKMapView, Delegate, MKPointAnnotation) {
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 400), clock: MKManualMapViewClock())
        map.dataSource = try MonacoBundle.dataSource()
        map.region = MapViewFixtures.monacoRegion
        let delegate = Delegate()
        delegate.configure = configure
        map.delegate = delegate
        let place = MKPointAnnotation(coordinate: MapViewFixtures.monaco, title: "Palais", subtitle: "Monaco-Ville")
        map.addAnnotation(place)
        map.selectAnnotation(place, animated: false)
        delegate.log = []
        return (map, delegate, place)
    }

    func testTappingTheRightAccessoryCallsTheDelegateAndKeepsTheSelection() throws {
        let button = UIButton(type: .detailDisclosure)
        button.tag = 7
        let (map, delegate, place) = try selectedMap { $0.rightCalloutAccessoryView = button }
        XCTAssertEqual(button.frame.size, CGSize(width: 22, height: 22))
        let layout = try XCTUnwrap(map.selectedCalloutLayout())
        let right = try XCTUnwrap(layout.right?.frame)
        XCTAssertTrue(layout.box.contains(right), "the accessory is inside the bubble")
        XCTAssertGreaterThan(right.minX, layout.titleOrigin.x, "right of the title")
        XCTAssertTrue(map.isOnControl(CGPoint(x: right.midX, y: right.midY)))
        map.tap(at: CGPoint(x: right.midX, y: right.midY))
        XCTAssertEqual(delegate.log, ["accessory(7)"])
        XCTAssertTrue(map.selectedAnnotations.first === place)
        // Elsewhere on the bubble: nothing at all (no deselect, no accessory).
        map.tap(at: CGPoint(x: layout.box.minX + 4, y: layout.box.minY + 4))
        XCTAssertEqual(delegate.log, ["accessory(7)"])
        // A disabled control takes no taps.
        button.isEnabled = false
        map.tap(at: CGPoint(x: right.midX, y: right.midY))
        XCTAssertEqual(delegate.log, ["accessory(7)"])
        // Off the callout, on the bare map: deselects.
        map.tap(at: CGPoint(x: 20, y: 380))
        XCTAssertEqual(delegate.log, ["accessory(7)", "deselect"])
    }

    func testAccessoriesWidenTheCalloutAndAreDrawn() throws {
        let (plain, _, _) = try selectedMap { _ in }
        let plainBox = try XCTUnwrap(plain.calloutFrame)
        let left = UIButton(type: .contactAdd)
        left.tag = 1
        let right = UIButton(type: .detailDisclosure)
        let (map, delegate, _) = try selectedMap {
            $0.leftCalloutAccessoryView = left
            $0.rightCalloutAccessoryView = right
        }
        let layout = try XCTUnwrap(map.selectedCalloutLayout())
        XCTAssertEqual(layout.box.width, plainBox.width + 2 * (22 + MapViewCallout.spacing), accuracy: 0.5)
        let leftFrame = try XCTUnwrap(layout.left?.frame), rightFrame = try XCTUnwrap(layout.right?.frame)
        XCTAssertLessThan(leftFrame.maxX, layout.titleOrigin.x)
        map.tap(at: CGPoint(x: leftFrame.midX, y: leftFrame.midY))
        XCTAssertEqual(delegate.log, ["accessory(1)"])
        let image = try map.render()
        MonacoBundle.save(image, "mapview-callout-accessories")
        // The disclosure's ring is drawn in the system blue on the white bubble.
        let ring = try XCTUnwrap(image.color(at: CGPoint(x: rightFrame.midX + 10, y: rightFrame.midY)))
        XCTAssertTrue(isColor(ring, near: .systemBlue, tolerance: 0.2), "ring: \(ring)")
        let inside = try XCTUnwrap(image.color(at: CGPoint(x: rightFrame.midX + 5, y: rightFrame.midY + 5)))
        assertColor(inside, near: UIColor(red: 1, green: 1, blue: 1, alpha: 1), tolerance: 0.1)
    }

    func testDetailAccessoryTakesTheSubtitlesPlace() throws {
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 120, height: 30))
        label.text = "Open 9–18"
        let (map, _, _) = try selectedMap { $0.detailCalloutAccessoryView = label }
        let layout = try XCTUnwrap(map.selectedCalloutLayout())
        XCTAssertNil(layout.subtitle, "the detail view replaces the subtitle")
        let detail = try XCTUnwrap(layout.detail?.frame)
        XCTAssertEqual(detail.size, CGSize(width: 120, height: 30))
        XCTAssertGreaterThan(detail.minY, layout.titleOrigin.y - 1, "under the title")
        XCTAssertGreaterThanOrEqual(layout.box.width, 120 + 2 * MapViewCallout.padding)
        // Hidden views take no room.
        label.isHidden = true
        XCTAssertNil(map.selectedCalloutLayout()?.detail)
        XCTAssertEqual(map.selectedCalloutLayout()?.subtitle, "Monaco-Ville")
    }

    func testHostileAccessorySizesAreCapped() throws {
        let huge = UIView(frame: CGRect(x: 0, y: 0, width: 1e9, height: CGFloat.infinity))
        let (map, _, _) = try selectedMap { $0.leftCalloutAccessoryView = huge }
        let layout = try XCTUnwrap(map.selectedCalloutLayout())
        XCTAssertNil(layout.left, "a non-finite size is left out")
        huge.frame = CGRect(x: 0, y: 0, width: 1e9, height: 1e9)
        let capped = try XCTUnwrap(map.selectedCalloutLayout()?.left?.frame)
        XCTAssertLessThanOrEqual(capped.width, 400)
        _ = try map.render()
    }
}
