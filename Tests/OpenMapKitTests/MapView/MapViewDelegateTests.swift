import Foundation
@testable import OpenMapKit
import XCTest

/// A delegate that writes down every callback, in order, as a short string, and can be scripted
/// to do things from inside callbacks (the re-entrancy tests).
final class RecordingMapViewDelegate: MKMapViewDelegate {
    var log: [String] = []
    /// Annotations (by title) for which `viewFor` returns nil (the map's default view).
    var defaultViewTitles: Set<String> = []
    /// Runs inside the named callback (then is cleared, so it runs once).
    var onceIn: [String: (MKMapView) -> Void] = [:]
    /// Regions read inside `regionDidChange`.
    var regionsAtDidChange: [MKCoordinateRegion] = []
    /// Overlays for which `rendererFor` gives a polyline renderer (others get the default).
    var rendererFactory: ((any MKOverlay) -> MKOverlayRenderer)?

    private func run(_ name: String, _ mapView: MKMapView) {
        if let action = onceIn.removeValue(forKey: name) { action(mapView) }
    }

    static func name(_ annotation: any MKAnnotation) -> String { (annotation.title ?? nil) ?? "?" }

    /// The log without the per-frame `visible` entries collapsed: runs of them become one `visible*`.
    var collapsed: [String] {
        var out: [String] = []
        for entry in log {
            if entry == "visible", out.last == "visible" || out.last == "visible*" { out[out.count - 1] = "visible*"; continue }
            out.append(entry)
        }
        return out
    }

    func mapView(_ mapView: MKMapView, regionWillChangeAnimated animated: Bool) {
        log.append("will(\(animated))")
        run("will", mapView)
    }
    func mapViewDidChangeVisibleRegion(_ mapView: MKMapView) {
        log.append("visible")
        run("visible", mapView)
    }
    func mapView(_ mapView: MKMapView, regionDidChangeAnimated animated: Bool) {
        log.append("did(\(animated))")
        regionsAtDidChange.append(mapView.region)
        run("did", mapView)
    }
    func mapViewWillStartLoadingMap(_ mapView: MKMapView) { log.append("willStartLoading") }
    func mapViewDidFinishLoadingMap(_ mapView: MKMapView) { log.append("didFinishLoading") }
    func mapViewDidFailLoadingMap(_ mapView: MKMapView, withError error: any Error) { log.append("didFailLoading") }
    func mapViewWillStartRenderingMap(_ mapView: MKMapView) { log.append("willStartRendering") }
    func mapViewDidFinishRenderingMap(_ mapView: MKMapView, fullyRendered: Bool) { log.append("didFinishRendering(\(fullyRendered))") }
    func mapViewWillStartLocatingUser(_ mapView: MKMapView) { log.append("willStartLocating") }
    func mapViewDidStopLocatingUser(_ mapView: MKMapView) { log.append("didStopLocating") }
    func mapView(_ mapView: MKMapView, didUpdate userLocation: MKUserLocation) { log.append("didUpdateUser") }
    func mapView(_ mapView: MKMapView, didFailToLocateUserWithError error: any Error) { log.append("didFailToLocate") }
    func mapView(_ mapView: MKMapView, didChange mode: MKUserTrackingMode, animated: Bool) { log.append("mode(\(mode.rawValue),\(animated))") }

