import Foundation
import MapGeometry
@testable import MapRender
import MapStyle
import XCTest

/// The world outside the data, hatched by the default styles (`NoDataArea`, the `no-data` layer
/// and sprite pattern), and GeoJSON drawn far beyond the canvas.
final class NoDataAreaTests: XCTestCase {
    /// A box in degrees as a map rectangle.
    private func rect(west: Double, south: Double, east: Double, north: Double) -> MKMapRect {
        let a = MKMapPoint(CLLocationCoordinate2D(latitude: north, longitude: west))
        let b = MKMapPoint(CLLocationCoordinate2D(latitude: south, longitude: east))
        return MKMapRect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
    }

    func testBoxesThatOverlapOrTouchAreTakenTogether() {
        let monaco = rect(west: 7.40, south: 43.72, east: 7.45, north: 43.76)
        let nice = rect(west: 7.20, south: 43.65, east: 7.42, north: 43.74)       // overlaps Monaco
        let touching = rect(west: 7.45, south: 43.70, east: 7.50, north: 43.73)   // shares Monaco's east edge
        let alabama = rect(west: -87.9, south: 32.2, east: -85.8, north: 33.2)
        let merged = NoDataArea.merged([monaco, .null, nice, alabama, touching, MKMapRect(x: 5, y: 5, width: 0, height: 3)])
        XCTAssertEqual(merged.count, 2, "\(merged)")
        XCTAssertEqual(merged.first, monaco.union(nice).union(touching))
        XCTAssertEqual(merged.last, alabama)
        // Clamped to the world: a box past the map's edge keeps only its part on the map.
        let wide = MKMapRect(x: -100, y: 10, width: 300, height: 50)
        XCTAssertEqual(NoDataArea.merged([wide]), [MKMapRect(x: 0, y: 10, width: 200, height: 50)])
    }

