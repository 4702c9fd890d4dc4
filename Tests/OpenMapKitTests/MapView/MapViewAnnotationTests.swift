import Foundation
@testable import OpenMapKit
import XCTest

/// A view class registered by identifier, to check the map creates registered classes.
final class BadgeAnnotationView: MKAnnotationView {
    var reuseCount = 0
    override func prepareForReuse() {
        super.prepareForReuse()
        reuseCount += 1
    }
}

/// A plain annotation class that is not an NSObject (so not Hashable).
final class PlainAnnotation: MKAnnotation {
    let coordinate: CLLocationCoordinate2D
    init(_ coordinate: CLLocationCoordinate2D) { self.coordinate = coordinate }
}

/// MKMapView's annotations: adding and removing, lookups by rectangle, views and their reuse,
/// selection rules, framing, and the annotation view models.
final class MapViewAnnotationTests: XCTestCase {
    func testAddingTwiceKeepsOneAndRemovingAStrangerDoesNothing() {
        let (map, delegate, _) = MapViewFixtures.map()
        let a = MapViewFixtures.point("A", 43.7384, 7.4246)
        map.addAnnotation(a)
        map.addAnnotation(a)
        map.addAnnotations([a, a])
        XCTAssertEqual(map.annotations.count, 1)
        XCTAssertEqual(delegate.log, ["viewFor(A)", "didAddViews(A)"])
        delegate.log = []
        map.removeAnnotation(MapViewFixtures.point("Stranger", 43.7384, 7.4246))
        map.removeAnnotations([])
        XCTAssertEqual(map.annotations.count, 1)
        XCTAssertEqual(delegate.log, [])
        map.removeAnnotation(a)
        map.removeAnnotation(a)
        XCTAssertTrue(map.annotations.isEmpty)
        XCTAssertNil(map.view(for: a))
    }

