import Foundation
@testable import OpenMapKit
import TestSupport
import XCTest

/// The compass and the scale bar that MKMapView.render() draws over its frame, and the scale
/// bar's measure as a pure function.
final class MapViewOrnamentTests: XCTestCase {
    // MARK: - The scale bar's measure

    func testNiceValuesAreOneTwoOrFiveTimesAPowerOfTen() {
        let cases: [(Double, Double)] = [(0.7, 0.5), (1, 1), (1.9, 1), (2, 2), (4.99, 2), (5, 5), (9.99, 5), (10, 10), (123, 100),
                                         (260, 200), (0.031, 0.02), (7_654_321, 5_000_000)]
        for (limit, nice) in cases {
            XCTAssertEqual(MapScaleBar.niceValue(atMost: limit), nice, accuracy: nice * 1e-9, "nice value under \(limit)")
        }
        XCTAssertEqual(MapScaleBar.niceValue(atMost: .nan), 0)
        XCTAssertEqual(MapScaleBar.format(0.2), "0.2")
        XCTAssertEqual(MapScaleBar.format(0.05), "0.05")
        XCTAssertEqual(MapScaleBar.format(500), "500")
    }

    func testMetricMeasures() throws {
        // 5 m per point, a 133-point bar at most: 665 m of room → 500 m, 100 points, 5 segments.
        let metres = try XCTUnwrap(MapScaleBar(metersPerPoint: 5, maximumWidth: 133, units: .metric))
        XCTAssertEqual(metres.label, "500 m")
        XCTAssertEqual(metres.width, 100, accuracy: 1e-9)
        XCTAssertEqual(metres.segments, 5)
        // 30 m per point: 3990 m of room → 2 km, 66.7 points, 4 segments.
        let kilometres = try XCTUnwrap(MapScaleBar(metersPerPoint: 30, maximumWidth: 133, units: .metric))
        XCTAssertEqual(kilometres.label, "2 km")
        XCTAssertEqual(kilometres.meters, 2000)
        XCTAssertEqual(kilometres.width, 2000 / 30, accuracy: 1e-9)
        XCTAssertEqual(kilometres.segments, 4)
        // Exactly 1000 m of room reads 1 km.
        XCTAssertEqual(MapScaleBar(metersPerPoint: 10, maximumWidth: 100, units: .metric)?.label, "1 km")
        // Very near: fractions of a metre.
        XCTAssertEqual(MapScaleBar(metersPerPoint: 0.004, maximumWidth: 100, units: .metric)?.label, "0.2 m")
        // Every bar fits the room and is more than a fifth of it (the next nice value would not fit).
        for metersPerPoint in stride(from: 0.37, to: 90_000, by: 611.3) {
            let bar = try XCTUnwrap(MapScaleBar(metersPerPoint: metersPerPoint, maximumWidth: 133, units: .metric))
            XCTAssertLessThanOrEqual(bar.width, 133 + 1e-9)
            XCTAssertGreaterThan(bar.width, 133 / 2.5 - 1e-9)
        }
        XCTAssertNil(MapScaleBar(metersPerPoint: .nan, maximumWidth: 133, units: .metric))
        XCTAssertNil(MapScaleBar(metersPerPoint: 5, maximumWidth: 0, units: .metric))
        XCTAssertNil(MapScaleBar(metersPerPoint: -1, maximumWidth: 100, units: .metric))
    }

    func testImperialMeasures() throws {
        // 1 m per point: 133 m = 436 ft of room → 200 ft.
        let feet = try XCTUnwrap(MapScaleBar(metersPerPoint: 1, maximumWidth: 133, units: .imperial))
        XCTAssertEqual(feet.label, "200 ft")
        XCTAssertEqual(feet.width, 200 * 0.3048, accuracy: 1e-9)
        // 5 m per point: 2182 ft of room, past 1000 ft → miles: 0.41 mi → 0.2 mi.
        let miles = try XCTUnwrap(MapScaleBar(metersPerPoint: 5, maximumWidth: 133, units: .imperial))
        XCTAssertEqual(miles.label, "0.2 mi")
        XCTAssertEqual(miles.width, 0.2 * 1609.344 / 5, accuracy: 1e-9)
        XCTAssertEqual(MapScaleBar(metersPerPoint: 100, maximumWidth: 133, units: .imperial)?.label, "5 mi")
        XCTAssertEqual(MapScaleBar(metersPerPoint: 1, maximumWidth: 133, units: .imperialWithYards)?.label, "100 yd")
    }

