import Foundation
import MapGeometry
@testable import MapRender
import MapStyle
import XCTest

/// `fill-extrusion` in 3D under a pitched camera, on synthetic buildings (GeoJSON squares of
/// known size and height at the equator): walls stand where `MapViewport`'s projection puts a
/// point at the roof's height, the nearer building hides the farther, the light's direction
/// decides which wall is brighter, and layers above the extrusions stay above them.
final class ExtrusionPerspectiveTests: XCTestCase {
    private static let center = CLLocationCoordinate2D(latitude: 0, longitude: 0)
    private static let zoom = 17.0
    private static let (width, height, pitch) = (400.0, 300.0, 60.0)

    /// Points per metre at the centre: the map's scale there, 512-point tiles.
    private static var pointsPerMetre: Double { MKMapPointsPerMeterAtLatitude(center.latitude) * 512 * pow(2, zoom) / MKMapSize.worldWidth }

    /// A ground offset from the centre (points of the flat map, x right, y down) as [lon, lat].
    private static func position(_ x: Double, _ y: Double) -> String {
        let scale = MKMapSize.worldWidth / (512 * pow(2, zoom))
        let c = MKMapPoint(center)
        let p = MKMapPoint(x: c.x + x * scale, y: c.y + y * scale).coordinate
        return "[\(p.longitude), \(p.latitude)]"
    }

    /// A building: the ground rectangle (points) extruded to `metres`.
    private static func building(x: ClosedRange<Double>, y: ClosedRange<Double>, metres: Double, color: String) -> String {
        let ring = [(x.lowerBound, y.lowerBound), (x.upperBound, y.lowerBound), (x.upperBound, y.upperBound), (x.lowerBound, y.upperBound),
                    (x.lowerBound, y.lowerBound)].map { position($0.0, $0.1) }.joined(separator: ", ")
        return #"{"type": "Feature", "properties": {"height": \#(metres), "color": "\#(color)"}, "geometry": {"type": "Polygon", "coordinates": [[\#(ring)]]}}"#
    }

    private static func point(_ x: Double, _ y: Double) -> String {
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": \#(position(x, y))}}"#
    }

    /// A white map with the buildings extruded (vertical gradient off, so each wall is one colour),
    /// under `light`, with `extra` layers added at the end.
    private static func renderer(buildings: [String], light: String = #"{"anchor": "viewport", "position": [1.15, 210, 30], "intensity": 0.5}"#,
                                 points: [String] = [], layers: [String] = []) throws -> StyleRenderer {
        let text = """
        {"version": 8, "light": \(light),
         "sources": {"b": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(buildings.joined(separator: ", "))]}},
                     "p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(points.joined(separator: ", "))]}}},
         "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
                    \((layers.prefix { !$0.contains("above") } + [
                        #"{"id": "buildings", "type": "fill-extrusion", "source": "b", "paint": {"fill-extrusion-color": ["get", "color"], "fill-extrusion-height": ["get", "height"], "fill-extrusion-vertical-gradient": false}}"#,
                    ] + layers.drop { !$0.contains("above") }).joined(separator: ", "))]}
        """
        return try StyleRenderer(style: Style(text: text), loader: StyleResourceLoader(tile: { _, _ in nil }))
    }

    private func render(_ renderer: StyleRenderer, bearing: Double = 0) throws -> RenderCanvas {
        try renderer.render(center: Self.center, zoom: Self.zoom, bearing: bearing, pitch: Self.pitch, width: Self.width, height: Self.height)
    }

    /// Where a ground offset at `metres` above the ground appears in the frame (points).
    private func frame(_ x: Double, _ y: Double, metres: Double = 0) throws -> (x: Double, y: Double) {
        let projection = MapViewport(size: CGSize(width: Self.width, height: Self.height), centerCoordinate: Self.center,
                                     zoomLevel: Self.zoom, heading: 0, pitch: Self.pitch).projection
        let v = try XCTUnwrap(projection.view(groundX: x, groundY: y, height: metres * Self.pointsPerMetre))
        return (Self.width / 2 + v.dx, Self.height / 2 + v.dy)
    }

    private func color(_ canvas: RenderCanvas, _ p: (x: Double, y: Double)) -> [Int] {
        let pixel = canvas.pixel(x: Int(p.x), y: Int(p.y))
        return [Int(pixel.red), Int(pixel.green), Int(pixel.blue)]
    }

    private func assertColor(_ actual: [Int], _ expected: RenderColor, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        let wanted = [expected.red, expected.green, expected.blue].map { Int(($0 * 255).rounded()) }
        XCTAssertTrue(zip(actual, wanted).allSatisfy { abs($0 - $1) <= 2 }, "\(message): \(actual), expected \(wanted)", file: file, line: line)
    }

