import Foundation
@testable import OpenMapKit
import TestSupport
import XCTest

/// Snapshots and map view frames of a pitched camera on the Monaco bundle: the map in
/// perspective, with overlays and markers where the pitched viewport puts them, and bad pitches
/// clamped as `MapViewport` clamps them.
final class PitchedSnapshotTests: XCTestCase {
    private func camera(pitch: Double, heading: Double = 0, zoom: Double, size: CGSize) -> MKMapCamera {
        MapViewport(size: size, centerCoordinate: MonacoBundle.center, zoomLevel: zoom, heading: heading, pitch: 0).camera
            .withPitch(pitch)
    }

    private func options(pitch: Double, heading: Double = 0, zoom: Double = 15.5,
                         size: CGSize = CGSize(width: 320, height: 240)) -> MKMapSnapshotter.Options {
        let options = MKMapSnapshotter.Options()
        options.size = size
        options.camera = camera(pitch: pitch, heading: heading, zoom: zoom, size: size)
        // These tests read the map's pixels up to the bottom edge: the credit is tested elsewhere (AttributionTests).
        options.showsAttribution = false
        return options
    }

    /// A red polyline overlay and a marker on a pitched, turned camera land where the snapshot's
    /// viewport (and `point(for:)`) puts their coordinates.
    func testOverlayAndMarkerLineUpOnAPitchedFrame() async throws {
        for (pitch, heading) in [(45.0, 30.0), (60, 0)] {
            // About 770 × 580 m of ground across the frame's centre; the line and the pin lie in view.
            let options = options(pitch: pitch, heading: heading, zoom: 14.5)
            let line = [CLLocationCoordinate2D(latitude: 43.7366, longitude: 7.4222), CLLocationCoordinate2D(latitude: 43.7402, longitude: 7.4268)]
            let renderer = MKPolylineRenderer(polyline: MKPolyline(coordinates: line, count: line.count))
            renderer.strokeColor = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
            renderer.lineWidth = 7
            options.addOverlay(renderer, level: .aboveLabels)
            let pin = MKPointAnnotation(coordinate: CLLocationCoordinate2D(latitude: 43.7378, longitude: 7.4262))
            options.addAnnotation(pin)
            let shot = try await snapshot(options)
            MonacoBundle.save(shot.image, "pitched-\(Int(pitch))-\(Int(heading))")
            XCTAssertEqual(shot.viewport.pitch, pitch)
            XCTAssertEqual(shot.viewport.heading, heading, accuracy: 1e-9)
            var checked = 0
            for step in 1..<20 {
                let t = Double(step) / 20
                let coordinate = CLLocationCoordinate2D(latitude: line[0].latitude + t * (line[1].latitude - line[0].latitude),
                                                        longitude: line[0].longitude + t * (line[1].longitude - line[0].longitude))
                let p = shot.point(for: coordinate)
                XCTAssertEqual(p, shot.viewport.convert(coordinate))
                guard p.x > 4, p.y > 4, p.x < 316, p.y < 236 else { continue }
                checked += 1
                let colour = try XCTUnwrap(shot.image.color(at: p))
                XCTAssertTrue(colour.red > 0.9 && colour.green < 0.15 && colour.blue < 0.15, "pitch \(pitch): \(colour) at \(p) is not the line")
            }
            XCTAssertGreaterThan(checked, 5, "pitch \(pitch): the line crosses the frame")
            // The marker balloon's head, red, stands above the point.
            let tip = shot.point(for: pin.coordinate)
            let head = try XCTUnwrap(shot.image.color(at: CGPoint(x: tip.x, y: tip.y - 25 - 8)))
            XCTAssertTrue(head.red > 0.8 && head.green < 0.4, "pitch \(pitch): \(head) above the marker's point")
        }
    }