    func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? {
        let name = Self.name(annotation)
        log.append("viewFor(\(name))")
        run("viewFor(\(name))", mapView)
        if defaultViewTitles.contains(name) { return nil }
        let view = mapView.dequeueReusableAnnotationView(withIdentifier: "custom", for: annotation)
        return view
    }
    func mapView(_ mapView: MKMapView, didAdd views: [MKAnnotationView]) {
        log.append("didAddViews(\(views.map { $0.annotation.map(Self.name) ?? "nil" }.joined(separator: ",")))")
    }
    func mapView(_ mapView: MKMapView, didSelect view: MKAnnotationView) {
        log.append("didSelectView(\(view.annotation.map(Self.name) ?? "nil"))")
        run("didSelectView", mapView)
    }
    func mapView(_ mapView: MKMapView, didDeselect view: MKAnnotationView) {
        log.append("didDeselectView(\(view.annotation.map(Self.name) ?? "nil"))")
    }
    func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation) { log.append("didSelect(\(Self.name(annotation)))") }
    func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation) { log.append("didDeselect(\(Self.name(annotation)))") }
    func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer {
        log.append("rendererFor(\(Self.name(overlay)))")
        run("rendererFor(\(Self.name(overlay)))", mapView)
        return rendererFactory?(overlay) ?? MKOverlayRenderer(overlay: overlay)
    }
    func mapView(_ mapView: MKMapView, didAdd renderers: [MKOverlayRenderer]) {
        log.append("didAddRenderers(\(renderers.map { Self.name($0.overlay) }.joined(separator: ",")))")
    }
    func mapView(_ mapView: MKMapView, annotationView view: MKAnnotationView, didChange newState: MKAnnotationView.DragState,
                 fromOldState oldState: MKAnnotationView.DragState) {
        log.append("drag(\(oldState.rawValue)->\(newState.rawValue))")
    }
}

/// Places around Monaco and a map of it.
enum MapViewFixtures {
    static let monaco = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
    static let nice = CLLocationCoordinate2D(latitude: 43.7102, longitude: 7.2620)
    /// About 6 km across: Monaco and its edges, not Nice.
    static let monacoRegion = MKCoordinateRegion(center: monaco, latitudinalMeters: 6000, longitudinalMeters: 6000)

    static func point(_ title: String, _ latitude: Double, _ longitude: Double) -> MKPointAnnotation {
        MKPointAnnotation(coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), title: title, subtitle: nil)
    }

    /// A 400 × 400 map on a manual clock, showing `monacoRegion`, with a recording delegate whose
    /// log starts empty.
    static func map() -> (MKMapView, RecordingMapViewDelegate, MKManualMapViewClock) {
        let clock = MKManualMapViewClock()
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 400), clock: clock)
        map.region = monacoRegion
        let delegate = RecordingMapViewDelegate()
        map.delegate = delegate
        map.register(MKMarkerAnnotationView.self, forAnnotationViewWithReuseIdentifier: "custom")
        return (map, delegate, clock)
    }
}

/// The order of MKMapViewDelegate callbacks in scripted scenarios, and delegates that call back
/// into the map view.
final class MapViewDelegateTests: XCTestCase {
    func testImmediateRegionChangeIsWillVisibleDid() {
        let (map, delegate, _) = MapViewFixtures.map()
        map.setCenter(MapViewFixtures.nice, animated: false)
        XCTAssertEqual(delegate.log, ["will(false)", "visible", "did(false)"])
        XCTAssertEqual(map.centerCoordinate.latitude, MapViewFixtures.nice.latitude, accuracy: 1e-9)
    }

    func testChangeThatChangesNothingCallsNothing() {
        let (map, delegate, _) = MapViewFixtures.map()
        map.setCenter(map.centerCoordinate, animated: false)
        map.region = MapViewFixtures.monacoRegion
        map.setCenter(map.centerCoordinate, animated: true)
        XCTAssertEqual(delegate.log, [])
        XCTAssertFalse(map.isAnimating)
    }

    func testAnimatedChangeReportsEachFrameAndEndsAtTarget() {
        let (map, delegate, clock) = MapViewFixtures.map()
        let start = map.centerCoordinate
        map.setCenter(MapViewFixtures.nice, animated: true)
        XCTAssertEqual(delegate.log, ["will(true)"])
        XCTAssertTrue(map.isAnimating)
        XCTAssertEqual(map.centerCoordinate, start, "an animation moves only when time does")
        var frames = 0
        while map.isAnimating, frames < 100 {
            clock.advance(by: 1.0 / 60)
            map.advanceAnimations()
            frames += 1
        }
        XCTAssertEqual(delegate.collapsed, ["will(true)", "visible*", "did(true)"])
        let visibleCount = delegate.log.filter { $0 == "visible" }.count
        XCTAssertGreaterThan(visibleCount, 10, "a 0.35 s animation at 60 Hz reports about 21 frames")
        XCTAssertEqual(map.centerCoordinate.longitude, MapViewFixtures.nice.longitude, accuracy: 1e-9)
        XCTAssertEqual(delegate.regionsAtDidChange.last, map.region, "regionDidChange sees the final region")
    }

