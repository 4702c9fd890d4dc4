import Foundation
@testable import OpenMapKit
import TestSupport
import XCTest

/// MKMapView.render() on the Monaco bundle: the loading and rendering callbacks, and the frame
/// holding the map, overlays and markers where the map view says they are.
final class MapViewRenderTests: XCTestCase {
    func testRenderReportsLoadingAndRenderingAndDrawsContent() throws {
        let (map, delegate, _) = MapViewFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        map.region = MKCoordinateRegion(center: MapViewFixtures.monaco, latitudinalMeters: 1500, longitudinalMeters: 1500)
        let marker = MapViewFixtures.point("Casino", 43.7393, 7.4277)
        map.addAnnotation(marker)
        (map.view(for: marker) as? MKMarkerAnnotationView)?.markerTintColor = .systemGreen
        let circle = MKCircle(center: CLLocationCoordinate2D(latitude: 43.7350, longitude: 7.4200), radius: 120)
        circle.title = "zone"
        delegate.rendererFactory = { overlay in
            let renderer = MKCircleRenderer(circle: overlay as! MKCircle)
            renderer.fillColor = .systemBlue
            return renderer
        }
        map.addOverlay(circle)
        delegate.log = []
        let image = try map.render()
        XCTAssertEqual(delegate.log, ["willStartLoading", "willStartRendering", "didFinishLoading", "didFinishRendering(true)"])
        XCTAssertEqual(image.size, CGSize(width: 400, height: 400))
        MonacoBundle.save(image, "mapview-render")
        // The circle's centre is blue where the map view puts it.
        let centre = map.convert(circle.coordinate, toPointTo: map)
        let blue = try XCTUnwrap(image.color(at: centre))
        XCTAssertLessThan(blue.red, 0.1)
        XCTAssertGreaterThan(blue.blue, 0.9)
        // The marker's balloon head is green above its tip.
        let tip = map.convert(marker.coordinate, toPointTo: map)
        let head = try XCTUnwrap(image.color(at: CGPoint(x: tip.x, y: tip.y - 25 - 8)))
        XCTAssertGreaterThan(head.green, 0.6)
        XCTAssertLessThan(head.red, 0.4)
        // The map itself is drawn: not one flat colour.
        let corners = [CGPoint(x: 5, y: 5), CGPoint(x: 395, y: 5), CGPoint(x: 5, y: 395), CGPoint(x: 395, y: 395), CGPoint(x: 200, y: 300)]
            .compactMap { image.color(at: $0) }
        XCTAssertGreaterThan(Set(corners).count, 1)
        // Selecting an annotation whose view shows callouts draws its callout above the view.
        map.view(for: marker)!.canShowCallout = true
        map.selectAnnotation(marker, animated: false)
        let withCallout = try map.render()
        MonacoBundle.save(withCallout, "mapview-render-callout")
        let anchor = try XCTUnwrap(map.selectedCalloutLayout()?.anchor)
        let calloutBox = MapViewCallout.box(textWidth: 40, hasSubtitle: false, anchor: anchor)
        // Inside the bubble, above the title text: white.
        let bubble = try XCTUnwrap(withCallout.color(at: CGPoint(x: anchor.x, y: calloutBox.minY + 4)))
        XCTAssertEqual(bubble, UIColor(red: 1, green: 1, blue: 1, alpha: 1))
        // The title's ink: some dark pixels along the title line.
        let titleLine: CGFloat = calloutBox.minY + MapViewCallout.padding + MapViewCallout.titleSize * 0.6
        let dark = stride(from: anchor.x - 20, to: anchor.x + 20, by: 1).compactMap { (x: CGFloat) -> UIColor? in
            withCallout.color(at: CGPoint(x: x, y: titleLine))
        }.filter { $0.red < 0.4 }
        XCTAssertFalse(dark.isEmpty, "the title is drawn in the callout")
        map.deselectAnnotation(marker, animated: false)
        XCTAssertNil(map.selectedCalloutLayout())
        // Same view again: nothing new to load, only rendering.
        delegate.log = []
        _ = try map.render()
        XCTAssertEqual(delegate.log, ["willStartRendering", "didFinishRendering(true)"])
        // Panning far enough to need other tiles loads again.
        map.setCenter(CLLocationCoordinate2D(latitude: 43.75, longitude: 7.44), animated: false)
        delegate.log = []
        _ = try map.render()
        XCTAssertEqual(delegate.log.first, "willStartLoading")
    }

