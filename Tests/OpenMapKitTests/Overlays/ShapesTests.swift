import Foundation
import XCTest
@testable import OpenMapKit

private func coord(_ latitude: Double, _ longitude: Double) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

private let world = MKMapSize.worldWidth

/// A plain annotation class of the kind apps write.
private final class Pin: MKAnnotation {
    let coordinate: CLLocationCoordinate2D
    init(_ coordinate: CLLocationCoordinate2D) { self.coordinate = coordinate }
}

/// An overlay relying on every protocol default.
private final class Box: MKOverlay {
    let boundingMapRect: MKMapRect
    var coordinate: CLLocationCoordinate2D { MKMapPoint(x: boundingMapRect.midX, y: boundingMapRect.midY).coordinate }
    init(_ rect: MKMapRect) { boundingMapRect = rect }
}

/// Shapes stay subclassable, as in MapKit.
private final class Route: MKPolyline {
    var name = "route"
}

final class ShapesTests: XCTestCase {
    func testAnnotationDefaults() {
        let pin = Pin(coord(1, 2))
        XCTAssertNil(pin.title)
        XCTAssertNil(pin.subtitle)
        let annotation: any MKAnnotation = MKPointAnnotation(coordinate: coord(1, 2), title: "T", subtitle: "S")
        XCTAssertEqual(annotation.title, "T")
        XCTAssertEqual(annotation.subtitle, "S")
    }

    func testPointAnnotation() {
        let point = MKPointAnnotation()
        XCTAssertEqual(point.coordinate, coord(0, 0))
        XCTAssertNil(point.title)
        point.coordinate = coord(48.8566, 2.3522)
        point.title = "Paris"
        XCTAssertEqual(point.coordinate, coord(48.8566, 2.3522))
        XCTAssertEqual(MKPointAnnotation(coordinate: coord(1, 2)).coordinate, coord(1, 2))
    }

    func testPolylineInitialisersAndPoints() {
        let coordinates = [coord(0, 0), coord(10, 20), coord(-5, 40)]
        let fromArray = MKPolyline(coordinates: coordinates)
        let fromPointer = MKPolyline(coordinates: coordinates, count: coordinates.count)
        XCTAssertEqual(fromArray.pointCount, 3)
        XCTAssertEqual(fromPointer.points(), fromArray.points())
        XCTAssertEqual(fromArray.points()[1], MKMapPoint(coord(10, 20)))
        XCTAssertEqual(fromArray.coordinates, coordinates)

        var buffer = [CLLocationCoordinate2D](repeating: CLLocationCoordinate2D(), count: 2)
        fromArray.getCoordinates(&buffer, range: NSRange(location: 1, length: 2))
        XCTAssertEqual(buffer, [coord(10, 20), coord(-5, 40)])

        let points = coordinates.map(MKMapPoint.init)
        let fromPoints = MKPolyline(points: points, count: points.count)
        XCTAssertEqual(fromPoints.points(), points)
        XCTAssertEqual(MKPolyline(points: points).pointCount, 3)
        for (a, b) in zip(fromPoints.coordinates, coordinates) {
            XCTAssertEqual(a.latitude, b.latitude, accuracy: 1e-9)
            XCTAssertEqual(a.longitude, b.longitude, accuracy: 1e-9)
        }
        XCTAssertEqual(MKPolyline().pointCount, 0)
        XCTAssertTrue(MKPolyline().boundingMapRect.isNull)
        XCTAssertEqual(MKPolyline().coordinate, kCLLocationCoordinate2DInvalid)

        let route = Route(coordinates: coordinates)
        XCTAssertEqual(route.pointCount, 3)
        XCTAssertEqual(route.name, "route")
    }