    func testOutsideIsTheWorldWithAHolePerBox() throws {
        let monaco = rect(west: 7.409205, south: 43.72335, east: 7.448637, north: 43.75169)
        let alabama = rect(west: -87.95, south: 32.18, east: -85.79, north: 33.24)
        let json = try JSONValue.parse(Array(NoDataArea.geoJSON(outside: [monaco, alabama]).utf8))
        let features = try XCTUnwrap(json["features"]?.arrayValue)
        XCTAssertEqual(features.count, 1)
        XCTAssertEqual(features[0]["geometry"]?["type"]?.stringValue, "Polygon")
        let rings = try XCTUnwrap(features[0]["geometry"]?["coordinates"]?.arrayValue).map { ring in
            (ring.arrayValue ?? []).map { position -> (x: Double, y: Double) in
                let pair = position.arrayValue ?? []
                return pair.count == 2 ? (pair[0].numberValue ?? .nan, pair[1].numberValue ?? .nan) : (.nan, .nan)
            }
        }
        XCTAssertEqual(rings.count, 3)
        func signedArea(_ ring: [(x: Double, y: Double)]) -> Double {
            zip(ring, ring.dropFirst()).reduce(0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) } / 2
        }
        // RFC 7946: the exterior counter-clockwise, holes clockwise; every ring closed.
        XCTAssertGreaterThan(signedArea(rings[0]), 0)
        XCTAssertLessThan(signedArea(rings[1]), 0)
        XCTAssertLessThan(signedArea(rings[2]), 0)
        for ring in rings { XCTAssertTrue(ring.first!.x == ring.last!.x && ring.first!.y == ring.last!.y) }
        XCTAssertEqual(rings[0].map(\.x).min(), -180)
        XCTAssertEqual(rings[0].map(\.y).max() ?? 0, MKMercatorMaximumLatitude, accuracy: 1e-6)
        // The holes are the boxes, to the 7 decimals written.
        XCTAssertEqual(rings[1].map(\.x).min() ?? 0, 7.409205, accuracy: 1e-7)
        XCTAssertEqual(rings[1].map(\.x).max() ?? 0, 7.448637, accuracy: 1e-7)
        XCTAssertEqual(rings[1].map(\.y).min() ?? 0, 43.72335, accuracy: 1e-7)
        XCTAssertEqual(rings[1].map(\.y).max() ?? 0, 43.75169, accuracy: 1e-7)
        XCTAssertEqual(rings[2].map(\.x).min() ?? 0, -87.95, accuracy: 1e-7)
    }

    func testNothingIsHatchedWithoutBoundsOrWhenTheDataCoversTheWorld() throws {
        for covered in [[], [MKMapRect.null], [MKMapRect.world], [MKMapRect(x: -10, y: -10, width: MKMapSize.worldWidth + 20, height: MKMapSize.worldWidth + 20)]] {
            let json = try JSONValue.parse(Array(NoDataArea.geoJSON(outside: covered).utf8))
            XCTAssertEqual(json["features"]?.arrayValue?.count, 0, "\(covered)")
        }
    }

    /// Every default style stays valid with its no-data area filled in; the maps without imagery
    /// have the layer right above the background, the imagery maps have neither source nor layer.
    func testDefaultStylesCarryTheNoDataLayer() throws {
        let bounds = [rect(west: 7.40, south: 43.72, east: 7.45, north: 43.76)]
        for style in DefaultStyle.allCases {
            for extruded in [false, true] {
                let json = style.json(extrudedBuildings: extruded, dataBounds: bounds)
                let errors = Style.validate(try JSONValue.parse(json)).filter { $0.severity == .error }.map(\.message)
                XCTAssertEqual(errors, [], style.rawValue)
                let parsed = try Style(text: json)
                let ids = parsed.layers.map(\.id)
                if style == .hybrid || style == .imagery {
                    XCTAssertFalse(ids.contains("no-data"), style.rawValue)
                    XCTAssertFalse(parsed.sources.contains { $0.id == DefaultStyle.noDataSourceID }, style.rawValue)
                } else {
                    XCTAssertEqual(Array(ids.prefix(2)), ["background", "no-data"], style.rawValue)
                    let data = try XCTUnwrap(parsed.sources.first { $0.id == DefaultStyle.noDataSourceID }?.source.data)
                    XCTAssertEqual(data["features"]?.arrayValue?.count, 1, style.rawValue)
                }
            }
        }
        // Without bounds the source is there and empty.
        let plain = try XCTUnwrap(DefaultStyle.standard.style.sources.first { $0.id == DefaultStyle.noDataSourceID }?.source.data)
        XCTAssertEqual(plain["features"]?.arrayValue?.count, 0)
    }

    /// The hatching repeats without seams: the stripes are 8 pixels apart along each edge, so the
    /// picture is the same shifted by 8 pixels across, the shift wrapping round the tile's edge.
    func testHatchingPatternsRepeatWithoutSeams() throws {
        for suffix in ["", "@2x"] {
            let json = try XCTUnwrap(DefaultStyle.resource("openmapkit://sprites/default\(suffix).json"))
            let png = try XCTUnwrap(DefaultStyle.resource("openmapkit://sprites/default\(suffix).png"))
            let sheet = try SpriteSheet(json: json, png: png)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-sprite-\(getpid())\(suffix).png")
            try Data(png).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let image = try RenderCanvas.readPNG(path: file.path)
            for name in ["no-data", "no-data-dark"] {
                let entry = try XCTUnwrap(sheet.entries[name], name)
                XCTAssertEqual(entry.pointWidth, 16, name)
                XCTAssertEqual(entry.pointHeight, 16, name)
                let side = entry.width, shift = side / 2
                func pixel(_ x: Int, _ y: Int) -> [Int] {
                    let i = ((entry.y + y) * image.width + entry.x + x) * 4
                    return image.rgba[i..<(i + 4)].map(Int.init)
                }
                var colors = Set<[Int]>()
                for y in 0..<side {
                    for x in 0..<side {
                        let a = pixel(x, y), b = pixel((x + shift) % side, y)
                        colors.insert(a)
                        XCTAssertTrue(zip(a, b).allSatisfy { abs($0 - $1) <= 2 }, "\(name)\(suffix) at \(x),\(y): \(a) against \(b)")
                        XCTAssertEqual(a[3], 255, "\(name)\(suffix) is not opaque at \(x),\(y)")
                    }
                }
                XCTAssertGreaterThan(colors.count, 1, "\(name)\(suffix) has no stripes")
            }
        }
    }

    /// A polygon reaching millions of points past the canvas (the world outside the data seen
    /// at zoom 18) is cut to the canvas's surroundings before Cairo sees it: the hatching ends at
    /// the data's edge, on the right side, on a turned map as on a straight one.
    func testHatchingEndsAtTheDataEdgeAtHighZoom() throws {
        let east = 7.4486
        let bounds = [rect(west: 7.40, south: 43.72, east: east, north: 43.76)]
        let style = DefaultStyle.standard.makeStyle(extrudedBuildings: false, dataBounds: bounds)
        let renderer = try StyleRenderer(style: style, loader: StyleResourceLoader(tile: { _, _ in nil }, resource: { DefaultStyle.resource($0) }))
        for bearing in [0.0, 30] {
            let canvas = try renderer.render(center: CLLocationCoordinate2D(latitude: 43.74, longitude: east), zoom: 18, bearing: bearing,
                                             width: 400, height: 300)
            let pixels = canvas.rgbaPixels()
            func isLand(_ x: Int, _ y: Int) -> Bool {
                let i = (y * 400 + x) * 4
                return abs(Int(pixels[i]) - 0xF6) <= 2 && abs(Int(pixels[i + 1]) - 0xF3) <= 2 && abs(Int(pixels[i + 2]) - 0xEC) <= 2
            }
            // The edge runs through the centre (turned by the bearing): land west of it, hatching east.
            let radians = bearing * .pi / 180
            var west = 0, westLand = 0, eastSide = 0, eastLand = 0
            for y in stride(from: 10, to: 290, by: 7) {
                for x in stride(from: 10, to: 390, by: 7) {
                    // Distance east of the edge in map points: the screen offset turned back by the bearing.
                    let dx = Double(x) - 200, dy = Double(y) - 150
                    let along = dx * cos(radians) - dy * sin(radians)
                    if along < -6 { west += 1; if isLand(x, y) { westLand += 1 } }
                    if along > 6 { eastSide += 1; if isLand(x, y) { eastLand += 1 } }
                }
            }
            XCTAssertEqual(westLand, west, "bearing \(bearing): inside the data the map should be the land colour")
            XCTAssertEqual(eastLand, 0, "bearing \(bearing): beyond the data the map should be hatched")
            XCTAssertGreaterThan(eastSide, 100)
        }
    }
}