    func testAnnotationsInRectIncludingAcrossTheAntimeridian() {
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 300, height: 300), clock: MKManualMapViewClock())
        let monaco = MapViewFixtures.point("Monaco", 43.7384, 7.4246)
        let nice = MapViewFixtures.point("Nice", 43.7102, 7.2620)
        let suva = MapViewFixtures.point("Suva", -18.14, 178.44)
        let apia = MapViewFixtures.point("Apia", -13.83, -171.76)
        let plain = PlainAnnotation(CLLocationCoordinate2D(latitude: 43.739, longitude: 7.425))
        let broken = MapViewFixtures.point("Broken", .nan, 7.42)
        map.addAnnotations([monaco, nice, suva, apia, plain, broken])
        let aroundMonaco = map.annotations(in: MKMapRect(MapViewFixtures.monacoRegion))
        XCTAssertEqual(aroundMonaco.count, 2)
        XCTAssertTrue(aroundMonaco.contains(AnyHashable(monaco)))
        XCTAssertTrue(aroundMonaco.contains(AnyHashable(ObjectIdentifier(plain))), "non-Hashable annotations by identity")
        XCTAssertFalse(aroundMonaco.contains(AnyHashable(nice)))
        // 175° E … 165° W, stored past the world's right edge.
        let pacific = MKMapRect(MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: -15, longitude: -175),
                                                   span: MKCoordinateSpan(latitudeDelta: 20, longitudeDelta: 20)))
        let found = map.annotationList(in: pacific).map { $0.title ?? nil }
        XCTAssertEqual(Set(found.compactMap { $0 }), ["Suva", "Apia"])
        XCTAssertTrue(map.annotationList(in: .null).isEmpty)
        XCTAssertEqual(map.annotationList(in: .world).count, 5, "the annotation with a NaN coordinate is nowhere")
    }

    func testViewsAreReusedWhenAnnotationsScrollAway() {
        let (map, _, _) = MapViewFixtures.map()
        let a = MapViewFixtures.point("A", 43.7384, 7.4246)
        let far = MapViewFixtures.point("Far", 48.85, 2.35)
        map.addAnnotations([a, far])
        let viewOfA = map.view(for: a)!
        XCTAssertNil(map.dequeueReusableAnnotationView(withIdentifier: "custom"), "nothing queued yet")
        // Pan to Paris: A's view is queued, and the delegate's dequeue hands it to Far.
        map.setCenter(far.coordinate, animated: false)
        XCTAssertNil(map.view(for: a))
        XCTAssertTrue(map.view(for: far) === viewOfA, "the view that left was reused")
        XCTAssertTrue(viewOfA.annotation === far)
    }

    func testRegisteredClassesAreCreatedAndUnknownIdentifiersFallBack() {
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 300, height: 300), clock: MKManualMapViewClock())
        map.register(BadgeAnnotationView.self, forAnnotationViewWithReuseIdentifier: "badge")
        map.register(NSObject.self, forAnnotationViewWithReuseIdentifier: "notAView")
        let a = MapViewFixtures.point("A", 1, 1)
        let badge = map.dequeueReusableAnnotationView(withIdentifier: "badge", for: a)
        XCTAssertTrue(badge is BadgeAnnotationView)
        XCTAssertTrue(badge.annotation === a)
        XCTAssertEqual(badge.reuseIdentifier, "badge")
        let fallback = map.dequeueReusableAnnotationView(withIdentifier: "notAView", for: a)
        XCTAssertTrue(type(of: fallback) == MKMarkerAnnotationView.self, "an unregistered identifier gives a marker, not an exception")
        XCTAssertEqual(fallback.reuseIdentifier, "notAView")
        // Registering the default identifier changes the default view.
        map.register(BadgeAnnotationView.self, forAnnotationViewWithReuseIdentifier: MKMapViewDefaultAnnotationViewReuseIdentifier)
        map.region = MKCoordinateRegion(center: a.coordinate, span: MKCoordinateSpan(latitudeDelta: 1, longitudeDelta: 1))
        map.addAnnotation(a)
        XCTAssertTrue(map.view(for: a) is BadgeAnnotationView)
        // A dequeued view is prepared for reuse.
        map.selectAnnotation(a, animated: false)
        map.removeAnnotation(a)
        let reused = map.dequeueReusableAnnotationView(withIdentifier: MKMapViewDefaultAnnotationViewReuseIdentifier) as? BadgeAnnotationView
        XCTAssertNotNil(reused)
        XCTAssertEqual(reused?.reuseCount, 1)
        XCTAssertEqual(reused?.isSelected, false)
        XCTAssertNil(reused?.annotation)
    }

    func testSelectionRules() {
        let (map, delegate, _) = MapViewFixtures.map()
        let a = MapViewFixtures.point("A", 43.7384, 7.4246), b = MapViewFixtures.point("B", 43.74, 7.43)
        let far = MapViewFixtures.point("Far", 48.85, 2.35), stranger = MapViewFixtures.point("Stranger", 43.7384, 7.4246)
        map.addAnnotations([a, b, far])
        delegate.log = []
        map.selectAnnotation(far, animated: false)
        map.selectAnnotation(stranger, animated: false)
        XCTAssertTrue(map.selectedAnnotations.isEmpty, "off screen (no view) or not on the map: not selected")
        map.selectedAnnotations = [b, a]
        XCTAssertEqual(map.selectedAnnotations.count, 1, "only the first is selected")
        XCTAssertTrue(map.selectedAnnotations.first === b)
        // Removing the selected annotation deselects it first.
        map.removeAnnotation(b)
        XCTAssertEqual(delegate.log, ["didSelectView(B)", "didSelect(B)", "didDeselectView(B)", "didDeselect(B)"])
        XCTAssertTrue(map.selectedAnnotations.isEmpty)
        map.selectAnnotation(a, animated: false)
        map.selectedAnnotations = []
        XCTAssertTrue(map.selectedAnnotations.isEmpty)
        map.deselectAnnotation(nil, animated: false)
    }

    func testSelectedAnnotationKeepsItsViewOffScreen() {
        let (map, _, _) = MapViewFixtures.map()
        let a = MapViewFixtures.point("A", 43.7384, 7.4246)
        map.addAnnotation(a)
        map.selectAnnotation(a, animated: false)
        let view = map.view(for: a)
        map.setCenter(MapViewFixtures.point("Paris", 48.85, 2.35).coordinate, animated: false)
        XCTAssertTrue(map.view(for: a) === view, "selected: keeps its view")
        XCTAssertTrue(view!.isSelected)
        map.deselectAnnotation(a, animated: false)
        XCTAssertNil(map.view(for: a), "deselected off screen: its view goes to the queue")
    }

    func testShowAnnotationsFramesThemAll() {
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 300), clock: MKManualMapViewClock())
        let places = [MapViewFixtures.point("Monaco", 43.7384, 7.4246), MapViewFixtures.point("Nice", 43.7102, 7.2620),
                      MapViewFixtures.point("Menton", 43.7764, 7.5048), MapViewFixtures.point("Broken", .nan, 0)]
        map.showAnnotations(places, animated: false)
        for place in places.prefix(3) {
            let p = map.convert(place.coordinate, toPointTo: map)
            XCTAssertTrue(p.x > 20 && p.x < 380 && p.y > 40 && p.y < 290, "\(place.title!) at \(p)")
        }
        XCTAssertGreaterThan(map.zoomLevel, 9, "framed tightly, not the whole world")
        map.showAnnotations([places[0]], animated: false)
        XCTAssertEqual(map.zoomLevel, Map.singlePointZoom, accuracy: 1e-9)
        XCTAssertEqual(map.centerCoordinate.latitude, 43.7384, accuracy: 1e-9)
        let before = map.viewport
        map.showAnnotations([], animated: false)
        map.showAnnotations([places[3]], animated: false)
        XCTAssertEqual(map.viewport, before)
    }

    func testFrameOfAViewFollowsCentreOffset() {
        let (map, _, _) = MapViewFixtures.map()
        let a = MapViewFixtures.point("A", 43.7384, 7.4246)
        map.addAnnotation(a)
        let view = map.view(for: a)!
        let point = map.convert(a.coordinate, toPointTo: map)
        let frame = map.frame(of: view)!
        XCTAssertEqual(frame.midX, point.x, accuracy: 1e-9)
        XCTAssertEqual(frame.maxY, point.y, accuracy: 1e-9, "a marker's tip is on the coordinate")
        XCTAssertNil(map.frame(of: MKAnnotationView(annotation: a, reuseIdentifier: nil)), "a view not on this map has no frame")
    }

    func testAnnotationViewModelDefaults() {
        let a = MapViewFixtures.point("A", 0, 0)
        let plain = MKAnnotationView(annotation: a, reuseIdentifier: "x")
        XCTAssertEqual(plain.displayPriority, .required)
        XCTAssertEqual(plain.collisionMode, .rectangle)
        XCTAssertEqual(plain.zPriority, .defaultUnselected)
        XCTAssertEqual(plain.dragState, .none)
        XCTAssertFalse(plain.canShowCallout)
        XCTAssertNil(plain.clusteringIdentifier)
        let marker = MKMarkerAnnotationView(annotation: a, reuseIdentifier: "m")
        XCTAssertEqual(marker.displayPriority, .defaultLow)
        XCTAssertEqual(marker.titleVisibility, .adaptive)
        XCTAssertEqual(marker.subtitleVisibility, .adaptive)
        XCTAssertEqual(marker.effectiveTint, UIColor.systemRed)
        marker.markerTintColor = .systemBlue
        marker.glyphText = "FB"
        marker.clusteringIdentifier = "cafes"
        marker.setDragState(.dragging, animated: false)
        XCTAssertEqual(marker.effectiveTint, UIColor.systemBlue)
        XCTAssertEqual(marker.dragState, .dragging)
        marker.prepareForReuse()
        XCTAssertEqual(marker.dragState, .none)
        XCTAssertEqual(marker.clusteringIdentifier, "cafes", "configuration survives reuse; per-annotation state does not")
        XCTAssertTrue(MKFeatureDisplayPriority.defaultLow < .defaultHigh)
    }

    func testClusterAnnotationCentreAcrossTheAntimeridian() {
        let cluster = MKClusterAnnotation(memberAnnotations: [MapViewFixtures.point("W", 0, 179), MapViewFixtures.point("E", 0, -179)])
        XCTAssertEqual(abs(cluster.coordinate.longitude), 180, accuracy: 1e-9, "the middle is on the meridian, not at 0°")
        XCTAssertEqual(MKClusterAnnotation(memberAnnotations: []).coordinate, CLLocationCoordinate2D())
    }

    func testDefaultDelegateMakesClusterAnnotationAndPlainRenderer() {
        final class Silent: MKMapViewDelegate {}
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 100, height: 100), clock: MKManualMapViewClock())
        let silent = Silent()
        let members = [MapViewFixtures.point("A", 1, 1), MapViewFixtures.point("B", 1, 2)]
        let cluster = silent.mapView(map, clusterAnnotationForMemberAnnotations: members)
        XCTAssertEqual(cluster.memberAnnotations.count, 2)
        XCTAssertNil(silent.mapView(map, viewFor: members[0]))
        let circle = MKCircle(center: CLLocationCoordinate2D(), radius: 10)
        XCTAssertTrue(type(of: silent.mapView(map, rendererFor: circle)) == MKOverlayRenderer.self)
    }
}
