import Foundation
import MapStyle
@testable import OpenMapKit
import TestSupport
import XCTest

/// Selectable map features: a tap on a label the map drew selects it as an
/// MKMapFeatureAnnotation (with the delegate's callbacks in MapKit's order) when its kind is in
/// `selectableMapFeatures`, and MKMapItemRequest resolves it from the place index.
final class MapViewMapFeatureTests: XCTestCase {
    final class Delegate: MKMapViewDelegate {
        var log: [String] = []
        func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? {
            if annotation is MKMapFeatureAnnotation { log.append("viewFor(feature)") }
            return nil
        }
        func mapView(_ mapView: MKMapView, didAdd views: [MKAnnotationView]) { log.append("didAdd(\(views.count))") }
        func mapView(_ mapView: MKMapView, didSelect view: MKAnnotationView) { log.append("didSelectView") }
        func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation) { log.append("didSelect(\((annotation.title ?? nil) ?? "?"))") }
        func mapView(_ mapView: MKMapView, didDeselect view: MKAnnotationView) { log.append("didDeselectView") }
        func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation) { log.append("didDeselect") }
    }

    /// The centre of Monaco at street level, drawn once.
    private func drawnMap() throws -> (MKMapView, Delegate) {
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 400), clock: MKManualMapViewClock())
        map.dataSource = try MonacoBundle.dataSource()
        map.region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 43.7390, longitude: 7.4277), latitudinalMeters: 400,
                                        longitudinalMeters: 400)
        let delegate = Delegate()
        map.delegate = delegate
        _ = try map.render()
        return (map, delegate)
    }

    /// A point where the frame drew a label of `kind`, found by probing the view.
    private func labelPoint(_ map: MKMapView, _ options: MKMapFeatureOptions) -> (CGPoint, MKMapFeatureAnnotation)? {
        let saved = map.selectableMapFeatures
        defer { map.selectableMapFeatures = saved }
        map.selectableMapFeatures = options
        for y in stride(from: 20.0, to: 380, by: 6) {
            for x in stride(from: 20.0, to: 380, by: 6) {
                if let feature = map.mapFeature(at: CGPoint(x: x, y: y)) { return (CGPoint(x: x, y: y), feature) }
            }
        }
        return nil
    }

    func testTappingAPointOfInterestSelectsIt() throws {
        let (map, delegate) = try drawnMap()
        let (point, probe) = try XCTUnwrap(labelPoint(map, .pointsOfInterest), "the frame shows a point of interest")
        XCTAssertEqual(probe.featureType, .pointOfInterest)
        XCTAssertNotNil(probe.iconStyle)
        // Off by default, as in MapKit: the tap selects nothing.
        XCTAssertEqual(map.selectableMapFeatures, [])
        map.tap(at: point)
        XCTAssertTrue(map.selectedAnnotations.isEmpty)
        XCTAssertEqual(delegate.log, [])
        // Territories only: a POI label is not one.
        map.selectableMapFeatures = .territories
        map.tap(at: point)
        XCTAssertTrue(map.selectedAnnotations.isEmpty)

        map.selectableMapFeatures = [.pointsOfInterest, .territories, .physicalFeatures]
        map.tap(at: point)
        let feature = try XCTUnwrap(map.selectedAnnotations.first as? MKMapFeatureAnnotation)
        XCTAssertEqual(feature.title, probe.title)
        XCTAssertEqual(delegate.log, ["viewFor(feature)", "didAdd(1)", "didSelectView", "didSelect(\(probe.title!))"])
        XCTAssertFalse(map.annotations.contains { $0 === feature }, "not one of the map's annotations")
        let view = try XCTUnwrap(map.view(for: feature) as? MKMarkerAnnotationView)
        XCTAssertEqual(view.markerTintColor, feature.iconStyle?.backgroundColor)
        XCTAssertTrue(view.isSelected)
        let image = try map.render()
        MonacoBundle.save(image, "mapview-selected-feature")
        // Tapping its marker keeps it; the bare map (far from labels) deselects it and drops its view.
        delegate.log = []
        let markerFrame = try XCTUnwrap(map.frame(of: view))
        map.tap(at: CGPoint(x: markerFrame.midX, y: markerFrame.midY))
        XCTAssertEqual(delegate.log, [])
        map.selectableMapFeatures = []
        map.tap(at: CGPoint(x: 5, y: 395))
        XCTAssertEqual(delegate.log, ["didDeselectView", "didDeselect"])
        XCTAssertNil(map.view(for: feature))
        XCTAssertTrue(map.selectedAnnotations.isEmpty)
    }

    func testAFeatureResolvesToAMapItem() async throws {
        let (map, _) = try drawnMap()
        let (_, feature) = try XCTUnwrap(labelPoint(map, .pointsOfInterest))
        let request = MKMapItemRequest(mapFeatureAnnotation: feature)
        request.dataSource = try MonacoBundle.dataSource()
        XCTAssertTrue(request.mapFeatureAnnotation === feature)
        XCTAssertNil(request.mapItemIdentifier)
        let item = try await request.mapItem
        XCTAssertEqual(item.name?.lowercased(), feature.title?.lowercased())
        XCTAssertNotNil(item.identifier)
        let distance = CLLocation(latitude: item.placemark.coordinate.latitude, longitude: item.placemark.coordinate.longitude)
            .distance(from: CLLocation(latitude: feature.coordinate.latitude, longitude: feature.coordinate.longitude))
        XCTAssertLessThan(distance, 500)
    }

    func testUnknownFeatureFailsWithATypedError() async throws {
        let feature = MKMapFeatureAnnotation(featureType: .pointOfInterest, category: nil, iconStyle: nil, coordinate: MapViewFixtures.monaco,
                                             title: "No Such Place Anywhere 42", sourceLayer: "poi", properties: JSONObject())
        let request = MKMapItemRequest(mapFeatureAnnotation: feature)
        request.dataSource = try MonacoBundle.dataSource()
        do {
            _ = try await request.mapItem
            XCTFail("nothing has that name")
        } catch let error as MKError {
            XCTAssertEqual(error.code, .placemarkNotFound)
        }
    }

    func testLayersMapToFeatureKinds() {
        XCTAssertEqual(MapFeatureKinds.kind(sourceLayer: "poi", properties: JSONObject()), .pointOfInterest)
        XCTAssertEqual(MapFeatureKinds.kind(sourceLayer: "place", properties: JSONObject([("class", .string("town"))])), .territory)
        XCTAssertEqual(MapFeatureKinds.kind(sourceLayer: "place", properties: JSONObject([("class", .string("island"))])), .physicalFeature)
        XCTAssertEqual(MapFeatureKinds.kind(sourceLayer: "water_name", properties: JSONObject()), .physicalFeature)
        XCTAssertEqual(MapFeatureKinds.kind(sourceLayer: "mountain_peak", properties: JSONObject()), .physicalFeature)
        XCTAssertNil(MapFeatureKinds.kind(sourceLayer: "transportation_name", properties: JSONObject()))
        XCTAssertEqual(MapFeatureKinds.category(sourceLayer: "park", properties: JSONObject()), .park)
        XCTAssertEqual(MKMapFeatureOptions.physicalFeatures.rawValue, 4)
    }
}