    func testTheScaleDependsOnTheLatitude() throws {
        // At the same zoom, a point covers half as many metres at 60° as at the equator.
        let size = CGSize(width: 400, height: 400)
        let equator = MapViewport(size: size, centerCoordinate: CLLocationCoordinate2D(latitude: 0, longitude: 7), zoomLevel: 13)
        let north = MapViewport(size: size, centerCoordinate: CLLocationCoordinate2D(latitude: 60, longitude: 7), zoomLevel: 13)
        XCTAssertEqual(north.metersPerPoint / equator.metersPerPoint, 0.5, accuracy: 1e-9)
        let a = try XCTUnwrap(MapScaleBar(metersPerPoint: equator.metersPerPoint, maximumWidth: 133, units: .metric))
        let b = try XCTUnwrap(MapScaleBar(metersPerPoint: north.metersPerPoint, maximumWidth: 133, units: .metric))
        XCTAssertEqual(a.label, "1 km")  // 9.55 m per point: 1270 m of room
        XCTAssertEqual(b.label, "500 m")
        XCTAssertEqual(b.width, a.width, accuracy: 1e-6, "half the distance at half the metres per point")
        // The map view measures at its centre.
        let (map, _, _) = MapViewFixtures.map()
        XCTAssertNil(map.scaleBar, "showsScale is off by default")
        map.showsScale = true
        let bar = try XCTUnwrap(map.scaleBar)
        XCTAssertEqual(bar, MapScaleBar(metersPerPoint: map.viewport.metersPerPoint, maximumWidth: 400.0 / 3, units: .metric))
        map.scaleUnits = .imperial
        let imperial = try XCTUnwrap(map.scaleBar)
        XCTAssertTrue(["ft", "mi"].contains(imperial.unit), imperial.label)
        // MKScaleView measures the same map.
        let scaleView = MKScaleView(mapView: map)
        scaleView.units = .metric
        scaleView.frame.size.width = 400.0 / 3
        XCTAssertEqual(scaleView.text, bar.label)
        scaleView.scaleVisibility = .hidden
        XCTAssertNil(scaleView.text)
        XCTAssertNil(scaleView.render())
    }

    // MARK: - Drawn over the frame

    /// The map's red pixels inside the compass's disc, and their centroid.
    private func redNeedle(_ image: UIImage, in frame: CGRect) -> (count: Int, x: Double, y: Double) {
        var count = 0, sx = 0.0, sy = 0.0
        let scale = Double(image.scale)
        for py in Int(Double(frame.minY) * scale)..<Int(Double(frame.maxY) * scale) {
            for px in Int(Double(frame.minX) * scale)..<Int(Double(frame.maxX) * scale) {
                guard let c = image.pixelColor(x: px, y: py), c.red > 0.8, c.green < 0.4, c.blue < 0.4 else { continue }
                count += 1
                sx += Double(px) / scale
                sy += Double(py) / scale
            }
        }
        return (count, count > 0 ? sx / Double(count) : .nan, count > 0 ? sy / Double(count) : .nan)
    }

    func testCompassShowsOnlyWhileRotatedWithItsNeedleToNorth() throws {
        let (map, _, _) = MapViewFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        XCTAssertTrue(map.showsCompass)
        XCTAssertNil(map.compassFrame, "north up: no compass")
        let north = try map.render()
        map.showsCompass = false
        let without = try map.render()
        XCTAssertEqual(north.renderCanvas.rgbaPixels(), without.renderCanvas.rgbaPixels(), "nothing drawn at heading 0")
        let frame = try XCTUnwrap(MapViewOrnaments.compassFrame(in: map.bounds.size))
        XCTAssertEqual(frame.maxX, 390)
        XCTAssertEqual(frame.minY, 10)

        // Heading 90 (facing east): north is to the left on screen.
        let camera = map.camera
        camera.heading = 90
        map.camera = camera
        let hidden = try map.render()
        XCTAssertNil(map.compassFrame, "showsCompass false hides it when rotated too")
        map.showsCompass = true
        XCTAssertEqual(map.compassFrame, frame)
        let east = try map.render()
        MonacoBundle.save(east, "mapview-compass-90")
        let needle = redNeedle(east, in: frame)
        XCTAssertGreaterThan(needle.count, 20, "the red needle is drawn")
        XCTAssertLessThan(redNeedle(hidden, in: frame).count, needle.count / 4, "the needle's pixels are the compass's")
        XCTAssertLessThan(needle.x, Double(frame.midX) - 4, "the needle points left at heading 90")
        XCTAssertEqual(needle.y, Double(frame.midY), accuracy: 2)
        // The disc is dark over the map.
        let disc = try XCTUnwrap(east.color(at: CGPoint(x: frame.midX + 12, y: frame.midY + 6)))
        XCTAssertLessThan(disc.red + disc.green + disc.blue, 1.2)

        // Heading 180: north is down; heading 270: right.
        camera.heading = 180
        map.camera = camera
        let south = redNeedle(try map.render(), in: frame)
        XCTAssertGreaterThan(south.y, Double(frame.midY) + 4)
        XCTAssertEqual(south.x, Double(frame.midX), accuracy: 2)
        camera.heading = 270
        map.camera = camera
        let west = redNeedle(try map.render(), in: frame)
        XCTAssertGreaterThan(west.x, Double(frame.midX) + 4)

        // A tap on the compass turns the map north up (animated), and selects nothing.
        map.tap(at: CGPoint(x: frame.midX, y: frame.midY))
        XCTAssertTrue(map.isAnimating)
        (map.clock as! MKManualMapViewClock).advance(by: 1)
        map.advanceAnimations()
        XCTAssertEqual(map.camera.heading, 0, accuracy: 1e-9)
        XCTAssertNil(map.compassFrame)
    }

