import Foundation
import XCTest
@testable import OpenMapKit

private func coord(_ latitude: Double, _ longitude: Double) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// A canonical text form of decoded objects, to compare two decodings.
private func describe(_ object: any MKGeoJSONObject) -> String {
    func coords(_ c: [CLLocationCoordinate2D]) -> String {
        c.map { "(\($0.latitude),\($0.longitude))" }.joined(separator: " ")
    }
    switch object {
    case let f as MKGeoJSONFeature:
        let properties = f.properties.map { String(decoding: $0, as: UTF8.self) } ?? "nil"
        return "Feature[\(f.identifier ?? "nil")|\(properties)|\(f.geometry.map(describe).joined(separator: "; "))]"
    case let p as MKPointAnnotation:
        return "Point\(coords([p.coordinate]))"
    case let p as MKPolygon:
        return "Polygon[\(coords(p.coordinates)) holes: \((p.interiorPolygons ?? []).map(describe).joined(separator: ", "))]"
    case let l as MKPolyline:
        return "\(type(of: l))[\(coords(l.coordinates))]"
    case let m as MKMultiPoint:
        return "MultiPoint[\(coords(m.coordinates))]"
    case let m as MKMultiPolyline:
        return "MultiPolyline[\(m.polylines.map(describe).joined(separator: ", "))]"
    case let m as MKMultiPolygon:
        return "MultiPolygon[\(m.polygons.map(describe).joined(separator: ", "))]"
    default:
        return "\(type(of: object))"
    }
}

final class GeoJSONDecoderTests: XCTestCase {
    private func decode(_ text: String) throws -> [any MKGeoJSONObject] {
        try MKGeoJSONDecoder().decode(Data(text.utf8))
    }

