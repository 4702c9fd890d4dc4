import Foundation
@testable import OpenMapKit
import XCTest

/// MGLMapView's annotations, shapes, views, images, selection and overlays (inventory M-42 … M-49),
/// and the shape classes' GeoJSON.
final class MGLMapViewAnnotationTests: XCTestCase {
    func testNilVersusEmptyAndIgnoredShapes() {
        // M-42, M-43.
        let (map, _, _) = MapboxFixtures.map()
        XCTAssertNil(map.annotations)
        XCTAssertNil(map.visibleAnnotations)
        XCTAssertTrue(map.overlays.isEmpty)
        let multi = MGLMultiPolyline(polylines: [MGLPolyline(coordinates: [MapboxFixtures.monaco, MapboxFixtures.nice])])
        map.addAnnotation(multi)
        XCTAssertNil(map.annotations, "multi-shapes are silently ignored")
        let point = MapboxFixtures.point("A", 43.7384, 7.4246)
        let polygon = MGLMultiPolygon(polygons: [])
        let line = MGLPolyline(coordinates: [MapboxFixtures.monaco, MapboxFixtures.nice])
        map.addAnnotations([point, polygon, line, MGLShapeCollection(shapes: [point]), MGLPointCollection(coordinates: [MapboxFixtures.nice]),
                            MGLMultiPoint(coordinates: [MapboxFixtures.nice]), MGLPolyline(coordinates: [])])
        XCTAssertEqual(map.annotations?.count, 2)
        XCTAssertTrue(map.annotations?[0] === point)
        XCTAssertTrue(map.annotations?[1] === line)
        XCTAssertEqual(map.overlays.count, 1, "polylines are overlays too")
        map.addAnnotation(point)
        XCTAssertEqual(map.annotations?.count, 2, "adding twice keeps one")
        map.removeAnnotations([point, line])
        XCTAssertNil(map.annotations)
    }

    func testOverlays() {
        // M-49.
        let (map, _, _) = MapboxFixtures.map()
        let o1 = MGLPolyline(coordinates: [MapboxFixtures.monaco, MapboxFixtures.nice])
        let o2 = MGLPolygon(coordinates: [MapboxFixtures.monaco, MapboxFixtures.nice, CLLocationCoordinate2D(latitude: 43.8, longitude: 7.3)])
        map.removeOverlay(o1)
        map.addOverlays([o1, o2])
        XCTAssertEqual(map.overlays.count, 2)
        XCTAssertTrue(map.overlays[0] === o1)
        XCTAssertTrue(map.overlays[1] === o2)
        map.removeOverlays([o2, MGLPolyline(coordinates: [MapboxFixtures.nice])])
        XCTAssertEqual(map.overlays.count, 1)
    }