    func testAnimationMovesMonotonicallyWithEasing() {
        let (map, _, clock) = MapViewFixtures.map()
        let from = map.centerCoordinate.longitude, to = MapViewFixtures.nice.longitude
        map.setCenter(MapViewFixtures.nice, animated: true)
        var previous = from
        var steps: [Double] = []
        for _ in 0..<7 {
            clock.advance(by: MKMapView.defaultAnimationDuration / 7)
            map.advanceAnimations()
            let now = map.centerCoordinate.longitude
            XCTAssertLessThanOrEqual(now, previous + 1e-12, "moves west toward Nice without overshooting")
            steps.append(previous - now)
            previous = now
        }
        XCTAssertEqual(previous, to, accuracy: 1e-9)
        XCTAssertLessThan(steps.first!, steps[3], "eased in: the first step is shorter than the middle one")
        XCTAssertLessThan(steps.last!, steps[3], "eased out")
    }

    func testInterruptingAnAnimationEndsItThenStartsTheNewChange() {
        let (map, delegate, clock) = MapViewFixtures.map()
        map.setCenter(MapViewFixtures.nice, animated: true)
        clock.advance(by: 0.1)
        map.advanceAnimations()
        let target = CLLocationCoordinate2D(latitude: 43.75, longitude: 7.45)
        map.setCenter(target, animated: false)
        XCTAssertEqual(delegate.log, ["will(true)", "visible", "did(true)", "will(false)", "visible", "did(false)"])
        XCTAssertFalse(map.isAnimating)
        XCTAssertEqual(map.centerCoordinate.latitude, 43.75, accuracy: 1e-9)
    }

    func testAddingAnnotationsProvisionsVisibleOnesInOneBatch() {
        let (map, delegate, _) = MapViewFixtures.map()
        delegate.defaultViewTitles = ["C"]
        let a = MapViewFixtures.point("A", 43.7384, 7.4246)
        let b = MapViewFixtures.point("B", 43.74, 7.43)
        let c = MapViewFixtures.point("C", 43.73, 7.42)
        let far = MapViewFixtures.point("Far", 48.85, 2.35)
        map.addAnnotations([a, far, b, c])
        XCTAssertEqual(delegate.log, ["viewFor(A)", "viewFor(B)", "viewFor(C)", "didAddViews(A,B,C)"])
        XCTAssertEqual(map.view(for: a)?.reuseIdentifier, "custom")
        XCTAssertEqual(map.view(for: c)?.reuseIdentifier, MKMapViewDefaultAnnotationViewReuseIdentifier,
                       "a nil view from the delegate gives the default marker")
        XCTAssertTrue(map.view(for: c) is MKMarkerAnnotationView)
        XCTAssertNil(map.view(for: far), "off screen: no view yet")
        XCTAssertEqual(map.annotations.count, 4)
    }

    func testPanningToAnAnnotationProvisionsItsViewBeforeRegionDidChange() {
        let (map, delegate, _) = MapViewFixtures.map()
        let nice = MapViewFixtures.point("Nice", MapViewFixtures.nice.latitude, MapViewFixtures.nice.longitude)
        map.addAnnotation(nice)
        XCTAssertEqual(delegate.log, [])
        map.setCenter(MapViewFixtures.nice, animated: false)
        XCTAssertEqual(delegate.log, ["will(false)", "visible", "viewFor(Nice)", "didAddViews(Nice)", "did(false)"])
        XCTAssertNotNil(map.view(for: nice))
        map.setCenter(MapViewFixtures.monaco, animated: false)
        XCTAssertNil(map.view(for: nice), "its view went to the reuse queue when it left the screen")
    }