    func testRenderWithoutDataFailsLoadingAndSaysWhy() throws {
        let (map, delegate, _) = MapViewFixtures.map()
        let broken = try MapDataSource(bundleURL: SampleBundle.monaco())
        map.dataSource = broken
        map.mapType = .satellite  // the Monaco source has no imagery
        XCTAssertThrowsError(try map.render()) { error in
            XCTAssertTrue("\(error)".contains("imagery"), "\(error)")
        }
        XCTAssertEqual(delegate.log, ["willStartLoading", "willStartRendering", "didFailLoading", "didFinishRendering(false)"])
        let empty = MKMapView(frame: .zero, clock: MKManualMapViewClock())
        let recorder = RecordingMapViewDelegate()
        empty.delegate = recorder
        XCTAssertThrowsError(try empty.render())
        XCTAssertEqual(recorder.log, [], "a zero-size frame draws nothing and reports nothing")
    }

    /// The map view keeps its style renderers (decoded tiles, shaped labels) between frames; each
    /// frame must still be exactly what a fresh MKMapSnapshotter draws for the same view, along a
    /// path that pans, zooms, rotates and comes back (cached tiles and label placements reused).
    func testKeptRenderersDrawWhatASnapshotDraws() async throws {
        let (map, delegate, _) = MapViewFixtures.map()
        let dataSource = try MonacoBundle.dataSource()
        map.dataSource = dataSource
        map.showsCompass = false  // an ornament of the view, not of snapshots
        let marker = MapViewFixtures.point("Casino", 43.7393, 7.4277)
        map.addAnnotation(marker)
        let line = MKPolyline(coordinates: [CLLocationCoordinate2D(latitude: 43.7330, longitude: 7.4170),
                                            CLLocationCoordinate2D(latitude: 43.7420, longitude: 7.4300)], count: 2)
        delegate.rendererFactory = { overlay in
            let renderer = MKPolylineRenderer(polyline: overlay as! MKPolyline)
            renderer.strokeColor = .systemRed
            renderer.lineWidth = 4
            return renderer
        }
        map.addOverlay(line, level: .aboveRoads)
        let start = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 1800, pitch: 0, heading: 0)
        let cameras = [start,
                       MKMapCamera(lookingAtCenter: CLLocationCoordinate2D(latitude: 43.7360, longitude: 7.4230), fromDistance: 1800, pitch: 0, heading: 0),
                       MKMapCamera(lookingAtCenter: CLLocationCoordinate2D(latitude: 43.7360, longitude: 7.4230), fromDistance: 900, pitch: 0, heading: 0),
                       MKMapCamera(lookingAtCenter: CLLocationCoordinate2D(latitude: 43.7360, longitude: 7.4230), fromDistance: 900, pitch: 0, heading: 35),
                       start]
        for (index, camera) in cameras.enumerated() {
            map.setCamera(camera, animated: false)
            let frame = try map.render()
            let fresh = try await snapshot(map.snapshotOptions(), dataSource: dataSource)
            XCTAssertEqual(frame.size, fresh.image.size)
            let framePixels = frame.renderCanvas.rgbaPixels(), freshPixels = fresh.image.renderCanvas.rgbaPixels()
            XCTAssertEqual(framePixels.count, freshPixels.count)
            let differing = zip(framePixels, freshPixels).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
            XCTAssertEqual(differing, 0, "frame \(index) (\(camera)) differs from the snapshot in \(differing) bytes")
            // Not trivially equal: the frame shows the map, not one colour.
            XCTAssertGreaterThan(Set(stride(from: 0, to: framePixels.count, by: 4 * 997).map { framePixels[$0] }).count, 3)
        }
    }
}