    private static func parse(_ hex: String) -> RenderColor {
        let c = StyleColor.parse(hex)!
        return RenderColor(red: c.r, green: c.g, blue: c.b, alpha: c.a)
    }

    /// A 40-point square building 30 m high at the centre, seen from the south at 60°: its roof
    /// is where the projection puts the footprint raised 30 m, its front (south) wall fills the
    /// rows between the roof's near edge and the footprint's near edge, and the ground shows just
    /// beyond the roof and just before the wall's foot. Each face has its shade.
    func testWallsRiseByTheProjectedHeight() throws {
        let paint = "#8080c0"
        let renderer = try Self.renderer(buildings: [Self.building(x: -20...20, y: -20...20, metres: 30, color: paint)])
        let canvas = try render(renderer)
        let light = ExtrusionLight(renderer.style.light)
        let roof = light.roof(Self.parse(paint))
        let direction = light.direction(bearing: 0)
        let south = light.shade(Self.parse(paint), facing: min(max(-direction.y, 0), 1))
        let roofFar = try frame(0, -20, metres: 30), roofNear = try frame(0, 20, metres: 30), foot = try frame(0, 20)
        XCTAssertGreaterThan(foot.y - roofNear.y, 40, "the wall is tall on screen")
        assertColor(color(canvas, (200, (roofFar.y + roofNear.y) / 2)), roof, "mid-roof")
        assertColor(color(canvas, (200, roofNear.y + 2)), south, "top of the front wall")
        assertColor(color(canvas, (200, (roofNear.y + foot.y) / 2)), south, "middle of the front wall")
        assertColor(color(canvas, (200, foot.y - 2)), south, "foot of the front wall")
        assertColor(color(canvas, (200, foot.y + 3)), .white, "the ground before the wall")
        assertColor(color(canvas, (200, roofFar.y - 3)), .white, "the ground beyond the roof")
        // The roof stands well above the flat footprint: its near edge is above the footprint's far edge.
        XCTAssertLessThan(roofNear.y, try frame(0, -20).y)
        // Sideways, the wall ends where its corners project.
        let corner = try frame(20, 20)
        assertColor(color(canvas, (corner.x - 2, corner.y - 4)), south, "inside the wall's corner")
        assertColor(color(canvas, (corner.x + 3, corner.y - 4)), .white, "beside the wall")
    }

    /// A near building's roof covers the far building's front wall where they overlap on screen,
    /// whichever comes first in the data: faces are drawn farthest first.
    func testTheNearBuildingHidesTheFar() throws {
        let near = Self.building(x: -20...20, y: 10...40, metres: 30, color: "#3050d0")
        let far = Self.building(x: -20...20, y: -60 ... -30, metres: 30, color: "#d03030")
        let farWallTop = try frame(0, -30, metres: 30), farWallFoot = try frame(0, -30)
        let nearRoofFar = try frame(0, 10, metres: 30), nearRoofNear = try frame(0, 40, metres: 30)
        let top = max(farWallTop.y, nearRoofFar.y), bottom = min(farWallFoot.y, nearRoofNear.y)
        XCTAssertGreaterThan(bottom - top, 8, "the near roof overlaps the far wall on screen")
        for buildings in [[near, far], [far, near]] {
            let renderer = try Self.renderer(buildings: buildings)
            let canvas = try render(renderer)
            let light = ExtrusionLight(renderer.style.light)
            assertColor(color(canvas, (200, (top + bottom) / 2)), light.roof(Self.parse("#3050d0")), "the overlap shows the near roof")
            // Above the overlap, the far wall shows.
            let direction = light.direction(bearing: 0)
            assertColor(color(canvas, (200, (farWallTop.y + top) / 2)),
                        light.shade(Self.parse("#d03030"), facing: min(max(-direction.y, 0), 1)), "the far wall above the near roof")
        }
    }