    func testPolylineBoundsAndCentre() {
        let line = MKPolyline(coordinates: [coord(0, 0), coord(10, 20), coord(-5, 40)])
        let a = MKMapPoint(coord(10, 0)), b = MKMapPoint(coord(-5, 40))
        XCTAssertEqual(line.boundingMapRect, MKMapRect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y))
        // The coordinate is the centre of the rectangle in map space, not the mean of the degrees.
        let centre = MKMapPoint(x: line.boundingMapRect.midX, y: line.boundingMapRect.midY).coordinate
        XCTAssertEqual(line.coordinate.latitude, centre.latitude, accuracy: 1e-12)
        XCTAssertEqual(line.coordinate.longitude, 20, accuracy: 1e-9)
        XCTAssertNotEqual(line.coordinate.latitude, 2.5, accuracy: 0.01)
        XCTAssertFalse(line.canReplaceMapContent)
    }

    func testPolylineAcrossTheAntimeridian() {
        let line = MKPolyline(coordinates: [coord(-10, 179), coord(10, 181)])
        let rect = line.boundingMapRect
        XCTAssertTrue(rect.spans180thMeridian)
        XCTAssertGreaterThan(rect.maxX, world)
        XCTAssertEqual(rect.width, 2.0 / 360 * world, accuracy: 1e-6)
        // The centre is on the meridian itself.
        XCTAssertEqual(abs(line.coordinate.longitude), 180, accuracy: 1e-9)
        XCTAssertEqual(line.coordinate.latitude, 0, accuracy: 1e-9)
        // Found from both sides of the meridian, not from the middle of the world.
        let westOfMeridian = MKMapRect(x: world - 1000, y: MKMapPoint(coord(0, 0)).y - 1000, width: 500, height: 2000)
        let eastOfMeridian = MKMapRect(x: 100, y: MKMapPoint(coord(0, 0)).y - 1000, width: 500, height: 2000)
        let middle = MKMapRect(x: world / 2, y: MKMapPoint(coord(0, 0)).y - 1000, width: 500, height: 2000)
        XCTAssertTrue(line.intersects(westOfMeridian))
        XCTAssertTrue(line.intersects(eastOfMeridian))
        XCTAssertFalse(line.intersects(middle))
        // And a viewport that itself crosses the meridian finds a shape on the far side.
        let spot = MKPolyline(coordinates: [coord(0, -179.5), coord(1, -179.4)])
        let viewport = MKMapRect(x: world - 5000, y: 0, width: 1_000_000, height: world)
        XCTAssertTrue(spot.intersects(viewport))
        XCTAssertFalse(spot.boundingMapRect.intersects(viewport))   // the naive test misses it
    }

    func testDefaultIntersectsForCustomOverlay() {
        let box = Box(MKMapRect(x: 100, y: 100, width: 50, height: 50))
        XCTAssertTrue(box.intersects(MKMapRect(x: 120, y: 120, width: 10, height: 10)))
        XCTAssertFalse(box.intersects(MKMapRect(x: 150, y: 100, width: 10, height: 10)))   // touching only
        XCTAssertFalse(box.canReplaceMapContent)
        XCTAssertTrue(box.intersects(MKMapRect(x: 100 + world, y: 100, width: 10, height: 10)))
    }

    func testPolygonRings() {
        let open = MKPolygon(coordinates: [coord(0, 0), coord(0, 10), coord(10, 10), coord(10, 0)])
        let closed = MKPolygon(coordinates: [coord(0, 0), coord(0, 10), coord(10, 10), coord(10, 0), coord(0, 0)])
        XCTAssertEqual(open.pointCount, 4)
        // MapKit keeps the points it is given: a ring written closed keeps its repeated first point.
        XCTAssertEqual(closed.pointCount, 5)
        XCTAssertEqual(Array(closed.points().prefix(4)), open.points())
        XCTAssertEqual(closed.points().last, closed.points().first)
        XCTAssertEqual(closed.boundingMapRect, open.boundingMapRect)
        // The outline has the same length either way: the repeat ends the closing side, it adds no side.
        XCTAssertEqual(closed.location(atPointIndex: 3), open.location(atPointIndex: 3), accuracy: 1e-12)
        XCTAssertEqual(closed.location(atPointIndex: 4), 1)
        XCTAssertLessThan(open.location(atPointIndex: 3), 1)
        XCTAssertNil(open.interiorPolygons)
        let hole = MKPolygon(coordinates: [coord(2, 2), coord(2, 4), coord(4, 4)])
        let withHole = MKPolygon(coordinates: [coord(0, 0), coord(0, 10), coord(10, 10), coord(10, 0)], count: 4,
                                 interiorPolygons: [hole])
        XCTAssertEqual(withHole.interiorPolygons?.count, 1)
        XCTAssertEqual(withHole.interiorPolygons?.first?.pointCount, 3)
        XCTAssertEqual(withHole.boundingMapRect, open.boundingMapRect)
        let points = open.points()
        XCTAssertEqual(MKPolygon(points: points + [points[0]], count: 5, interiorPolygons: nil).pointCount, 5)
        var closedCoordinates = open.coordinates + [open.coordinates[0]]
        let fromPointer = MKPolygon(coordinates: &closedCoordinates, count: 5, interiorPolygons: nil)
        XCTAssertEqual(fromPointer.pointCount, 5)
        XCTAssertEqual(fromPointer.coordinates, closedCoordinates)
        XCTAssertEqual(MKPolygon(points: points, count: 4).pointCount, 4)
        XCTAssertEqual(MKPolygon().pointCount, 0)
    }

    func testMultiShapes() {
        let a = MKPolyline(coordinates: [coord(0, 0), coord(1, 1)])
        let b = MKPolyline(coordinates: [coord(-5, 10), coord(-4, 12)])
        let multi = MKMultiPolyline([a, b])
        XCTAssertEqual(multi.polylines.count, 2)
        XCTAssertEqual(multi.boundingMapRect, a.boundingMapRect.union(b.boundingMapRect))
        let p = MKPolygon(coordinates: [coord(0, 0), coord(0, 1), coord(1, 1)])
        let q = MKPolygon(coordinates: [coord(20, 20), coord(20, 21), coord(21, 21)])
        let polygons = MKMultiPolygon([p, q])
        XCTAssertEqual(polygons.polygons.count, 2)
        XCTAssertEqual(polygons.boundingMapRect, p.boundingMapRect.union(q.boundingMapRect))
        let centre = polygons.boundingMapRect
        XCTAssertEqual(polygons.coordinate.longitude, MKMapPoint(x: centre.midX, y: centre.midY).coordinate.longitude, accuracy: 1e-9)
        XCTAssertTrue(MKMultiPolygon([]).boundingMapRect.isNull)
    }

    func testCircleBoundingRect() {
        let radius = 1000.0
        let equator = MKCircle(center: coord(0, 10), radius: radius)
        let north = MKCircle(center: coord(60, 10), radius: radius)
        XCTAssertEqual(north.coordinate, coord(60, 10))
        XCTAssertEqual(north.radius, radius)
        let expected = 2 * radius * MKMapPointsPerMeterAtLatitude(60)
        XCTAssertEqual(north.boundingMapRect.width, expected, accuracy: 1e-6)
        XCTAssertEqual(north.boundingMapRect.height, expected, accuracy: 1e-6)
        // cos 60° = ½: the same radius covers twice the map points at 60° as at the equator.
        XCTAssertEqual(north.boundingMapRect.width / equator.boundingMapRect.width, 2, accuracy: 1e-9)
        XCTAssertEqual(north.boundingMapRect.midX, MKMapPoint(coord(60, 10)).x, accuracy: 1e-6)
        XCTAssertEqual(north.boundingMapRect.midY, MKMapPoint(coord(60, 10)).y, accuracy: 1e-6)
        // About 26 793 map points for 2 km at 60° (2000 m / 0.07465 m per point).
        XCTAssertEqual(north.boundingMapRect.width, 26_793, accuracy: 1)
    }

    func testCircleFromMapRect() {
        let centre = MKMapPoint(coord(60, 10))
        let rect = MKMapRect(x: centre.x - 500, y: centre.y - 200, width: 1000, height: 400)
        let circle = MKCircle(mapRect: rect)
        XCTAssertEqual(circle.coordinate.latitude, 60, accuracy: 1e-9)
        XCTAssertEqual(circle.coordinate.longitude, 10, accuracy: 1e-9)
        // Inscribed: diameter = the shorter side (400 map points), in metres at 60°.
        XCTAssertEqual(circle.radius, 200 * MKMetersPerMapPointAtLatitude(60), accuracy: 1e-9)
        XCTAssertEqual(circle.boundingMapRect.width, 400, accuracy: 1e-6)
        XCTAssertEqual(circle.boundingMapRect.midX, rect.midX, accuracy: 1e-6)
        XCTAssertEqual(MKCircle(mapRect: .null).radius, 0)
    }

    func testLocationAtPointIndex() {
        // Along the equator, map-point lengths are proportional to longitude differences.
        let line = MKPolyline(coordinates: [coord(0, 0), coord(0, 1), coord(0, 3), coord(0, 4)])
        XCTAssertEqual(line.location(atPointIndex: 0), 0)
        XCTAssertEqual(line.location(atPointIndex: 1), 0.25, accuracy: 1e-12)
        XCTAssertEqual(line.location(atPointIndex: 2), 0.75, accuracy: 1e-12)
        XCTAssertEqual(line.location(atPointIndex: 3), 1)
        let all = line.locations(at: IndexSet([3, 0, 2]))
        XCTAssertEqual(all.count, 3)
        XCTAssertEqual(all[0], 0)
        XCTAssertEqual(all[1], 0.75, accuracy: 1e-12)
        XCTAssertEqual(all[2], 1)
        XCTAssertEqual(line.locations(atPointIndexes: IndexSet([1])), [line.location(atPointIndex: 1)])
        // A polygon's outline includes its closing side.
        let square = MKPolygon(points: [MKMapPoint(x: 0, y: 0), MKMapPoint(x: 10, y: 0), MKMapPoint(x: 10, y: 10), MKMapPoint(x: 0, y: 10)])
        XCTAssertEqual(square.locations(at: IndexSet(0..<4)), [0, 0.25, 0.5, 0.75])
        // Zero length.
        XCTAssertEqual(MKPolyline(coordinates: [coord(1, 1), coord(1, 1)]).location(atPointIndex: 1), 0)
    }
}