    /// Overlays reaching behind a pitched camera are cut where they leave the view instead of
    /// vanishing whole: a line from the view's centre to a point ~15 km south (behind the camera
    /// at 60°) is drawn along its visible part, and a polygon with corners behind the camera
    /// still fills what is in view.
    func testOverlaysReachingBehindThePitchedCameraAreCut() async throws {
        let options = options(pitch: 60, zoom: 15.5)
        let size = options.size
        let viewport = MapViewport(size: size, camera: options.camera)
        let centre = MonacoBundle.center
        let south = CLLocationCoordinate2D(latitude: centre.latitude - 0.14, longitude: centre.longitude)
        XCTAssertLessThan(viewport.cameraDepth(of: MKMapPoint(south)), 0, "the far end lies behind the camera")
        XCTAssertTrue(viewport.convert(south).x.isNaN)
        let line = MKPolyline(coordinates: [centre, south], count: 2)
        let stroke = MKPolylineRenderer(polyline: line)
        stroke.strokeColor = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
        stroke.lineWidth = 6
        options.addOverlay(stroke, level: .aboveLabels)
        // A polygon from the north-west quarter of the view down to far behind the camera.
        let west = viewport.convert(CGPoint(x: size.width * 0.1, y: size.height * 0.3))
        let midWest = viewport.convert(CGPoint(x: size.width * 0.3, y: size.height * 0.3))
        let polygon = MKPolygon(coordinates: [west, midWest,
                                              CLLocationCoordinate2D(latitude: midWest.latitude - 0.14, longitude: midWest.longitude),
                                              CLLocationCoordinate2D(latitude: west.latitude - 0.14, longitude: west.longitude)], count: 4)
        let fill = MKPolygonRenderer(polygon: polygon)
        fill.fillColor = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
        options.addOverlay(fill, level: .aboveLabels)
        let shot = try await snapshot(options)
        MonacoBundle.save(shot.image, "pitched-cut-overlays")
        // The line: red from the centre down to the bottom edge.
        for y in stride(from: Double(size.height) / 2 + 4, to: Double(size.height) - 3, by: 8) {
            let colour = try XCTUnwrap(shot.image.color(at: CGPoint(x: Double(size.width) / 2, y: y)))
            XCTAssertTrue(colour.red > 0.9 && colour.green < 0.15, "\(colour) at y \(y) is not the line")
        }
        // The polygon: blue along its middle, from its far edge to where it leaves the frame.
        var inside = 0
        for step in 1..<200 {
            let t = Double(step) / 200 * 0.01
            let coordinate = CLLocationCoordinate2D(latitude: (west.latitude + midWest.latitude) / 2 - t,
                                                    longitude: (west.longitude + midWest.longitude) / 2)
            let p = viewport.convert(coordinate)
            guard p.x > 3, p.y > 3, p.x < size.width - 3, p.y < size.height - 3 else { continue }
            inside += 1
            let colour = try XCTUnwrap(shot.image.color(at: p))
            XCTAssertTrue(colour.blue > 0.9 && colour.red < 0.15, "\(colour) at \(p) is not the polygon")
        }
        XCTAssertGreaterThan(inside, 20)
        // Beside the polygon, the map.
        let beside = try XCTUnwrap(shot.image.color(at: CGPoint(x: Double(size.width) * 0.4, y: Double(size.height) * 0.8)))
        XCTAssertFalse(beside.blue > 0.9 && beside.red < 0.15)
    }