    func testSelectionOrderAndRemovingTheSelectedAnnotation() {
        // M-44, M-45, and Mapbox's order: annotation, then view.
        let (map, delegate, _) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 14, animated: false)
        delegate.viewFactory = { annotation in
            let view = MGLAnnotationView(reuseIdentifier: "dot")
            view.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
            view.backgroundColor = .systemRed
            return annotation.title == "A" ? view : nil
        }
        let a = MapboxFixtures.point("A", 43.7384, 7.4246), b = MapboxFixtures.point("B", 43.7390, 7.4260)
        delegate.log = []
        map.addAnnotations([a, b])
        XCTAssertEqual(delegate.log, ["viewFor(A)", "viewFor(B)", "imageFor(B)"])
        XCTAssertNotNil(map.view(for: a))
        XCTAssertNil(map.view(for: b), "B is shown by the default image")
        delegate.log = []
        map.selectedAnnotations = [a, b]
        XCTAssertEqual(map.selectedAnnotations.count, 1)
        XCTAssertTrue(map.selectedAnnotations.first === a)
        XCTAssertEqual(delegate.log, ["didSelect(A)", "didSelectView"])
        XCTAssertTrue(map.view(for: a)!.isSelected)
        delegate.log = []
        map.selectAnnotation(b, animated: false, completionHandler: nil)
        XCTAssertEqual(delegate.log, ["didDeselect(A)", "didDeselectView", "didSelect(B)"])
        delegate.log = []
        map.removeAnnotation(b)
        XCTAssertTrue(map.selectedAnnotations.isEmpty)
        XCTAssertEqual(delegate.log, ["didDeselect(B)"])
    }

    func testOffscreenSelection() {
        // M-46: a point 2 km outside the view.
        let (map, delegate, clock) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 15, animated: false)
        delegate.canShowCallout = true
        let east = CLLocationCoordinate2D(latitude: MapboxFixtures.monaco.latitude, longitude: MapboxFixtures.monaco.longitude + 0.025)
        let far = MapboxFixtures.point("Far", east.latitude, east.longitude)
        map.addAnnotation(far)
        XCTAssertGreaterThan(map.convert(east, toPointTo: map).x, 400)
        let before = map.centerCoordinate
        map.selectAnnotation(far, animated: false, completionHandler: nil)
        XCTAssertTrue(map.selectedAnnotations.first === far, "selected though off screen")
        XCTAssertEqual(map.centerCoordinate, before, "not animated: the map does not move")
        map.deselectAnnotation(far, animated: false)
        var completed = 0
        map.selectAnnotation(far, animated: true) { completed += 1 }
        MapboxFixtures.finish(map, clock)
        XCTAssertEqual(completed, 1)
        let p = map.convert(east, toPointTo: map)
        XCTAssertTrue(map.bounds.contains(p), "brought into view")
        XCTAssertGreaterThanOrEqual(abs(p.x - 200), 90, "but not centred: just in, with room for its callout")
        XCTAssertTrue(map.selectedAnnotations.first === far)
    }

    func testReuseQueuesOfViewsAndImages() {
        // M-47.
        let (map, delegate, _) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 15, animated: false)
        XCTAssertNil(map.dequeueReusableAnnotationImage(withIdentifier: "pin"))
        XCTAssertNil(map.dequeueReusableAnnotationView(withIdentifier: "view"))
        let pin = MGLAnnotationImage(image: MGLMapView.placeholderImage, reuseIdentifier: "pin")
        delegate.imageFactory = { annotation in annotation.title == "image" ? (map.dequeueReusableAnnotationImage(withIdentifier: "pin") ?? pin) : nil }
        delegate.viewFactory = { annotation in
            guard annotation.title == "view" else { return nil }
            if let reused = map.dequeueReusableAnnotationView(withIdentifier: "view") { return reused }
            let view = MGLAnnotationView(reuseIdentifier: "view")
            view.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            return view
        }
        let withImage = MapboxFixtures.point("image", 43.7384, 7.4246)
        let withView = MapboxFixtures.point("view", 43.7385, 7.4247)
        map.addAnnotations([withImage, withView])
        XCTAssertTrue(map.dequeueReusableAnnotationImage(withIdentifier: "pin") === pin, "images are shared by identifier")
        let shown = map.view(for: withView)!
        // Scroll both out of view: the view is queued.
        map.setCenter(MapboxFixtures.nice, animated: false)
        XCTAssertNil(map.view(for: withView))
        let second = MapboxFixtures.point("view", MapboxFixtures.nice.latitude, MapboxFixtures.nice.longitude)
        map.addAnnotation(second)
        XCTAssertTrue(map.view(for: second) === shown, "the queued view was reused")
        XCTAssertTrue(shown.annotation === second)
    }

    func testVisibleAnnotationsInRect() {
        // M-48.
        let (map, _, _) = MapboxFixtures.map()
        map.setCenter(CLLocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 10, animated: false)
        let topLeft = MapboxFixtures.point("TL", map.convert(CGPoint(x: 50, y: 50), toCoordinateFrom: map).latitude,
                                           map.convert(CGPoint(x: 50, y: 50), toCoordinateFrom: map).longitude)
        let bottomRight = MapboxFixtures.point("BR", map.convert(CGPoint(x: 350, y: 350), toCoordinateFrom: map).latitude,
                                               map.convert(CGPoint(x: 350, y: 350), toCoordinateFrom: map).longitude)
        let outside = MapboxFixtures.point("Out", 10, 10)
        map.addAnnotations([topLeft, bottomRight, outside])
        let quarter = map.visibleAnnotations(in: CGRect(x: 0, y: 0, width: 200, height: 200))
        XCTAssertEqual(quarter?.count, 1)
        XCTAssertTrue(quarter?.first === topLeft)
        XCTAssertEqual(map.visibleAnnotations?.count, 2)
        XCTAssertNil(map.visibleAnnotations(in: CGRect(x: 250, y: 0, width: 100, height: 100)))
    }

    func testShowAnnotationsUsesMapboxsDefaultPadding() {
        // M-21: a fifth of each side, at most 100 points (80 on 400 × 400).
        let (map, _, _) = MapboxFixtures.map()
        let points = [MapboxFixtures.point("A", 43.72, 7.40), MapboxFixtures.point("B", 43.75, 7.44), MapboxFixtures.point("C", 43.73, 7.45)]
        map.addAnnotations(points)
        map.showAnnotations(points, animated: false)
        XCTAssertEqual(map.visibleAnnotations?.count, 3)
        for point in points {
            let p = map.convert(point.coordinate, toPointTo: map)
            XCTAssertTrue(CGRect(x: 79.5, y: 79.5, width: 241, height: 241).contains(p), "\(p)")
        }
    }

    func testCalloutTapAndCompassTap() {
        let (map, delegate, _) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 15, animated: false)
        delegate.canShowCallout = true
        let point = MapboxFixtures.point("Casino", 43.7384, 7.4246)
        point.subtitle = "Monte Carlo"
        map.addAnnotation(point)
        // A tap on the default marker selects it, then a tap on its callout is reported.
        let tip = map.convert(point.coordinate, toPointTo: map)
        map.tap(at: CGPoint(x: tip.x, y: tip.y - 15))
        XCTAssertTrue(map.selectedAnnotations.first === point)
        let callout = try! XCTUnwrap(map.engine.selectedCalloutFrame())
        delegate.log = []
        map.tap(at: CGPoint(x: callout.midX, y: callout.midY))
        XCTAssertEqual(delegate.log, ["tapOnCallout(Casino)"])
        // A tap on the bare map deselects.
        map.tap(at: CGPoint(x: 20, y: 380))
        XCTAssertTrue(map.selectedAnnotations.isEmpty)
    }

    func testGeoJSONShapesAndFeatures() throws {
        let line = try MGLShape(data: Data(#"{"type": "LineString", "coordinates": [[7.42, 43.73], [7.43, 43.74]]}"#.utf8),
                                encoding: String.Encoding.utf8.rawValue)
        let polyline = try XCTUnwrap(line as? MGLPolyline)
        XCTAssertEqual(polyline.pointCount, 2)
        XCTAssertEqual(polyline.coordinates[1].latitude, 43.74)
        let collection = try MGLShape(data: Data("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": 7, "properties": {"name": "Casino", "height": 30},
               "geometry": {"type": "Point", "coordinates": [7.4277, 43.7393]}},
              {"type": "Feature", "id": "park", "properties": {},
               "geometry": {"type": "Polygon", "coordinates": [[[7.41, 43.73], [7.42, 43.73], [7.42, 43.74], [7.41, 43.73]],
                                                               [[7.412, 43.731], [7.413, 43.731], [7.413, 43.732], [7.412, 43.731]]]}}]}
            """.utf8), encoding: String.Encoding.utf8.rawValue)
        let features = try XCTUnwrap(collection as? MGLShapeCollectionFeature).features
        XCTAssertEqual(features.count, 2)
        let casino = try XCTUnwrap(features[0] as? MGLPointFeature)
        XCTAssertEqual(casino.identifier as? NSNumber, 7)
        XCTAssertEqual(casino.attribute(forKey: "name") as? String, "Casino")
        XCTAssertEqual(casino.coordinate.longitude, 7.4277)
        let park = try XCTUnwrap(features[1] as? MGLPolygonFeature)
        XCTAssertEqual(park.identifier as? String, "park")
        XCTAssertEqual(park.interiorPolygons?.count, 1)
        let dictionary = casino.geoJSONDictionary()
        XCTAssertEqual(dictionary["type"] as? String, "Feature")
        XCTAssertEqual((dictionary["properties"] as? [String: Any])?["name"] as? String, "Casino")
        // Round trip through geoJSONData.
        let again = try MGLShape(data: polyline.geoJSONData(usingEncoding: String.Encoding.utf8.rawValue), encoding: String.Encoding.utf8.rawValue)
        XCTAssertEqual((again as? MGLPolyline)?.coordinates, polyline.coordinates)
        XCTAssertThrowsError(try MGLShape(data: Data("{not json".utf8), encoding: String.Encoding.utf8.rawValue))
        XCTAssertThrowsError(try MGLPolygon(data: Data(#"{"type": "Point", "coordinates": [1, 2]}"#.utf8), encoding: String.Encoding.utf8.rawValue))
        // Editing a multipoint's points.
        let editable = MGLPolyline(coordinates: [MapboxFixtures.monaco])
        var more = [MapboxFixtures.nice, CLLocationCoordinate2D(latitude: 44, longitude: 7)]
        editable.appendCoordinates(&more, count: 2)
        editable.removeCoordinates(in: NSRange(location: 0, length: 1))
        XCTAssertEqual(editable.coordinates, more)
        var read = [CLLocationCoordinate2D](repeating: CLLocationCoordinate2D(), count: 2)
        editable.getCoordinates(&read, range: NSRange(location: 0, length: 2))
        XCTAssertEqual(read, more)
    }
}