    func testEveryGeometryTypeDecodes() throws {
        let point = try decode(#"{"type":"Point","coordinates":[2.3522,48.8566,35]}"#)
        XCTAssertEqual(point.count, 1)
        XCTAssertEqual((point[0] as? MKPointAnnotation)?.coordinate, coord(48.8566, 2.3522))

        let multiPoint = try decode(#"{"type":"MultiPoint","coordinates":[[1,2],[3,4]]}"#)
        let mp = try XCTUnwrap(multiPoint.first as? MKMultiPoint)
        XCTAssertFalse(mp is MKPolyline)
        XCTAssertEqual(mp.coordinates, [coord(2, 1), coord(4, 3)])

        let line = try XCTUnwrap(try decode(#"{"type":"LineString","coordinates":[[1,2],[3,4],[5,6]]}"#).first as? MKPolyline)
        XCTAssertEqual(line.pointCount, 3)
        XCTAssertEqual(line.coordinates.last, coord(6, 5))

        let lines = try XCTUnwrap(try decode(#"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[5,6],[7,8]]]}"#).first as? MKMultiPolyline)
        XCTAssertEqual(lines.polylines.count, 2)
        XCTAssertEqual(lines.polylines[1].coordinates, [coord(6, 5), coord(8, 7)])

        let polygon = try XCTUnwrap(try decode(#"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}"#).first as? MKPolygon)
        // As MapKit: the ring's points as written, its closing repeat of the first included.
        XCTAssertEqual(polygon.pointCount, 5)
        XCTAssertEqual(polygon.coordinates, [coord(0, 0), coord(0, 10), coord(10, 10), coord(10, 0), coord(0, 0)])
        XCTAssertNil(polygon.interiorPolygons)

        let polygons = try XCTUnwrap(try decode(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]}"#).first as? MKMultiPolygon)
        XCTAssertEqual(polygons.polygons.count, 2)
        XCTAssertEqual(polygons.polygons[1].coordinates, [coord(5, 5), coord(5, 6), coord(6, 6), coord(5, 5)])

        let collection = try decode(#"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[0,0],[1,1]]},{"type":"Point","coordinates":[3,4]}]}]}"#)
        XCTAssertEqual(collection.count, 3)   // flattened
        XCTAssertTrue(collection[0] is MKPointAnnotation)
        XCTAssertTrue(collection[1] is MKPolyline)
        XCTAssertTrue(collection[2] is MKPointAnnotation)
    }

    func testFeaturesIdentifiersAndProperties() throws {
        let text = #"""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":42,"geometry":{"type":"Point","coordinates":[1,2]},
           "properties":{"name":"Tower","height":324.5,"tags":["a","b"],"open":true,"note":null}},
          {"type":"Feature","id":"way/7","geometry":{"type":"GeometryCollection","geometries":[
             {"type":"Point","coordinates":[1,2]},{"type":"LineString","coordinates":[[1,2],[3,4]]}]},"properties":null},
          {"type":"Feature","id":1.5,"geometry":null,"properties":{}},
          {"type":"Feature","geometry":null}
        ]}
        """#
        let objects = try decode(text)
        XCTAssertEqual(objects.count, 4)
        let features = objects.compactMap { $0 as? MKGeoJSONFeature }
        XCTAssertEqual(features.count, 4)

        XCTAssertEqual(features[0].identifier, "42")
        XCTAssertEqual(features[0].geometry.count, 1)
        XCTAssertTrue(features[0].geometry[0] is MKPointAnnotation)
        let properties = try XCTUnwrap(features[0].properties)
        XCTAssertEqual(String(decoding: properties, as: UTF8.self),
                       #"{"name":"Tower","height":324.5,"tags":["a","b"],"open":true,"note":null}"#)
        let decoded = try XCTUnwrap(try JSONSerialization.jsonObject(with: properties) as? NSDictionary)
        let expected: NSDictionary = ["name": "Tower", "height": 324.5, "tags": ["a", "b"], "open": true, "note": NSNull()]
        XCTAssertEqual(decoded, expected)

        XCTAssertEqual(features[1].identifier, "way/7")
        XCTAssertNil(features[1].properties)
        XCTAssertEqual(features[1].geometry.count, 2)
        XCTAssertTrue(features[1].geometry[1] is MKPolyline)

        XCTAssertEqual(features[2].identifier, "1.5")
        XCTAssertEqual(features[2].properties, Data("{}".utf8))
        XCTAssertTrue(features[2].geometry.isEmpty)
        XCTAssertNil(features[3].identifier)
        XCTAssertNil(features[3].properties)

        let single = try decode(#"{"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[0,0]},"properties":{"a":1}}"#)
        XCTAssertEqual((single.first as? MKGeoJSONFeature)?.identifier, "7")
    }

    func testPolygonHoles() throws {
        let text = #"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[2,4],[4,4],[4,2],[2,2]],[[6,6],[6,8],[8,8],[6,6]]]}"#
        let polygon = try XCTUnwrap(try decode(text).first as? MKPolygon)
        XCTAssertEqual(polygon.coordinates, [coord(0, 0), coord(0, 10), coord(10, 10), coord(10, 0), coord(0, 0)])
        let holes = try XCTUnwrap(polygon.interiorPolygons)
        XCTAssertEqual(holes.count, 2)
        XCTAssertEqual(holes[0].coordinates, [coord(2, 2), coord(4, 2), coord(4, 4), coord(2, 4), coord(2, 2)])
        XCTAssertEqual(holes[1].pointCount, 4)
        XCTAssertEqual(polygon.boundingMapRect,
                       MKMapRect(corner: MKMapPoint(coord(10, 0)), corner: MKMapPoint(coord(0, 10))))
    }

    func testOpenRingIsAnErrorInGeoJSONButFineInCode() throws {
        XCTAssertThrowsError(try decode(#"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10]]]}"#)) { error in
            XCTAssertEqual((error as? MKError)?.code, .decodingFailed)
            XCTAssertTrue((error as? MKError)?.reason?.contains("coordinates[0]") ?? false)
        }
        let polygon = MKPolygon(coordinates: [coord(0, 0), coord(0, 10), coord(10, 10), coord(10, 0)])
        XCTAssertEqual(polygon.pointCount, 4)
    }

    /// At least fifteen distinct hostile inputs: each is MKError.decodingFailed naming the path.
    func testHostileInputs() {
        let polygon3 = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}"#
        let cases: [(String, String)] = [
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coo"#, "features[0].geometry"),
            (String(repeating: "[", count: 10_000), "[0][0][0]"),
            (#"{"type":"Feature","geometry":null,"properties":{"a":"# + String(repeating: #"{"b":"#, count: 50_000), "properties.a.b.b"),
            (#"{"type":"Point","coordinates":[1e999,0]}"#, "coordinates[0]"),
            (#"{"type":"Point","coordinates":[1,99999999999999999999999999999999]}"#, "coordinates"),
            (#"{"type":"Point","coordinates":["12.5","45.1"]}"#, "coordinates[0]"),
            (#"{"type":"LineString","coordinates":[[1,2]]}"#, "coordinates"),
            (polygon3, "coordinates[0]"),
            (#"{"type":"Point","coordinates":[0,91]}"#, "coordinates"),
            (#"{"type":"Point","coordinates":[181,0]}"#, "coordinates"),
            (#"{"type":"Point","coordinates":[1]}"#, "coordinates"),
            (#"{"type":"Pt","coordinates":[1,2]}"#, "type"),
            (#"{"type":"Point"}"#, "top level"),
            (#"{"coordinates":[1,2]}"#, "top level"),
            (#"{"type":"Feature","id":{"x":1},"geometry":null}"#, "id"),
            (#"{"type":"Feature","geometry":null,"properties":"name=x"}"#, "properties"),
            (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null},{"type":"Feature","geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[0,0],[1,0],[1,1],[0,0]],[[0,0],[1,0],[1,1],[0,0],[true,0]]]]}}]}"#,
             "features[1].geometry.coordinates[1][1][4][0]"),
            (#"{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[]}]}"#, "geometries[0].coordinates"),
            ("\u{FEFF}garbage", "top level"),
            ("null", "top level"),
            (#"{"type":"Point","coordinates":[1,2]}{"#, "top level"),
            (#"{"type":"Point","coordinates":[1,2],"bbox":"all"}"#, "bbox"),
        ]
        XCTAssertGreaterThanOrEqual(cases.count, 15)
        for (input, path) in cases {
            do {
                let objects = try decode(input)
                XCTFail("\(input.prefix(80)) decoded to \(objects.count) objects")
            } catch let error as MKError where error.code == .decodingFailed {
                let error: MKError? = error
                XCTAssertTrue(error?.reason?.hasPrefix(path) ?? false,
                              "\(input.prefix(80)): expected path \(path), got \(error?.reason ?? "no reason")")
                XCTAssertTrue(error?.localizedDescription.hasPrefix("GeoJSON decoding failed: ") ?? false)
            } catch {
                XCTFail("\(input.prefix(80)): unexpected \(error)")
            }
        }
    }

    func testCatchByCode() {
        var caught = false
        do {
            _ = try decode("{")
        } catch MKError.decodingFailed {
            caught = true
        } catch {
            XCTFail("\(error)")
        }
        XCTAssertTrue(caught)
    }

    func testErrorShape() {
        XCTAssertThrowsError(try decode(#"{"type":"Point","coordinates":[0,91]}"#)) { error in
            guard let error = error as? MKError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, .decodingFailed)
            XCTAssertEqual(error.code.rawValue, 6)
            XCTAssertEqual(error.errorCode, 6)
            XCTAssertEqual(MKError.errorDomain, "MKErrorDomain")
            XCTAssertEqual(MKErrorDomain, "MKErrorDomain")
            XCTAssertEqual(error.reason, "coordinates: latitude 91 is outside -90...90")
            XCTAssertEqual(error.localizedDescription, "GeoJSON decoding failed: coordinates: latitude 91 is outside -90...90")
            XCTAssertEqual(error.errorUserInfo[NSLocalizedFailureReasonErrorKey] as? String, error.reason)
            let ns = error as NSError
            XCTAssertEqual(ns.domain, MKErrorDomain)
            XCTAssertEqual(ns.code, 6)
        }
        XCTAssertEqual(MKError.Code(rawValue: 1), .unknown)
        XCTAssertEqual(MKError.Code(rawValue: 5), .directionsNotFound)
        XCTAssertNil(MKError.Code(rawValue: 7))
        XCTAssertEqual(MKError(.serverFailure).localizedDescription, "The map server couldn't return the requested information")
    }

    func testRoundTrip() throws {
        let text = #"""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":42,"properties":{"name":"a","n":[1,2.5]},"geometry":{"type":"Point","coordinates":[-122.41941550000001,37.774929]}},
          {"type":"Feature","id":"x","properties":null,"geometry":{"type":"MultiPoint","coordinates":[[0,0],[1,1]]}},
          {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[179.5,0],[-179.5,1]]}},
          {"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]}},
          {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[2,4],[4,4],[2,2]]]}},
          {"type":"Feature","geometry":{"type":"MultiPolygon","coordinates":[[[[0,-89.9],[1,0],[1,1],[0,-89.9]]],[[[5,5],[6,5],[6,6],[5,5]]]]}},
          {"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"Point","coordinates":[3,4]}]}},
          {"type":"Feature","geometry":null}
        ]}
        """#
        let first = try decode(text)
        let encoded = try MKGeoJSONEncoder().encode(first)
        let second = try MKGeoJSONDecoder().decode(encoded)
        XCTAssertEqual(first.map(describe), second.map(describe))
        // The numeric id is written back as a number, the properties verbatim.
        let json = String(decoding: encoded, as: UTF8.self)
        XCTAssertTrue(json.contains(#""id":42,"#), json)
        XCTAssertTrue(json.contains(#""properties":{"name":"a","n":[1,2.5]}"#), json)
        XCTAssertTrue(json.contains(#"[[0,0],[10,0],[10,10],[0,10],[0,0]]"#), json)   // ring closed again

        // Bare geometries: one → that geometry; several → a GeometryCollection.
        for text in [#"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,0]]]}"#,
                     #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"LineString","coordinates":[[0,0],[1,1]]}]}"#] {
            let shapes = try decode(text)
            let again = try MKGeoJSONDecoder().decode(try MKGeoJSONEncoder().encode(shapes))
            XCTAssertEqual(shapes.map(describe), again.map(describe))
        }
    }

    func testEncoderOnShapesBuiltInCode() throws {
        let point = MKPointAnnotation(coordinate: coord(1, 2), title: "t", subtitle: nil)
        XCTAssertEqual(String(decoding: try MKGeoJSONEncoder().encode(point), as: UTF8.self),
                       #"{"type":"Point","coordinates":[2,1]}"#)
        // A polyline across the meridian written with longitude 181 comes out wrapped.
        let across = MKPolyline(coordinates: [coord(0, 179), coord(0, 181)])
        XCTAssertEqual(String(decoding: try MKGeoJSONEncoder().encode(across), as: UTF8.self),
                       #"{"type":"LineString","coordinates":[[179,0],[-179,0]]}"#)
        let feature = MKGeoJSONFeature(identifier: "a", properties: Data(#"{"k":"v"}"#.utf8), geometry: [point, across])
        let decoded = try XCTUnwrap(try MKGeoJSONDecoder().decode(try MKGeoJSONEncoder().encode(feature)).first as? MKGeoJSONFeature)
        XCTAssertEqual(decoded.identifier, "a")
        XCTAssertEqual(decoded.properties, Data(#"{"k":"v"}"#.utf8))
        XCTAssertEqual(decoded.geometry.count, 2)
        // Mixed features and shapes make a FeatureCollection.
        let mixed = try MKGeoJSONDecoder().decode(try MKGeoJSONEncoder().encode([feature, point]))
        XCTAssertEqual(mixed.count, 2)
        XCTAssertTrue(mixed.allSatisfy { $0 is MKGeoJSONFeature })

        // A polygon built open is written closed; one built closed keeps its single closing position.
        let open = MKPolygon(coordinates: [coord(0, 0), coord(0, 1), coord(1, 1)])
        let closed = MKPolygon(coordinates: [coord(0, 0), coord(0, 1), coord(1, 1), coord(0, 0)])
        for polygon in [open, closed] {
            XCTAssertEqual(String(decoding: try MKGeoJSONEncoder().encode(polygon), as: UTF8.self),
                           #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#)
        }
        // Three points of which the last repeats the first are two corners, not a ring.
        XCTAssertThrowsError(try MKGeoJSONEncoder().encode(MKPolygon(coordinates: [coord(0, 0), coord(0, 1), coord(0, 0)]))) { error in
            XCTAssertTrue((error as? MKError)?.reason?.contains("3 corners") ?? false, "\(error)")
        }
        XCTAssertThrowsError(try MKGeoJSONEncoder().encode(MKPolyline(coordinates: [coord(1, 1)]))) { error in
            XCTAssertEqual((error as? MKError)?.code, .unknown)
        }
        XCTAssertThrowsError(try MKGeoJSONEncoder().encode(MKGeoJSONFeature(properties: Data("[]".utf8), geometry: []))) { error in
            XCTAssertTrue((error as? MKError)?.reason?.contains("properties") ?? false)
        }
    }

    func testDecodedBoundingRects() throws {
        let line = try XCTUnwrap(try decode(#"{"type":"LineString","coordinates":[[-10,-5],[20,30]]}"#).first as? MKPolyline)
        XCTAssertEqual(line.boundingMapRect, MKMapRect(corner: MKMapPoint(coord(-5, -10)), corner: MKMapPoint(coord(30, 20))))
        let c = line.coordinate
        let rect = line.boundingMapRect
        let centre = MKMapPoint(x: rect.midX, y: rect.midY).coordinate
        XCTAssertEqual(c.latitude, centre.latitude, accuracy: 1e-12)
        XCTAssertEqual(c.longitude, 5, accuracy: 1e-9)
    }
}

/// GeoJSON tests that need `Geodesic`.
final class GeoJSONGeodesicTests: XCTestCase {
    func testGeodesicPolylineEncodesItsDensePoints() throws {
        let line = MKGeodesicPolyline(coordinates: [coord(0, 170), coord(0, -170)])
        let decoded = try XCTUnwrap(try MKGeoJSONDecoder().decode(try MKGeoJSONEncoder().encode(line)).first as? MKPolyline)
        XCTAssertEqual(decoded.pointCount, line.pointCount)
        XCTAssertTrue(decoded.coordinates.allSatisfy { (-180...180).contains($0.longitude) })
    }
}