    func testSelectionSequence() {
        let (map, delegate, _) = MapViewFixtures.map()
        let a = MapViewFixtures.point("A", 43.7384, 7.4246), b = MapViewFixtures.point("B", 43.74, 7.43)
        map.addAnnotations([a, b])
        delegate.log = []
        map.selectAnnotation(a, animated: false)
        map.selectAnnotation(b, animated: true)
        map.selectAnnotation(b, animated: true)
        map.deselectAnnotation(b, animated: false)
        map.deselectAnnotation(b, animated: false)
        XCTAssertEqual(delegate.log, ["didSelectView(A)", "didSelect(A)",
                                      "didDeselectView(A)", "didDeselect(A)", "didSelectView(B)", "didSelect(B)",
                                      "didDeselectView(B)", "didDeselect(B)"])
        XCTAssertTrue(map.selectedAnnotations.isEmpty)
        XCTAssertFalse(map.view(for: b)!.isSelected)
    }

    func testAddingOverlaysAsksForRenderersOfVisibleOnes() {
        let (map, delegate, _) = MapViewFixtures.map()
        let here = MKPolyline(coordinates: [CLLocationCoordinate2D(latitude: 43.73, longitude: 7.41),
                                            CLLocationCoordinate2D(latitude: 43.745, longitude: 7.435)])
        here.title = "route"
        let there = MKCircle(center: MapViewFixtures.nice, radius: 200)
        there.title = "nice"
        map.addOverlays([here, there])
        XCTAssertEqual(delegate.log, ["rendererFor(route)", "didAddRenderers(route)"])
        delegate.log = []
        map.setCenter(MapViewFixtures.nice, animated: false)
        XCTAssertEqual(delegate.log, ["will(false)", "visible", "rendererFor(nice)", "didAddRenderers(nice)", "did(false)"])
    }

    func testFullScenarioLoadPanZoomSelectOverlay() {
        let clock = MKManualMapViewClock()
        let map = MKMapView(frame: .zero, clock: clock)
        let delegate = RecordingMapViewDelegate()
        map.delegate = delegate
        map.register(MKMarkerAnnotationView.self, forAnnotationViewWithReuseIdentifier: "custom")
        let a = MapViewFixtures.point("A", 43.7384, 7.4246)
        map.addAnnotation(a)
        map.region = MapViewFixtures.monacoRegion
        XCTAssertEqual(delegate.log, [], "not laid out: nothing is visible, nothing changes yet")
        map.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        XCTAssertEqual(delegate.log, ["will(false)", "visible", "viewFor(A)", "didAddViews(A)", "did(false)"])
        delegate.log = []
        map.setZoomLevel(map.zoomLevel + 1, animated: true)
        while map.isAnimating { clock.advance(by: 0.05); map.advanceAnimations() }
        map.selectAnnotation(a, animated: false)
        let line = MKPolyline(coordinates: [MapViewFixtures.monaco, CLLocationCoordinate2D(latitude: 43.74, longitude: 7.43)])
        line.title = "L"
        map.addOverlay(line, level: .aboveRoads)
        XCTAssertEqual(delegate.collapsed, ["will(true)", "visible*", "did(true)", "didSelectView(A)", "didSelect(A)",
                                            "rendererFor(L)", "didAddRenderers(L)"])
    }

    // MARK: - Re-entrancy

    func testRegionChangeFromRegionDidChangeRunsAfterTheCurrentChange() {
        let (map, delegate, _) = MapViewFixtures.map()
        let snapBack = MapViewFixtures.monaco
        var centerReadInside: CLLocationCoordinate2D?
        delegate.onceIn["did"] = { map in
            map.setCenter(snapBack, animated: false)
            centerReadInside = map.centerCoordinate
        }
        map.setCenter(MapViewFixtures.nice, animated: false)
        XCTAssertEqual(delegate.log, ["will(false)", "visible", "did(false)", "will(false)", "visible", "did(false)"])
        XCTAssertEqual(centerReadInside!.longitude, MapViewFixtures.nice.longitude, accuracy: 1e-9,
                       "inside the callback the map still reports the change being reported")
        XCTAssertEqual(map.centerCoordinate.longitude, snapBack.longitude, accuracy: 1e-9, "the later request wins")
    }