/// Tests that need `Geodesic` (MKGeodesicPolyline, distances in metres).
final class GeodesicShapesTests: XCTestCase {
    func testGeodesicPolylineAcrossTheAntimeridian() {
        let line = MKGeodesicPolyline(coordinates: [coord(0, 170), coord(0, -170)])
        XCTAssertGreaterThan(line.pointCount, 2)
        let coordinates = line.coordinates
        XCTAssertEqual(coordinates.first!.longitude, 170, accuracy: 1e-9)
        XCTAssertEqual(coordinates.last!.longitude, 190, accuracy: 1e-9)
        for (a, b) in zip(coordinates, coordinates.dropFirst()) {
            XCTAssertGreaterThan(b.longitude, a.longitude)   // unwrapped: steadily east
            XCTAssertEqual(b.latitude, 0, accuracy: 1e-9)     // the equator is a geodesic
        }
        let rect = line.boundingMapRect
        XCTAssertTrue(rect.spans180thMeridian)
        XCTAssertEqual(rect.minX, MKMapPoint(coord(0, 170)).x, accuracy: 1e-3)
        XCTAssertEqual(rect.maxX, MKMapPoint(coord(0, 190)).x, accuracy: 1e-3)
        XCTAssertEqual(abs(line.coordinate.longitude), 180, accuracy: 1e-6)
        XCTAssertTrue(line.intersects(MKMapRect(x: 1000, y: rect.minY - 10, width: 100, height: 20)))
        XCTAssertFalse(line.intersects(MKMapRect(x: world / 2, y: rect.minY - 10, width: 100, height: 20)))
    }