    /// A building east of the centre shows its south and west walls. A light from azimuth 180
    /// (the south, MapLibre's `position`) lights the south wall more; one from azimuth 270 the
    /// west wall. Turning the map turns a map-anchored light with it.
    func testTheLightsDirectionDecidesTheBrighterWall() throws {
        let building = Self.building(x: 60...100, y: -20...20, metres: 30, color: "#a0a0a0")
        func luminance(_ c: [Int]) -> Double { Double(c[0]) * 0.2126 + Double(c[1]) * 0.7152 + Double(c[2]) * 0.0722 }
        let southWall = try frame(80, 20, metres: 15), westWall = try frame(60, 0, metres: 15)
        var brighter: [Double: String] = [:]
        for azimuth in [180.0, 270] {
            let light = #"{"anchor": "viewport", "position": [1.15, \#(azimuth), 60], "intensity": 0.6}"#
            let canvas = try render(try Self.renderer(buildings: [building], light: light))
            let south = luminance(color(canvas, southWall)), west = luminance(color(canvas, westWall))
            XCTAssertLessThan(max(south, west), 250, "azimuth \(azimuth): walls are drawn, not the white ground")
            XCTAssertNotEqual(south, west, accuracy: 8, "azimuth \(azimuth)")
            brighter[azimuth] = south > west ? "south" : "west"
        }
        XCTAssertEqual(brighter, [180: "south", 270: "west"])
        // The same light anchored to the map, on a map turned by 90°: what was its west is now
        // the screen's south, so the screen's south wall is lit as the map's west wall was.
        let light = ExtrusionLight(try Style(text: #"{"version": 8, "light": {"anchor": "map", "position": [1.15, 90, 60]}, "sources": {}, "layers": []}"#).light)
        let turned = light.direction(bearing: 90), upright = light.direction(bearing: 0)
        XCTAssertEqual(upright.x, -light.radial * sin(60 * .pi / 180), accuracy: 1e-9)
        XCTAssertEqual(turned.y, upright.x * -1, accuracy: 1e-9)
    }

    /// A layer above the extrusions (here circles, as labels are) stays above the walls; one
    /// below them is hidden behind a wall that stands in front of it.
    func testLayersAboveTheExtrusionsStayAbove() throws {
        let circles = [Self.point(-8, -30), Self.point(8, -30)]
        let building = Self.building(x: -20...20, y: -20...20, metres: 30, color: "#8080c0")
        let above = ##"{"id": "above", "type": "circle", "source": "p", "paint": {"circle-radius": 4, "circle-color": "#ff00ff"}}"##
        let under = ##"{"id": "under", "type": "circle", "source": "p", "paint": {"circle-radius": 4, "circle-color": "#00ff00"}}"##
        let spots = [try frame(-8, -30), try frame(8, -30)]
        // Both ground points lie behind the front wall on screen.
        for spot in spots {
            XCTAssertGreaterThan(spot.y, try frame(0, 20, metres: 30).y + 5)
            XCTAssertLessThan(spot.y, try frame(0, 20).y - 5)
        }
        let shown = try render(try Self.renderer(buildings: [building], points: circles, layers: [above]))
        for spot in spots { assertColor(color(shown, spot), Self.parse("#ff00ff"), "a circle above the extrusions") }
        let hidden = try render(try Self.renderer(buildings: [building], points: circles, layers: [under]))
        let light = ExtrusionLight(try Style(text: #"{"version": 8, "light": {"anchor": "viewport", "position": [1.15, 210, 30], "intensity": 0.5}, "sources": {}, "layers": []}"#).light)
        let wall = light.shade(Self.parse("#8080c0"), facing: min(max(-light.direction(bearing: 0).y, 0), 1))
        for spot in spots { assertColor(color(hidden, spot), wall, "a circle below the extrusions, behind the wall") }
    }

    /// Without extrusions a pitched frame is drawn as before (one run of layers, one warp), and a
    /// style's extrusions at pitch 0 are their roofs: the 3D path only runs for pitched frames.
    func testPitchZeroAndStylesWithoutExtrusionsAreUnchanged() throws {
        let renderer = try Self.renderer(buildings: [Self.building(x: -20...20, y: -20...20, metres: 30, color: "#8080c0")])
        let flat = try renderer.render(center: Self.center, zoom: Self.zoom, width: Self.width, height: Self.height)
        let direct = try renderer.renderFlatLayers(center: Self.center, zoom: Self.zoom, width: Self.width, height: Self.height, extrusions: nil)
        XCTAssertEqual(direct.count, 1)
        XCTAssertEqual(flat.rgbaPixels(), direct[0]?.rgbaPixels())
        // At pitch 0 the roof covers exactly the footprint.
        let light = ExtrusionLight(renderer.style.light)
        assertColor(color(flat, (200, 150 - 18)), light.roof(Self.parse("#8080c0")), "the roof at pitch 0")
        assertColor(color(flat, (200, 150 + 24)), .white, "beside the roof at pitch 0")
        XCTAssertEqual(DefaultStyle.standard.json, DefaultStyle.standard.json(extrudedBuildings: false))
        XCTAssertFalse(DefaultStyle.standard.json.contains("fill-extrusion"), "the flat standard style has no extrusions")
    }
}