    /// The pitched map differs from the flat one (the ground recedes), keeps its centre row, and
    /// its far half shows more of the map than the near half: more distinct colours per row.
    func testPitchedMapRecedesAndKeepsItsCentre() async throws {
        let size = CGSize(width: 320, height: 241)
        let flat = try await snapshot(options(pitch: 0, size: size)).image
        let tilted = try await snapshot(options(pitch: 60, size: size)).image
        func row(_ image: UIImage, _ y: Int) -> [UIColor] { (0..<320).map { image.pixelColor(x: $0, y: y)! } }
        func difference(_ a: [UIColor], _ b: [UIColor]) -> Double {
            zip(a, b).map { abs(Double($0.red - $1.red)) + abs(Double($0.green - $1.green)) + abs(Double($0.blue - $1.blue)) }
                .reduce(0, +) / Double(a.count)
        }
        let centre = difference(row(flat, 120), row(tilted, 120))
        let top = difference(row(flat, 10), row(tilted, 10))
        XCTAssertLessThan(centre, 0.1, "the centre row keeps the flat map's scale")
        XCTAssertGreaterThan(top, 3 * centre)
        // Colour changes along rows: the far rows cross more streets and blocks than the near rows.
        func changes(_ image: UIImage, rows: StrideTo<Int>) -> Int {
            rows.reduce(0) { total, y in
                let colours = row(image, y)
                return total + zip(colours, colours.dropFirst()).filter { difference([$0], [$1]) > 0.15 }.count
            }
        }
        let far = changes(tilted, rows: stride(from: 5, to: 60, by: 5)), near = changes(tilted, rows: stride(from: 185, to: 240, by: 5))
        XCTAssertGreaterThan(far, near, "far \(far), near \(near)")
        // The visible map rect grows with the pitch.
        let pitchedRect = try await snapshot(options(pitch: 60, size: size)).viewport.visibleMapRect
        let flatRect = try await snapshot(options(pitch: 0, size: size)).viewport.visibleMapRect
        XCTAssertGreaterThan(pitchedRect.width * pitchedRect.height, 2 * flatRect.width * flatRect.height)
    }

    /// A pitch that is not a number is 0, a negative one 0, a huge one 60°: clamped as the viewport
    /// clamps it, drawn as the clamped pitch is, never a crash.
    func testHostilePitchIsClamped() async throws {
        let size = CGSize(width: 160, height: 120)
        let flat = try await snapshot(options(pitch: 0, size: size))
        let steepest = try await snapshot(options(pitch: 60, size: size))
        for (pitch, expected) in [(Double.nan, 0.0), (-30, 0), (1000, 60), (.infinity, 0), (-.infinity, 0)] {
            let shot = try await snapshot(options(pitch: pitch, size: size))
            XCTAssertEqual(shot.viewport.pitch, expected, "pitch \(pitch)")
            let reference = expected == 0 ? flat : steepest
            XCTAssertEqual(shot.image.pngData(), reference.image.pngData(), "pitch \(pitch) draws as \(expected)")
        }
        XCTAssertNotEqual(flat.image.pngData(), steepest.image.pngData())
    }

    /// MKMapView.render() draws its pitched camera, with its annotation views where the map view
    /// converts their coordinates.
    func testMapViewRendersItsPitchedCamera() throws {
        let (map, _, _) = MapViewFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        map.region = MKCoordinateRegion(center: MapViewFixtures.monaco, latitudinalMeters: 1500, longitudinalMeters: 1500)
        let flat = try map.render()
        let marker = MapViewFixtures.point("Casino", 43.7393, 7.4277)
        map.addAnnotation(marker)
        (map.view(for: marker) as? MKMarkerAnnotationView)?.markerTintColor = .systemGreen
        map.camera = map.camera.withPitch(55).withHeading(20)
        XCTAssertEqual(map.camera.pitch, 55, accuracy: 1e-9)
        let image = try map.render()
        MonacoBundle.save(image, "mapview-pitched")
        let tip = map.convert(marker.coordinate, toPointTo: map)
        let head = try XCTUnwrap(image.color(at: CGPoint(x: tip.x, y: tip.y - 25 - 8)))
        XCTAssertGreaterThan(head.green, 0.6)
        XCTAssertLessThan(head.red, 0.4)
        XCTAssertNotEqual(flat.pngData(), image.pngData())
    }
}

private extension MKMapCamera {
    func withPitch(_ pitch: Double) -> MKMapCamera {
        let copy = copy()
        copy.pitch = pitch
        return copy
    }

    func withHeading(_ heading: Double) -> MKMapCamera {
        let copy = copy()
        copy.heading = heading
        return copy
    }
}