    func testGeodesicPolylineIsDenseAndOnTheGeodesic() {
        let lax = coord(33.9416, -118.4085), jfk = coord(40.6413, -73.7781), lhr = coord(51.47, -0.4543)
        let line = MKGeodesicPolyline(coordinates: [lax, jfk, lhr])
        let coordinates = line.coordinates
        XCTAssertEqual(coordinates.first, lax)
        XCTAssertEqual(coordinates.last!.latitude, lhr.latitude, accuracy: 1e-9)
        XCTAssertEqual(coordinates.last!.longitude, lhr.longitude, accuracy: 1e-9)
        XCTAssertTrue(coordinates.contains { abs($0.latitude - jfk.latitude) < 1e-9 && abs($0.longitude - jfk.longitude) < 1e-9 })
        let g = Geodesic.wgs84
        for (a, b) in zip(coordinates, coordinates.dropFirst()) {
            let step = g.inverse(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
            XCTAssertLessThanOrEqual(step.distance, MKGeodesicPolyline.maximumSpacing + 1)
        }
        // Every point of the first leg lies on the LAX–JFK geodesic: the two parts add up to the whole.
        let whole = g.inverse(latitude1: lax.latitude, longitude1: lax.longitude, latitude2: jfk.latitude, longitude2: jfk.longitude).distance
        for c in coordinates where c.longitude < jfk.longitude - 1e-6 {
            let d1 = g.inverse(latitude1: lax.latitude, longitude1: lax.longitude, latitude2: c.latitude, longitude2: c.longitude).distance
            let d2 = g.inverse(latitude1: c.latitude, longitude1: c.longitude, latitude2: jfk.latitude, longitude2: jfk.longitude).distance
            XCTAssertEqual(d1 + d2, whole, accuracy: 0.01)
        }
        // It bows north of the straight map line between LAX and JFK (smaller y is further north).
        let pa = MKMapPoint(lax), pb = MKMapPoint(jfk)
        var bow = 0.0
        for c in coordinates where c.longitude < jfk.longitude - 1e-6 {
            let p = MKMapPoint(c)
            let straightY = pa.y + (p.x - pa.x) / (pb.x - pa.x) * (pb.y - pa.y)
            XCTAssertLessThanOrEqual(p.y, straightY + 1e-6)
            bow = max(bow, straightY - p.y)
        }
        XCTAssertGreaterThan(bow, 0.05 * (pa.y - pb.y))
        // The metres along the line agree with the geodesic lengths.
        let index = coordinates.firstIndex { abs($0.longitude - jfk.longitude) < 1e-9 }!
        XCTAssertEqual(line.distance(atPointIndex: index), whole, accuracy: 1)
    }

    func testDistanceAtPointIndex() {
        let line = MKPolyline(coordinates: [coord(0, 0), coord(0, 1), coord(0, 3)])
        XCTAssertEqual(line.distance(atPointIndex: 0), 0)
        // One degree of longitude on the WGS84 equator: a·π/180.
        XCTAssertEqual(line.distance(atPointIndex: 1), 6_378_137 * .pi / 180, accuracy: 1e-3)
        XCTAssertEqual(line.distance(atPointIndex: 2), 3 * 6_378_137 * .pi / 180, accuracy: 1e-3)
        // Across the meridian the short way.
        let across = MKPolyline(coordinates: [coord(0, 179.5), coord(0, 180.5)])
        XCTAssertEqual(across.distance(atPointIndex: 1), 6_378_137 * .pi / 180, accuracy: 1e-3)
    }

    func testGeodesicPolylineFromPointsAndEmpty() {
        let points = [MKMapPoint(coord(10, 10)), MKMapPoint(coord(20, 30))]
        let line = MKGeodesicPolyline(points: points, count: 2)
        XCTAssertGreaterThan(line.pointCount, 2)
        XCTAssertEqual(line.points().first!.x, points[0].x, accuracy: 1e-6)
        XCTAssertEqual(line.points().last!.y, points[1].y, accuracy: 1e-6)
        XCTAssertEqual(MKGeodesicPolyline(coordinates: []).pointCount, 0)
        XCTAssertEqual(MKGeodesicPolyline(coordinates: [coord(1, 1)]).pointCount, 1)
    }
}
