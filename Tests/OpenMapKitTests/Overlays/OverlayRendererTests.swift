import Foundation
import MapRender
@testable import OpenMapKit
import XCTest

final class OverlayRendererTests: XCTestCase {
    let monaco = MonacoBundle.center
    let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)

    func options(zoom: Double = 14, size: CGSize = CGSize(width: 256, height: 256), scale: CGFloat = 1) -> MKMapSnapshotter.Options {
        let options = MKMapSnapshotter.Options()
        options.size = size
        options.scale = scale
        options.camera = MapViewport(size: size, centerCoordinate: monaco, zoomLevel: zoom).camera
        return options
    }

    func offset(_ dLat: Double, _ dLon: Double) -> CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: monaco.latitude + dLat, longitude: monaco.longitude + dLon)
    }

    /// A tile overlay that replaces the map with one flat colour, so shapes are tested without
    /// rendering the map (and the data source is not needed).
    func blankBase() throws -> MKTileOverlay {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blank-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let canvas = try RenderCanvas(width: 4, height: 4)
        canvas.fill(.white)
        try Data(canvas.pngData()).write(to: folder.appendingPathComponent("blank.png"))
        let overlay = MKTileOverlay(urlTemplate: folder.appendingPathComponent("blank.png").path)
        overlay.canReplaceMapContent = true
        return overlay
    }

    func testPolylineIsStrokedWherePointForSaysInPointsAtAnyScale() async throws {
        let line = MKPolyline(coordinates: [offset(-0.003, -0.004), offset(0.003, 0.004)])
        for (scale, heading): (CGFloat, Double) in [(1, 0), (2, 0), (1, 90)] {
            let options = options(scale: scale)
            let camera = options.camera
            camera.heading = heading
            options.camera = camera
            options.addOverlay(MKTileOverlayRenderer(tileOverlay: try blankBase()))
            let renderer = MKPolylineRenderer(polyline: line)
            renderer.strokeColor = magenta
            renderer.lineWidth = 6
            options.addOverlay(renderer)
            let shot = try await snapshot(options)
            let a = shot.point(for: offset(-0.003, -0.004)), b = shot.point(for: offset(0.003, 0.004))
            let mid = CGPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            assertColor(shot.image.color(at: mid), near: magenta, "on the line at scale \(scale)")
            // Across the line: 6 points wide, so ±2 points are on it and ±6 points are off.
            let length = hypot(b.x - a.x, b.y - a.y)
            let normal = CGPoint(x: -(b.y - a.y) / length, y: (b.x - a.x) / length)
            assertColor(shot.image.color(at: CGPoint(x: mid.x + normal.x * 2, y: mid.y + normal.y * 2)), near: magenta)
            assertColor(shot.image.color(at: CGPoint(x: mid.x + normal.x * 6, y: mid.y + normal.y * 6)), near: .white)
            // In pixels, the width is points × scale.
            var onPixels = 0
            let steps = 40
            for i in -steps...steps {
                let t = CGFloat(i) / CGFloat(steps) * 10
                if isColor(shot.image.color(at: CGPoint(x: mid.x + normal.x * t, y: mid.y + normal.y * t)), near: magenta, tolerance: 0.3) { onPixels += 1 }
            }
            XCTAssertEqual(Double(onPixels) / Double(2 * steps + 1) * 20, 6, accuracy: 1.2, "about 6 points across at scale \(scale)")
            if heading == 90 {
                XCTAssertLessThan(Double(b.y), Double(a.y), "with heading 90 east is up")
                MonacoBundle.save(shot.image, "overlay-polyline-heading-90")
            }
            if scale == 2 { MonacoBundle.save(shot.image, "overlay-polyline-2x") }
        }
    }

    func testPolygonHoleStaysUnpaintedAndCircleIsRound() async throws {
        let options = options()
        options.addOverlay(MKTileOverlayRenderer(tileOverlay: try blankBase()))
        let hole = MKPolygon(coordinates: [offset(-0.001, -0.001), offset(-0.001, 0.001), offset(0.001, 0.001), offset(0.001, -0.001)])
        let polygon = MKPolygon(coordinates: [offset(-0.002, -0.003), offset(-0.002, 0.003), offset(0.002, 0.003), offset(0.002, -0.003)],
                                interiorPolygons: [hole])
        let renderer = MKPolygonRenderer(polygon: polygon)
        renderer.fillColor = .blue
        options.addOverlay(renderer)
        let circleCenter = offset(0.0028, 0)
        let circle = MKCircleRenderer(circle: MKCircle(center: circleCenter, radius: 60))
        circle.fillColor = .green
        options.addOverlay(circle)
        let shot = try await snapshot(options)
        MonacoBundle.save(shot.image, "overlay-polygon-hole")
        assertColor(shot.image.color(at: shot.point(for: monaco)), near: .white, "the hole")
        assertColor(shot.image.color(at: shot.point(for: offset(-0.0015, 0))), near: .blue, "the ring")
        assertColor(shot.image.color(at: shot.point(for: offset(0.003, 0.0045))), near: .white, "outside")
        let c = shot.point(for: circleCenter)
        let radiusPoints = 60 * MKMapPointsPerMeterAtLatitude(circleCenter.latitude) * Double(shot.viewport.zoomScale)
        assertColor(shot.image.color(at: c), near: .green)
        assertColor(shot.image.color(at: CGPoint(x: Double(c.x) + radiusPoints * 0.8, y: Double(c.y))), near: .green)
        assertColor(shot.image.color(at: CGPoint(x: Double(c.x), y: Double(c.y) + radiusPoints * 0.8)), near: .green)
        assertColor(shot.image.color(at: CGPoint(x: Double(c.x) + radiusPoints * 1.3, y: Double(c.y))), near: .white)
    }

    /// A ring written closed (its first point repeated at the end, kept as MapKit keeps it) draws
    /// exactly like the same ring written open: the repeat is where the outline closes, so the
    /// stroke's mitred corner there is the same, not a join against a zero-length side.
    func testPolygonWrittenClosedDrawsLikeTheOpenRing() async throws {
        let corners = [offset(-0.002, -0.003), offset(-0.002, 0.003), offset(0.002, 0.003), offset(0.002, -0.003)]
        var shots: [MKMapSnapshotter.Snapshot] = []
        for ring in [corners, corners + [corners[0]]] {
            let options = options()
            options.addOverlay(MKTileOverlayRenderer(tileOverlay: try blankBase()))
            let polygon = MKPolygon(coordinates: ring)
            XCTAssertEqual(polygon.pointCount, ring.count)
            let renderer = MKPolygonRenderer(polygon: polygon)
            renderer.fillColor = .blue
            renderer.strokeColor = magenta
            renderer.lineWidth = 10
            renderer.lineJoin = .miter
            options.addOverlay(renderer)
            shots.append(try await snapshot(options))
        }
        let corner = shots[0].point(for: corners[0])
        assertColor(shots[0].image.color(at: corner), near: magenta, "the outline at the first corner")
        var compared = 0
        for dy in stride(from: -12.0, through: 12, by: 1) {
            for dx in stride(from: -12.0, through: 12, by: 1) {
                let p = CGPoint(x: corner.x + dx, y: corner.y + dy)
                let open = try XCTUnwrap(shots[0].image.color(at: p)), closed = try XCTUnwrap(shots[1].image.color(at: p))
                XCTAssertTrue(isColor(closed, near: open, tolerance: 0.01), "at \(dx), \(dy) from the first corner: \(closed) vs \(open)")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 625)
    }

    func testGradientPolylineChangesColourAlongItsLengthAndStrokeEndCutsIt() async throws {
        let start = offset(0, -0.004), end = offset(0, 0.004)
        let line = MKPolyline(coordinates: [start, end])
        let options = options()
        options.addOverlay(MKTileOverlayRenderer(tileOverlay: try blankBase()))
        let gradient = MKGradientPolylineRenderer(polyline: line)
        gradient.setColors([.red, .blue], locations: [0, 1])
        gradient.lineWidth = 8
        options.addOverlay(gradient)
        let half = MKPolylineRenderer(polyline: MKPolyline(coordinates: [offset(0.002, -0.004), offset(0.002, 0.004)]))
        half.strokeColor = magenta
        half.lineWidth = 8
        half.strokeEnd = 0.5
        options.addOverlay(half)
        let shot = try await snapshot(options)
        MonacoBundle.save(shot.image, "overlay-gradient")
        let a = shot.point(for: start), b = shot.point(for: end)
        func along(_ t: CGFloat) -> UIColor? { shot.image.color(at: CGPoint(x: a.x + (b.x - a.x) * t, y: a.y)) }
        let early = try XCTUnwrap(along(0.1)), middle = try XCTUnwrap(along(0.5)), late = try XCTUnwrap(along(0.9))
        XCTAssertGreaterThan(early.red, 0.8)
        XCTAssertLessThan(early.blue, 0.2)
        XCTAssertGreaterThan(late.blue, 0.8)
        XCTAssertLessThan(late.red, 0.2)
        XCTAssertEqual(Double(middle.red), 0.5, accuracy: 0.1)
        XCTAssertEqual(Double(middle.blue), 0.5, accuracy: 0.1)
        XCTAssertEqual(gradient.color(at: 0.25), RenderColor(red: 0.75, green: 0, blue: 0.25))

        let h0 = shot.point(for: offset(0.002, -0.004)), h1 = shot.point(for: offset(0.002, 0.004))
        assertColor(shot.image.color(at: CGPoint(x: h0.x + (h1.x - h0.x) * 0.25, y: h0.y)), near: magenta, "first half drawn")
        assertColor(shot.image.color(at: CGPoint(x: h0.x + (h1.x - h0.x) * 0.75, y: h0.y)), near: .white, "second half not drawn")
    }

    func testAboveRoadsStaysUnderLabelsAndAboveLabelsCoversThem() async throws {
        let size = CGSize(width: 256, height: 256)
        var shots: [MKOverlayLevel: MKMapSnapshotter.Snapshot] = [:]
        for level in [MKOverlayLevel.aboveRoads, .aboveLabels] {
            let options = options(zoom: 16, size: size)
            let cover = MKPolygonRenderer(polygon: MKPolygon(coordinates: [offset(-0.01, -0.01), offset(-0.01, 0.01), offset(0.01, 0.01), offset(0.01, -0.01)]))
            cover.fillColor = magenta
            options.addOverlay(cover, level: level)
            options.showsAttribution = false  // every pixel is read; the credit is tested in AttributionTests
            shots[level] = try await snapshot(options)
        }
        MonacoBundle.save(shots[.aboveRoads]!.image, "overlay-above-roads")
        var notCovered: [MKOverlayLevel: Int] = [:]
        for (level, shot) in shots {
            for y in 0..<256 { for x in 0..<256 where !isColor(shot.image.pixelColor(x: x, y: y), near: magenta, tolerance: 0.02) { notCovered[level, default: 0] += 1 } }
        }
        XCTAssertEqual(notCovered[.aboveLabels, default: 0], 0, "above labels, nothing shows through")
        XCTAssertGreaterThan(notCovered[.aboveRoads, default: 0], 300, "above roads, labels and icons show on top")
    }

    func testTileOverlayFromAFolderIsDrawnWhereItsTilesAreAndReplacesTheMap() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // 256-point tiles at z = zoom + 1; the tile holding Monaco and its east neighbour.
        let zoom = 14.0, z = 15
        let n = Double(1 << z)
        let world = MKMapPoint(monaco)
        let tx = Int(world.x / MKMapSize.worldWidth * n), ty = Int(world.y / MKMapSize.worldWidth * n)
        // The neighbour on the side nearer the view's centre, so both are in view.
        let side = (world.x / MKMapSize.worldWidth * n).truncatingRemainder(dividingBy: 1) > 0.5 ? 1 : -1
        let colours: [(Int, Int, RenderColor)] = [(tx, ty, RenderColor(red: 1, green: 0, blue: 0)), (tx + side, ty, RenderColor(red: 0, green: 0, blue: 1))]
        for (x, y, colour) in colours {
            let dir = folder.appendingPathComponent("\(z)/\(x)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let canvas = try RenderCanvas(width: 256, height: 256)
            canvas.fill(colour)
            try Data(canvas.pngData()).write(to: dir.appendingPathComponent("\(y).png"))
        }
        let overlay = MKTileOverlay(urlTemplate: folder.path)
        XCTAssertEqual(overlay.url(forTilePath: MKTileOverlayPath(x: 1, y: 2, z: 3, contentScaleFactor: 2)).path, folder.path + "/3/1/2.png")
        XCTAssertEqual(MKTileOverlay(urlTemplate: "file:///t/{z}/{x}/{y}@{scale}x.png").url(forTilePath: MKTileOverlayPath(x: 1, y: 2, z: 3, contentScaleFactor: 2)).path,
                       "/t/3/1/2@2x.png")
        let flipped = MKTileOverlay(urlTemplate: "/t/{z}/{x}/{y}.png")
        flipped.isGeometryFlipped = true
        XCTAssertEqual(flipped.path(x: 0, y: 0, z: 2, scale: 1).y, 3, "TMS rows count from the bottom")

        // Over the map: the tiles cover their squares, the map shows elsewhere.
        let options = options(zoom: zoom, size: CGSize(width: 640, height: 640))
        options.addOverlay(MKTileOverlayRenderer(tileOverlay: overlay))
        let over = try await snapshot(options)
        MonacoBundle.save(over.image, "overlay-tiles")
        let tileSize = MKMapSize.worldWidth / n
        func centre(_ x: Int, _ y: Int) -> CGPoint {
            over.point(for: MKMapPoint(x: (Double(x) + 0.5) * tileSize, y: (Double(y) + 0.5) * tileSize).coordinate)
        }
        assertColor(over.image.color(at: centre(tx, ty)), near: .red)
        assertColor(over.image.color(at: centre(tx + side, ty)), near: .blue)
        // Just inside the tile's north-west corner it is red; just outside, it is the map.
        let corner = over.point(for: MKMapPoint(x: Double(tx) * tileSize, y: Double(ty) * tileSize).coordinate)
        if corner.x > 3 && corner.y > 3 {
            assertColor(over.image.color(at: CGPoint(x: corner.x + 2, y: corner.y + 2)), near: .red)
            XCTAssertFalse(isColor(over.image.color(at: CGPoint(x: corner.x - 2, y: corner.y - 2)), near: .red))
        }
        XCTAssertGreaterThan(Double(corner.y), 8, "the view shows the map north of the tiles")
        let mapPixel = over.image.color(at: CGPoint(x: centre(tx, ty).x, y: corner.y - 6))
        XCTAssertFalse(isColor(mapPixel, near: .red) || isColor(mapPixel, near: .blue), "the map north of the tiles")

        // Replacing the map: outside the tiles is the plain background, with no map data read.
        overlay.canReplaceMapContent = true
        let replaced = try await MKMapSnapshotter(options: options, dataSource: try MonacoBundle.dataSource()).start()
        MonacoBundle.save(replaced.image, "overlay-tiles-replace")
        assertColor(replaced.image.color(at: centre(tx, ty)), near: .red)
        var backgroundColours = Set<String>()
        for y in stride(from: 0, to: 640, by: 8) {
            for x in stride(from: 0, to: 640, by: 8) {
                let c = replaced.image.pixelColor(x: x, y: y)!
                if !isColor(c, near: .red, tolerance: 0.1) && !isColor(c, near: .blue, tolerance: 0.1) { backgroundColours.insert("\(c)") }
            }
        }
        XCTAssertEqual(backgroundColours.count, 1, "one plain colour where the map would be: \(backgroundColours)")
        // The snapshot without a data source at all still works when the map is replaced.
        let saved = ProcessInfo.processInfo.environment["OPENMAPKIT_BUNDLE"]
        unsetenv("OPENMAPKIT_BUNDLE")
        defer { if let saved { setenv("OPENMAPKIT_BUNDLE", saved, 1) } }
        _ = try await MKMapSnapshotter(options: options).start()
    }

    func testDashesAndMultiShapeRenderers() async throws {
        let options = options()
        options.addOverlay(MKTileOverlayRenderer(tileOverlay: try blankBase()))
        let dashed = MKPolylineRenderer(polyline: MKPolyline(coordinates: [offset(0.002, -0.004), offset(0.002, 0.004)]))
        dashed.strokeColor = magenta
        dashed.lineWidth = 6
        dashed.lineCap = .butt
        dashed.lineDashPattern = [10, 10]
        options.addOverlay(dashed)
        let lines = MKMultiPolyline([MKPolyline(coordinates: [offset(-0.001, -0.004), offset(-0.001, 0.004)]),
                                     MKPolyline(coordinates: [offset(-0.002, -0.004), offset(-0.002, 0.004)])])
        let linesRenderer = MKMultiPolylineRenderer(multiPolyline: lines)
        linesRenderer.strokeColor = .blue
        linesRenderer.lineWidth = 4
        options.addOverlay(linesRenderer)
        let squares = MKMultiPolygon([MKPolygon(coordinates: [offset(-0.0035, -0.004), offset(-0.0035, -0.003), offset(-0.0028, -0.003), offset(-0.0028, -0.004)]),
                                      MKPolygon(coordinates: [offset(-0.0035, 0.003), offset(-0.0035, 0.004), offset(-0.0028, 0.004), offset(-0.0028, 0.003)])])
        let squaresRenderer = MKMultiPolygonRenderer(multiPolygon: squares)
        squaresRenderer.fillColor = .green
        options.addOverlay(squaresRenderer)
        let shot = try await snapshot(options)
        MonacoBundle.save(shot.image, "overlay-dashes-multi")

        // Along the dashed line: runs of about 10 points on and 10 off.
        let a = shot.point(for: offset(0.002, -0.004)), b = shot.point(for: offset(0.002, 0.004))
        var runs: [Int] = [], current = 0, on = true
        for x in Int(a.x.rounded(.up))..<Int(b.x.rounded(.down)) {
            let isOn = isColor(shot.image.color(at: CGPoint(x: CGFloat(x) + 0.5, y: a.y)), near: magenta, tolerance: 0.2)
            if isOn == on { current += 1 } else { runs.append(current); current = 1; on = isOn }
        }
        let middle = runs.dropFirst().dropLast()
        XCTAssertGreaterThan(middle.count, 8)
        for run in middle { XCTAssertEqual(Double(run), 10, accuracy: 1.5) }

        for latitude in [-0.001, -0.002] {
            assertColor(shot.image.color(at: shot.point(for: offset(latitude, 0))), near: .blue, "both polylines")
        }
        assertColor(shot.image.color(at: shot.point(for: offset(-0.0031, -0.0035))), near: .green, "first square")
        assertColor(shot.image.color(at: shot.point(for: offset(-0.0031, 0.0035))), near: .green, "second square")
        assertColor(shot.image.color(at: shot.point(for: offset(-0.0031, 0))), near: .white, "between the squares")
    }

    func testCustomRendererDrawsWithTheContextInRendererCoordinates() async throws {
        final class CrossRenderer: MKOverlayRenderer, @unchecked Sendable {
            override func draw(_ mapRect: MKMapRect, zoomScale: MKZoomScale, in context: CGContext) {
                let box = rect(for: overlay.boundingMapRect)
                context.setStrokeColor(UIColor(red: 0, green: 0.5, blue: 0, alpha: 1))
                context.setLineWidth(4 / zoomScale)
                context.move(to: CGPoint(x: box.minX, y: box.minY))
                context.addLine(to: CGPoint(x: box.maxX, y: box.maxY))
                context.strokePath()
            }
        }
        let circle = MKCircle(center: monaco, radius: 200)
        let options = options()
        options.addOverlay(MKTileOverlayRenderer(tileOverlay: try blankBase()))
        let renderer = CrossRenderer(overlay: circle)
        renderer.alpha = 0.5
        options.addOverlay(renderer)
        let shot = try await snapshot(options)
        let centre = shot.point(for: monaco)
        let colour = try XCTUnwrap(shot.image.color(at: centre))
        XCTAssertEqual(Double(colour.green), 0.75, accuracy: 0.05, "half-transparent dark green over white")
        XCTAssertEqual(Double(colour.red), 0.5, accuracy: 0.05)
        XCTAssertEqual(renderer.mapPoint(for: renderer.point(for: MKMapPoint(monaco))).x, MKMapPoint(monaco).x, accuracy: 1e-6)
    }
}