    func testScaleBarDrawnAtTheTopLeftOnlyWhenShown() throws {
        let (map, _, _) = MapViewFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        let plain = try map.render()
        map.showsScale = true
        let bar = try XCTUnwrap(map.scaleBar)
        let image = try map.render()
        MonacoBundle.save(image, "mapview-scale")
        // The first segment is dark, the second light, in the bar's middle row.
        let row = Double(MapViewOrnaments.scaleOrigin.y) + MapViewOrnaments.scaleLabelSize + 4 + MapViewOrnaments.scaleBarHeight / 2
        let segment = bar.width / Double(bar.segments)
        let x0 = Double(MapViewOrnaments.scaleOrigin.x)
        assertColor(image.color(at: CGPoint(x: x0 + segment / 2, y: row)), near: UIColor(red: 0.13, green: 0.13, blue: 0.15, alpha: 1))
        assertColor(image.color(at: CGPoint(x: x0 + segment * 1.5, y: row)), near: .white)
        // The frame differs from the plain one only in the top-left corner (where the bar and its labels are).
        let a = image.renderCanvas, b = plain.renderCanvas
        var changed = (minX: Int.max, maxX: 0, maxY: 0)
        for y in 0..<a.pixelHeight where y % 2 == 0 {
            for x in 0..<a.pixelWidth where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                changed = (min(changed.minX, x), max(changed.maxX, x), max(changed.maxY, y))
            }
        }
        XCTAssertLessThanOrEqual(changed.minX, Int(x0) + 1)
        XCTAssertLessThan(changed.maxY, 40)
        XCTAssertLessThan(changed.maxX, Int(x0 + bar.width) + 40)
        XCTAssertGreaterThan(changed.maxX, Int(x0 + bar.width) - 2)
    }

    func testOrnamentsDrawAtTheContentScaleFactor() throws {
        let (map, _, _) = MapViewFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        map.showsScale = true
        let camera = map.camera
        camera.heading = 90
        map.camera = camera
        let frame = try XCTUnwrap(map.compassFrame)
        let one = try map.render()
        map.contentScaleFactor = 2
        let two = try map.render()
        MonacoBundle.save(two, "mapview-ornaments-2x")
        XCTAssertEqual(two.pixelSize.width, 800)
        let a = redNeedle(one, in: frame), b = redNeedle(two, in: frame)
        // Four times the pixels, at the same place in points.
        XCTAssertEqual(Double(b.count) / Double(a.count), 4, accuracy: 0.8)
        XCTAssertEqual(b.x, a.x, accuracy: 0.75)
        XCTAssertEqual(b.y, a.y, accuracy: 0.75)
        // The first dark segment is twice as many pixels long.
        func darkRun(_ image: UIImage) -> Int {
            let scale = Double(image.scale)
            let y = Int((Double(MapViewOrnaments.scaleOrigin.y) + MapViewOrnaments.scaleLabelSize + 4 + MapViewOrnaments.scaleBarHeight / 2) * scale)
            var x = Int((Double(MapViewOrnaments.scaleOrigin.x) + 1) * scale), run = 0
            while let c = image.pixelColor(x: x, y: y), c.red < 0.35 { run += 1; x += 1 }
            return run
        }
        let runOne = darkRun(one), runTwo = darkRun(two)
        XCTAssertGreaterThan(runOne, 5)
        XCTAssertEqual(Double(runTwo), 2 * Double(runOne), accuracy: 3)
    }

    func testCompassButtonModel() throws {
        let (map, _, _) = MapViewFixtures.map()
        let compass = MKCompassButton(mapView: map)
        XCTAssertFalse(compass.isVisible, "adaptive: hidden while north up")
        XCTAssertNil(compass.render())
        compass.compassVisibility = .visible
        XCTAssertTrue(compass.isVisible)
        let image = try XCTUnwrap(compass.render(scale: 2))
        XCTAssertEqual(image.pixelSize.width, 80)
        let top = redNeedle(image, in: CGRect(x: 0, y: 0, width: 40, height: 40))
        XCTAssertLessThan(top.y, 16, "north up: the needle points up")
        compass.compassVisibility = .adaptive
        map.camera = MKMapCamera(lookingAtCenter: map.centerCoordinate, fromDistance: map.camera.centerCoordinateDistance, pitch: 0, heading: 45)
        XCTAssertTrue(compass.isVisible)
        compass.tap()
        (map.clock as! MKManualMapViewClock).advance(by: 1)
        map.advanceAnimations()
        XCTAssertEqual(map.camera.heading, 0, accuracy: 1e-9)
        XCTAssertFalse(compass.isVisible)
        compass.compassVisibility = .hidden
        map.camera = MKMapCamera(lookingAtCenter: map.centerCoordinate, fromDistance: map.camera.centerCoordinateDistance, pitch: 0, heading: 45)
        XCTAssertFalse(compass.isVisible)
    }

    func testCompassTapDuringAZoomKeepsTheZoomsTarget() throws {
        // Both compasses (the map view's own and MKCompassButton) turn north from where the map
        // is headed, not from where it is mid-animation.
        for useButton in [false, true] {
            let (map, _, _) = MapViewFixtures.map()
            let clock = map.clock as! MKManualMapViewClock
            let start = MKMapCamera(lookingAtCenter: map.centerCoordinate, fromDistance: 4000, pitch: 0, heading: 60)
            map.camera = start
            let target = MKMapCamera(lookingAtCenter: map.centerCoordinate, fromDistance: 1000, pitch: 0, heading: 60)
            map.setCamera(target, animated: true)
            clock.advance(by: 0.05)
            map.advanceAnimations()
            XCTAssertGreaterThan(map.camera.centerCoordinateDistance, 1500, "mid-zoom")
            if useButton {
                MKCompassButton(mapView: map).tap()
            } else {
                let frame = try XCTUnwrap(map.compassFrame, "the compass shows while the map is turned")
                map.tap(at: CGPoint(x: frame.midX, y: frame.midY))
            }
            clock.advance(by: 2)
            map.advanceAnimations()
            XCTAssertEqual(map.camera.heading, 0, accuracy: 1e-9, "button: \(useButton)")
            XCTAssertEqual(map.camera.centerCoordinateDistance, 1000, accuracy: 1, "button: \(useButton)")
        }
    }

    func testScaleViewModelAlignsItsBarAndSmallFramesAreSafe() throws {
        let (map, _, _) = MapViewFixtures.map()
        let scale = MKScaleView(mapView: map)
        XCTAssertEqual(scale.scaleVisibility, .adaptive)
        XCTAssertTrue(scale.isVisible, "adaptive shows the scale (a model has no 'while zooming')")
        let width = Double(try XCTUnwrap(scale.barWidth))
        XCTAssertLessThanOrEqual(width, 150)
        let row = Int(MapViewOrnaments.scaleLabelSize + 4 + MapViewOrnaments.scaleBarHeight / 2)
        let leading = try XCTUnwrap(scale.render(scale: 1))
        XCTAssertGreaterThan(try XCTUnwrap(leading.pixelColor(x: 2, y: row)).alpha, 0.9, "leading: the bar starts at the left")
        scale.legendAlignment = .trailing
        let trailing = try XCTUnwrap(scale.render(scale: 1))
        XCTAssertGreaterThan(try XCTUnwrap(trailing.pixelColor(x: 148, y: row)).alpha, 0.9, "trailing: the bar ends at the right")
        if width < 140 {
            XCTAssertEqual(try XCTUnwrap(trailing.pixelColor(x: 2, y: row)).alpha, 0, "and leaves the left empty")
        }
        // Without a map view, or on a zero-size map, there is nothing to show.
        XCTAssertFalse(MKScaleView(mapView: nil).isVisible)
        let zeroSize = MKMapView(frame: .zero)
        XCTAssertFalse(MKScaleView(mapView: zeroSize).isVisible)
        XCTAssertFalse(MKCompassButton(mapView: nil).isVisible)
        // A frame too small for the compass has none; the scale bar shrinks to fit.
        let small = MKMapView(frame: CGRect(x: 0, y: 0, width: 50, height: 50), clock: MKManualMapViewClock())
        small.showsScale = true
        small.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 2000, pitch: 0, heading: 30)
        XCTAssertEqual(small.camera.heading, 30, accuracy: 1e-9)
        XCTAssertNil(small.compassFrame)
        XCTAssertLessThanOrEqual(try XCTUnwrap(small.scaleBar).width, 50.0 / 3)
        XCTAssertNil(MKMapView(frame: .zero).scaleBar)
    }
}
