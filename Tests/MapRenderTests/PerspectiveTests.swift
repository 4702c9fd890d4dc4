import Foundation
import MapFormats
import MapGeometry
@testable import MapRender
import MapStyle
import TestSupport
import XCTest

/// The pitched camera drawn in perspective: the same projection as `MapViewport`, the flat map
/// unchanged at pitch 0, the centre kept, the far distance showing more ground, the sky only above
/// the horizon, bad pitches refused.
final class PerspectiveTests: XCTestCase {
    private static let monaco = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)

    private func monacoRenderer() throws -> StyleRenderer {
        try StyleRenderer(style: DefaultStyle.standard.style, loader: MonacoTiles.loader())
    }

    /// The warp's screen ↔ ground map is `MapViewport`'s: the ground a view point sees, turned by
    /// the heading and scaled, is `mapPoint(for:)`, and back again `point(for:)`.
    func testProjectionIsTheViewportsProjection() {
        let (w, h) = (640.0, 400.0)
        for pitch in [5.0, 35, 60, 80] {
            for heading in [0.0, 47, -120] {
                let viewport = MapViewport(size: CGSize(width: w, height: h), centerCoordinate: Self.monaco, zoomLevel: 15.3,
                                           heading: heading, pitch: min(pitch, MapViewport.maximumPitch))
                let projection = PerspectiveProjection(width: w, height: h, pitch: min(pitch, MapViewport.maximumPitch))
                let transform = ScreenTransform(center: Self.monaco, zoom: 15.3, bearing: heading, width: w, height: h)
                for (x, y) in [(0.0, 0.0), (w, 0), (0, h), (w, h), (w / 2, h / 2), (123, 77), (600, 333)] {
                    let ground = try! XCTUnwrap(projection.ground(dx: x - w / 2, dy: y - h / 2))
                    let world = transform.world(screenX: w / 2 + ground.x, screenY: h / 2 + ground.y)
                    let expected = viewport.mapPoint(for: CGPoint(x: x, y: y))
                    XCTAssertEqual(world.x * MKMapSize.worldWidth, expected.x, accuracy: 1e-3, "pitch \(pitch) heading \(heading) at \(x),\(y)")
                    XCTAssertEqual(world.y * MKMapSize.worldWidth, expected.y, accuracy: 1e-3, "pitch \(pitch) heading \(heading) at \(x),\(y)")
                    let back = try! XCTUnwrap(projection.view(groundX: ground.x, groundY: ground.y))
                    XCTAssertEqual(back.dx + w / 2, x, accuracy: 1e-6)
                    XCTAssertEqual(back.dy + h / 2, y, accuracy: 1e-6)
                }
            }
        }
        // Steeper than the field of view allows, the top rows look above the horizon.
        let steep = PerspectiveProjection(width: w, height: h, pitch: 80)
        XCTAssertNil(steep.ground(dx: 0, dy: -h / 2))
        XCTAssertNotNil(PerspectiveProjection(width: w, height: h, pitch: 60).ground(dx: 0, dy: -h / 2))
    }

    /// Pitch 0 is the flat map, pixel for pixel, with or without the argument.
    func testPitchZeroDrawsTheFlatMap() throws {
        let flat = try monacoRenderer().render(center: Self.monaco, zoom: 16, bearing: 20, width: 300, height: 200)
        let zero = try monacoRenderer().render(center: Self.monaco, zoom: 16, bearing: 20, pitch: 0, width: 300, height: 200)
        let direct = try monacoRenderer().renderFlat(center: Self.monaco, zoom: 16, bearing: 20, width: 300, height: 200)
        XCTAssertEqual(flat.rgbaPixels(), zero.rgbaPixels())
        XCTAssertEqual(flat.rgbaPixels(), direct.rgbaPixels())
        let tilted = try monacoRenderer().render(center: Self.monaco, zoom: 16, bearing: 20, pitch: 1, width: 300, height: 200)
        XCTAssertNotEqual(flat.rgbaPixels(), tilted.rgbaPixels(), "a pitch of 1° goes through the warp")
    }

    /// A pitched frame differs from the flat one, but its centre row, where the ground keeps
    /// scale 1 across the view, matches the flat frame's centre row closely; its top row does not.
    func testCentreRowKeepsTheFlatScale() throws {
        // An odd height puts the centre row's pixel centres on the ground's centre line.
        let (w, h) = (400, 301)
        let flat = try monacoRenderer().render(center: Self.monaco, zoom: 16, width: Double(w), height: Double(h))
        for pitch in [30.0, 60] {
            let tilted = try monacoRenderer().render(center: Self.monaco, zoom: 16, pitch: pitch, width: Double(w), height: Double(h))
            let centre = rowDifference(flat, tilted, row: h / 2)
            let top = rowDifference(flat, tilted, row: 10)
            XCTAssertLessThan(centre, 12, "pitch \(pitch): the centre row is the flat map's (top row \(top))")
            XCTAssertGreaterThan(top, max(3 * centre, 15), "pitch \(pitch): the top row shows farther ground (centre row \(centre))")
            XCTAssertNotEqual(flat.rgbaPixels(), tilted.rgbaPixels())
        }
    }

    /// Features of the map sit where `MapViewport.convert` puts their coordinates, whatever the
    /// heading and pitch: the drawn map lines up with annotations and overlays.
    func testFeaturesSitWhereTheViewportPutsThem() throws {
        let center = CLLocationCoordinate2D(latitude: 10, longitude: 20)
        var points: [CLLocationCoordinate2D] = []
        for dLat in stride(from: -0.006, through: 0.006, by: 0.003) {
            for dLon in stride(from: -0.008, through: 0.008, by: 0.004) {
                points.append(CLLocationCoordinate2D(latitude: center.latitude + dLat, longitude: center.longitude + dLon))
            }
        }
        let features = points.map { #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [\#($0.longitude), \#($0.latitude)]}}"# }
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features.joined(separator: ","))]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 7, "circle-color": "#ff0000"}}]}
        """
        let renderer = try StyleRenderer(style: Style(text: style), loader: StyleResourceLoader(tile: { _, _ in nil }))
        let size = CGSize(width: 480, height: 360)
        for (pitch, heading) in [(60.0, 0.0), (45, 35), (25, -100)] {
            let viewport = MapViewport(size: size, centerCoordinate: center, zoomLevel: 15, heading: heading, pitch: pitch)
            let canvas = try renderer.render(center: center, zoom: 15, bearing: heading, pitch: pitch, width: 480, height: 360, pixelRatio: 2)
            var inside = 0
            for point in points {
                let p = viewport.convert(point)
                guard p.x > 8, p.y > 8, p.x < size.width - 8, p.y < size.height - 8 else { continue }
                inside += 1
                let pixel = canvas.pixel(x: Int(p.x * 2), y: Int(p.y * 2))
                XCTAssertTrue(pixel.red > 200 && pixel.green < 80 && pixel.blue < 80,
                              "pitch \(pitch) heading \(heading): \(pixel) at \(p) is not the circle")
                // Well beside the circle (farther than it reaches on screen) is the background.
                let beside = canvas.pixel(x: Int(p.x * 2) + 34, y: Int(p.y * 2))
                XCTAssertTrue(beside.green > 200, "pitch \(pitch) heading \(heading): \(beside) beside \(p) is not the background")
            }
            XCTAssertGreaterThan(inside, 5, "pitch \(pitch) heading \(heading)")
        }
    }

    /// Far rows show more ground than near rows: a grid of evenly spaced north–south lines crosses
    /// the top row of a pitched frame more often than its bottom row; in the flat frame as often.
    func testFarRowsShowMoreGround() throws {
        let center = CLLocationCoordinate2D(latitude: 0, longitude: 0)
        let lines = stride(from: -0.05, through: 0.05, by: 0.0015).map { #"[[\#($0), -0.05], [\#($0), 0.05]]"# }
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "MultiLineString", "coordinates": [\(lines.joined(separator: ","))]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "l", "type": "line", "source": "s", "paint": {"line-width": 4, "line-color": "#000000"}}]}
        """
        let renderer = try StyleRenderer(style: Style(text: style), loader: StyleResourceLoader(tile: { _, _ in nil }))
        func crossings(_ canvas: RenderCanvas, row: Int) -> Int {
            var count = 0, dark = false
            for x in 0..<canvas.pixelWidth {
                let isDark = canvas.pixel(x: x, y: row).red < 200
                if isDark && !dark { count += 1 }
                dark = isDark
            }
            return count
        }
        let flat = try renderer.render(center: center, zoom: 15, width: 600, height: 400)
        XCTAssertEqual(crossings(flat, row: 2), crossings(flat, row: 397))
        let tilted = try renderer.render(center: center, zoom: 15, pitch: 60, width: 600, height: 400)
        let far = crossings(tilted, row: 2), near = crossings(tilted, row: 397), middle = crossings(tilted, row: 200)
        XCTAssertEqual(middle, crossings(flat, row: 200), accuracy: 1, "scale 1 across the centre row")
        // At 60° the top row sees 2.37 view widths of ground and the bottom row 0.63.
        XCTAssertGreaterThan(Double(far), 2.5 * Double(near), "far \(far), near \(near)")
        XCTAssertGreaterThan(far, middle)
        XCTAssertLessThan(near, middle)
    }

    /// The sky appears only where the view looks above the horizon: never at the viewport's 60°,
    /// across the top rows at 80°, in a colour derived from the style's background.
    func testSkyOnlyAboveTheHorizon() throws {
        let renderer = try monacoRenderer()
        let background = try XCTUnwrap(renderer.backgroundColor(atZoom: 15))
        let sky = PerspectiveWarp.premultiplied(StyleRenderer.skyColor(background: background))
        func skyPixels(_ canvas: RenderCanvas, row: Int) -> Int {
            canvas.withPremultipliedARGB { pixels, stride in
                (0..<canvas.pixelWidth).filter { pixels.load(fromByteOffset: row * stride + $0 * 4, as: UInt32.self) == sky }.count
            }
        }
        let at60 = try renderer.render(center: Self.monaco, zoom: 15, pitch: 60, width: 400, height: 300)
        XCTAssertEqual(skyPixels(at60, row: 0), 0, "at 60° the top row still sees the ground")
        let at80 = try renderer.render(center: Self.monaco, zoom: 15, pitch: 80, width: 400, height: 300)
        // The horizon is 1.5 · 300 / tan 80° ≈ 79 points above the centre, so 71 rows look at the sky.
        XCTAssertEqual(skyPixels(at80, row: 0), 400)
        XCTAssertEqual(skyPixels(at80, row: 60), 400)
        XCTAssertEqual(skyPixels(at80, row: 250), 0, "near rows show the map")
        // The sky is a pale tint of the standard style's light background, not a hole.
        let colour = at80.pixel(x: 200, y: 5)
        XCTAssertEqual(colour.alpha, 255)
        XCTAssertGreaterThan(Int(colour.blue), Int(colour.red))
    }

    /// The flat drawings stay within the pixel budget, the band holding the centre row is drawn at
    /// the frame's resolution, and the bands cover every ground row once.
    func testPlanCoversTheGroundWithinBudget() {
        for pitch in [1.0, 30, 45, 60, 70, 85] {
            for ratio in [1.0, 2] {
                let projection = PerspectiveProjection(width: 1280, height: 800, pitch: pitch)
                let plan = PerspectivePlan(projection: projection, pixelRatio: ratio, maximumPixelRatio: StyleRenderer.maximumPixelRatio)
                XCTAssertFalse(plan.tiers.isEmpty)
                XCTAssertEqual(plan.tiers.last?.bottom ?? 0, 800, accuracy: 1e-9)
                XCTAssertEqual(plan.tiers.first?.top ?? -1, plan.groundTop, accuracy: 1e-9)
                for (a, b) in zip(plan.tiers, plan.tiers.dropFirst()) { XCTAssertEqual(a.bottom, b.top, accuracy: 1e-9) }
                let pixels = plan.tiers.reduce(0.0) { $0 + $1.width * $1.height * $1.pixelRatio * $1.pixelRatio }
                XCTAssertLessThanOrEqual(pixels, 1.05 * PerspectivePlan.maximumPixelsPerFrame * 1280 * 800 * ratio * ratio, "pitch \(pitch) ratio \(ratio)")
                if pitch <= 60 {
                    let centre = plan.tiers.first { $0.top <= 400 && 400 < $0.bottom }
                    XCTAssertEqual(centre?.pixelRatio, ratio, "pitch \(pitch): the centre is drawn at the frame's resolution")
                    XCTAssertEqual(plan.groundTop, 0, "pitch \(pitch): no fog at the viewport's pitches")
                }
            }
        }
    }

    /// A pitch that is not a number or out of 0 … 85° is refused with a typed error, never drawn.
    func testHostilePitchIsRefused() throws {
        let renderer = try monacoRenderer()
        for pitch in [Double.nan, -1, 85.5, 90, .infinity, -.infinity] {
            XCTAssertThrowsError(try renderer.render(center: Self.monaco, zoom: 15, pitch: pitch, width: 100, height: 100)) { error in
                XCTAssertTrue(error is RenderError, "pitch \(pitch)")
            }
        }
        // Tiny frames and the steepest pitch still draw.
        for (w, h) in [(1.0, 1.0), (1, 300), (300, 1)] {
            let canvas = try renderer.render(center: Self.monaco, zoom: 15, pitch: 85, width: w, height: h)
            XCTAssertEqual(canvas.pixelWidth, Int(w))
        }
    }

    /// Mean absolute difference per channel of one row of two same-size canvases, over the middle
    /// 80% of the row.
    private func rowDifference(_ a: RenderCanvas, _ b: RenderCanvas, row: Int) -> Double {
        let from = a.pixelWidth / 10, to = a.pixelWidth - a.pixelWidth / 10
        var sum = 0
        for x in from..<to {
            let p = a.pixel(x: x, y: row), q = b.pixel(x: x, y: row)
            sum += abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green)) + abs(Int(p.blue) - Int(q.blue))
        }
        return Double(sum) / Double(3 * (to - from))
    }
}