    func testRegionChangeFromRegionWillChangeKeepsPairsBalanced() {
        let (map, delegate, _) = MapViewFixtures.map()
        delegate.onceIn["will"] = { map in map.setZoomLevel(map.zoomLevel - 1, animated: true) }
        let before = map.zoomLevel
        map.setCenter(MapViewFixtures.nice, animated: false)
        // The outer change completes, then the queued animated zoom begins.
        XCTAssertEqual(delegate.log, ["will(false)", "visible", "did(false)", "will(true)"])
        XCTAssertTrue(map.isAnimating)
        map.clockFinish()
        XCTAssertEqual(delegate.log.last, "did(true)")
        XCTAssertEqual(map.zoomLevel, before - 1, accuracy: 1e-9)
        XCTAssertEqual(map.centerCoordinate.longitude, MapViewFixtures.nice.longitude, accuracy: 1e-9)
        XCTAssertEqual(delegate.log.filter { $0.hasPrefix("will") }.count, delegate.log.filter { $0.hasPrefix("did(") }.count)
    }

    func testDelegateRemovingAnnotationInViewForLeavesConsistentState() {
        let (map, delegate, _) = MapViewFixtures.map()
        let a = MapViewFixtures.point("A", 43.7384, 7.4246), b = MapViewFixtures.point("B", 43.74, 7.43)
        delegate.onceIn["viewFor(A)"] = { map in map.removeAnnotation(a) }
        map.addAnnotations([a, b])
        XCTAssertEqual(delegate.log, ["viewFor(A)", "viewFor(B)", "didAddViews(B)"])
        XCTAssertEqual(map.annotations.count, 1)
        XCTAssertTrue(map.annotations.first === b)
        XCTAssertNil(map.view(for: a))
        XCTAssertNotNil(map.view(for: b))
    }

    func testDelegateAddingAnnotationInViewForIsProvisionedOnce() {
        let (map, delegate, _) = MapViewFixtures.map()
        let a = MapViewFixtures.point("A", 43.7384, 7.4246), b = MapViewFixtures.point("B", 43.74, 7.43)
        delegate.onceIn["viewFor(A)"] = { map in map.addAnnotation(b) }
        map.addAnnotation(a)
        XCTAssertEqual(delegate.log.filter { $0 == "viewFor(B)" }.count, 1)
        XCTAssertEqual(delegate.log.filter { $0 == "viewFor(A)" }.count, 1)
        XCTAssertNotNil(map.view(for: a))
        XCTAssertNotNil(map.view(for: b))
        // Every provisioned view was reported in some didAdd, once.
        let reported = delegate.log.filter { $0.hasPrefix("didAddViews") }.joined()
        XCTAssertTrue(reported.contains("A") && reported.contains("B"), "\(delegate.log)")
    }

    func testDelegateSelectingAnotherAnnotationInsideDidSelect() {
        let (map, delegate, _) = MapViewFixtures.map()
        let a = MapViewFixtures.point("A", 43.7384, 7.4246), b = MapViewFixtures.point("B", 43.74, 7.43)
        map.addAnnotations([a, b])
        delegate.log = []
        delegate.onceIn["didSelectView"] = { map in map.selectAnnotation(b, animated: false) }
        map.selectAnnotation(a, animated: false)
        XCTAssertEqual(delegate.log, ["didSelectView(A)", "didDeselectView(A)", "didDeselect(A)", "didSelectView(B)", "didSelect(B)"])
        XCTAssertEqual(map.selectedAnnotations.count, 1)
        XCTAssertTrue(map.selectedAnnotations.first === b)
        XCTAssertFalse(map.view(for: a)!.isSelected)
        XCTAssertTrue(map.view(for: b)!.isSelected)
    }

    func testDelegateIsHeldWeakly() {
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 100, height: 100), clock: MKManualMapViewClock())
        do {
            let delegate = RecordingMapViewDelegate()
            map.delegate = delegate
            map.setCenter(MapViewFixtures.monaco, animated: false)
            XCTAssertEqual(delegate.log.count, 3)
        }
        XCTAssertNil(map.delegate)
        map.setCenter(MapViewFixtures.nice, animated: false)
        XCTAssertEqual(map.centerCoordinate.longitude, MapViewFixtures.nice.longitude, accuracy: 1e-9)
    }
}

extension MKMapView {
    /// Runs the current animation to its end on a manual clock.
    func clockFinish() {
        guard let clock = clock as? MKManualMapViewClock else { return }
        while isAnimating {
            clock.advance(by: 0.05)
            advanceAnimations()
        }
    }
}
