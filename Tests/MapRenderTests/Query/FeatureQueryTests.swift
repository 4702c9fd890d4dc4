import Foundation
import MapFormats
import MapGeometry
@testable import MapRender
import MapStyle
import XCTest

/// Feature queries on small hand-made styles: what each layer type reports where it is drawn,
/// the layer list and filter, the drawing order, hidden and out-of-zoom layers, rectangles,
/// placed labels only, features across tiles, rotated and pitched cameras, and that a query
/// neither draws nor reads tiles again.
final class FeatureQueryTests: XCTestCase {
    private static let origin = CLLocationCoordinate2D(latitude: 0, longitude: 0)

    /// A style of one GeoJSON source "s" and the given layers.
    private func style(_ geojson: String, _ layers: String) throws -> Style {
        try Style(text: """
        {"version": 8, "glyphs": "local://{fontstack}/{range}", "sources": {"s": {"type": "geojson", "data": \(geojson)}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}, \(layers)]}
        """)
    }

    private func feature(_ id: Int, _ geometry: String, _ properties: String = "{}") -> String {
        #"{"type": "Feature", "id": \#(id), "properties": \#(properties), "geometry": \#(geometry)}"#
    }

    private func collection(_ features: [String]) -> String {
        #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#
    }

    private func square(_ lon: Double, _ lat: Double, _ half: Double) -> String {
        let (w, e, s, n) = (lon - half, lon + half, lat - half, lat + half)
        return #"{"type": "Polygon", "coordinates": [[[\#(w), \#(s)], [\#(e), \#(s)], [\#(e), \#(n)], [\#(w), \#(n)], [\#(w), \#(s)]]]}"#
    }

    /// Renders at (0, 0): at zoom 0 the world is 512 points, so 1° of longitude is 512/360 points.
    private func rendered(_ style: Style, zoom: Double = 0, bearing: Double = 0, pitch: Double = 0, width: Double = 256,
                          height: Double = 256) throws -> StyleRenderer {
        let renderer = try StyleRenderer(style: style, loader: StyleResourceLoader(tile: { _, _ in nil }))
        _ = try renderer.render(center: Self.origin, zoom: zoom, bearing: bearing, pitch: pitch, width: width, height: height)
        return renderer
    }

    private func ids(_ features: [RenderedFeature]) -> [Double] { features.compactMap { $0.id?.numberValue } }

    private func filter(_ json: String) throws -> MapStyle.Expression {
        try MapStyle.Expression.parse(JSONValue.parse(json), expected: .boolean)
    }

    // MARK: Layer types

    /// A fill is hit inside its polygon, not in its hole nor outside it; the tolerance reaches
    /// across the edge. The result carries the layer, source, id, properties and geometry.
    func testFillIsHitInsideItsPolygonNotInItsHole() throws {
        // A 40° square with a 10° hole around (0, 0): at zoom 0, 40° is 56.9 points, 10° 14.2.
        let polygon = #"{"type": "Polygon", "coordinates": [[[-20, -20], [20, -20], [20, 20], [-20, 20], [-20, -20]], [[-5, -5], [5, -5], [5, 5], [-5, 5], [-5, -5]]]}"#
        let renderer = try rendered(style(collection([feature(1, polygon, #"{"name": "ring", "rank": 3}"#)]),
                                          ##"{"id": "f", "type": "fill", "source": "s", "paint": {"fill-color": "#ff0000"}}"##))
        let hit = renderer.features(at: CGPoint(x: 128 + 20, y: 128))
        XCTAssertEqual(hit.count, 1)
        let found = try XCTUnwrap(hit.first)
        XCTAssertEqual(found.layerID, "f")
        XCTAssertEqual(found.sourceID, "s")
        XCTAssertNil(found.sourceLayer, "GeoJSON has no source layer")
        XCTAssertEqual(found.id, .number(1))
        XCTAssertEqual(found.geometryType, "Polygon")
        XCTAssertEqual(found.properties["name"], .string("ring"))
        XCTAssertEqual(found.properties["rank"], .number(3))
        guard case .polygons(let polygons) = found.geometry else { return XCTFail("\(found.geometry)") }
        XCTAssertEqual(polygons.count, 1)
        XCTAssertEqual(polygons[0].count, 2, "exterior and hole")
        XCTAssertEqual(polygons[0][0][1].longitude, 20, accuracy: 1e-9)
        XCTAssertEqual(polygons[0][0][1].latitude, -20, accuracy: 1e-9)
        XCTAssertTrue(renderer.features(at: CGPoint(x: 128, y: 128)).isEmpty, "in the hole")
        XCTAssertTrue(renderer.features(at: CGPoint(x: 128 + 31, y: 128)).isEmpty, "outside, 2.6 points beyond the edge")
        XCTAssertEqual(ids(renderer.features(at: CGPoint(x: 128 + 31, y: 128), tolerance: 3)), [1], "within the tolerance")
        XCTAssertEqual(ids(renderer.features(at: CGPoint(x: 128 + 2, y: 128), tolerance: 6)), [1], "the hole's edge within the tolerance")
        // Translated 10 points right, it is hit where it is drawn.
        let moved = try rendered(style(collection([feature(1, polygon)]),
                                       #"{"id": "f", "type": "fill", "source": "s", "paint": {"fill-translate": [10, 0]}}"#))
        XCTAssertEqual(ids(moved.features(at: CGPoint(x: 128 + 37, y: 128))), [1])
        XCTAssertTrue(moved.features(at: CGPoint(x: 128 - 26, y: 128)).isEmpty)
    }

    /// A line is hit within half its width (the whole of both lines and the gap with
    /// `line-gap-width`), moved by `line-offset`.
    func testLineIsHitWithinHalfItsDrawnWidth() throws {
        let line = #"{"type": "LineString", "coordinates": [[-40, 0], [40, 0]]}"#
        let data = collection([feature(2, line, #"{"kind": "road"}"#)])
        let plain = try rendered(style(data, #"{"id": "l", "type": "line", "source": "s", "paint": {"line-width": 10}}"#))
        XCTAssertEqual(ids(plain.features(at: CGPoint(x: 128, y: 132))), [2])
        XCTAssertEqual(ids(plain.features(at: CGPoint(x: 150, y: 124.5))), [2])
        XCTAssertTrue(plain.features(at: CGPoint(x: 128, y: 134)).isEmpty, "6 points off a 10-point line")
        XCTAssertEqual(ids(plain.features(at: CGPoint(x: 128, y: 134), tolerance: 2)), [2])
        XCTAssertTrue(plain.features(at: CGPoint(x: 128 + 70, y: 128)).isEmpty, "beyond the line's end")
        let found = try XCTUnwrap(plain.features(at: CGPoint(x: 128, y: 128)).first)
        XCTAssertEqual(found.geometryType, "LineString")
        guard case .lines(let lines) = found.geometry else { return XCTFail() }
        XCTAssertEqual(lines.count, 1)
        XCTAssertEqual(lines[0].count, 2)
        XCTAssertEqual(lines[0][0].longitude, -40, accuracy: 1e-9)
        XCTAssertEqual(lines[0][1].longitude, 40, accuracy: 1e-9)
        // Width 4 either side of a gap of 10: it reaches 9 points from the centre line.
        let gapped = try rendered(style(data, #"{"id": "l", "type": "line", "source": "s", "paint": {"line-width": 4, "line-gap-width": 10}}"#))
        XCTAssertEqual(ids(gapped.features(at: CGPoint(x: 128, y: 136.5))), [2])
        XCTAssertTrue(gapped.features(at: CGPoint(x: 128, y: 138)).isEmpty)
        // Offset 20 points to the right of its direction (eastward: below on screen).
        let offset = try rendered(style(data, #"{"id": "l", "type": "line", "source": "s", "paint": {"line-width": 4, "line-offset": 20}}"#))
        XCTAssertEqual(ids(offset.features(at: CGPoint(x: 128, y: 148))), [2])
        XCTAssertTrue(offset.features(at: CGPoint(x: 128, y: 128)).isEmpty)
    }

    /// A circle is hit within its radius plus its stroke.
    func testCircleIsHitWithinRadiusAndStroke() throws {
        let data = collection([feature(3, #"{"type": "Point", "coordinates": [0, 0]}"#)])
        let renderer = try rendered(style(data, #"{"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 6, "circle-stroke-width": 3}}"#))
        XCTAssertEqual(ids(renderer.features(at: CGPoint(x: 128 + 8.5, y: 128))), [3])
        XCTAssertTrue(renderer.features(at: CGPoint(x: 128 + 9.5, y: 128)).isEmpty)
        XCTAssertEqual(ids(renderer.features(at: CGPoint(x: 128 + 9.5, y: 128), tolerance: 1)), [3])
        let found = try XCTUnwrap(renderer.features(at: CGPoint(x: 128, y: 128)).first)
        XCTAssertEqual(found.geometry, .points([CLLocationCoordinate2D(latitude: 0, longitude: 0)]))
        XCTAssertEqual(found.geometryType, "Point")
    }

    /// Extrusions report the roofs they draw, the highest roof on top; heatmaps, rasters and the
    /// background report nothing.
    func testExtrusionsReportRoofsHighestFirstAndOtherTypesNothing() throws {
        let data = collection([feature(1, square(0, 0, 10), #"{"h": 30}"#), feature(2, square(0, 0, 5), #"{"h": 10}"#),
                               feature(3, square(3, 0, 5), #"{"h": 50}"#)])
        let renderer = try rendered(style(data, """
        {"id": "heat", "type": "heatmap", "source": "s"},
        {"id": "x", "type": "fill-extrusion", "source": "s", "paint": {"fill-extrusion-height": ["get", "h"]}}
        """))
        let hits = renderer.features(at: CGPoint(x: 128 + 2, y: 128))
        XCTAssertEqual(ids(hits), [3, 1, 2], "the 50 m roof, then 30 m, then 10 m")
        XCTAssertEqual(Set(hits.map(\.layerID)), ["x"], "no background, no heatmap")
        XCTAssertEqual(hits.map(\.zOrder), hits.map(\.zOrder).sorted(by: >))
    }

    // MARK: Layers, filters, order

    /// Results come topmost first: later layers before earlier ones, later features of a layer
    /// before earlier ones. The layer list and the filter restrict them.
    func testTopmostFirstAndRestrictedByLayersAndFilter() throws {
        let data = collection([feature(1, square(0, 0, 20), #"{"kind": "a"}"#), feature(2, square(0, 0, 10), #"{"kind": "b"}"#),
                               feature(3, #"{"type": "Point", "coordinates": [0, 0]}"#, #"{"kind": "b"}"#)])
        let renderer = try rendered(style(data, """
        {"id": "fills", "type": "fill", "source": "s"},
        {"id": "dots", "type": "circle", "source": "s"},
        {"id": "outlines", "type": "line", "source": "s", "filter": ["==", ["geometry-type"], "Polygon"]}
        """))
        let centre = CGPoint(x: 128, y: 128)
        let all = renderer.features(at: centre)
        XCTAssertEqual(all.map(\.layerID), ["dots", "fills", "fills"])
        XCTAssertEqual(ids(all), [3, 2, 1], "the later square is drawn over the earlier one")
        // A layer's place counts every feature it selects (the circle layer passes the squares on).
        XCTAssertEqual(all.map(\.zOrder), [.init(layer: 2, feature: 2), .init(layer: 1, feature: 1), .init(layer: 1, feature: 0)])
        XCTAssertEqual(ids(renderer.features(at: centre, layers: ["fills"])), [2, 1])
        XCTAssertEqual(ids(renderer.features(at: centre, layers: ["dots", "nonexistent"])), [3])
        XCTAssertEqual(ids(renderer.features(at: centre, filter: try filter(#"["==", ["get", "kind"], "b"]"#))), [3, 2])
        XCTAssertEqual(ids(renderer.features(at: centre, layers: ["fills"], filter: try filter(#"["==", ["id"], 1]"#))), [1])
        // On the outer square's edge the outline layer (with its own filter) is on top.
        let edge = renderer.features(at: CGPoint(x: 128 + 20 * 512 / 360, y: 128))
        XCTAssertEqual(edge.first?.layerID, "outlines")
        XCTAssertEqual(edge.first?.id, .number(1))
    }

    /// Hidden layers and layers outside their zoom range at the frame's zoom report nothing.
    func testHiddenAndOutOfZoomLayersReportNothing() throws {
        let data = collection([feature(1, square(0, 0, 20))])
        let renderer = try rendered(style(data, """
        {"id": "hidden", "type": "fill", "source": "s", "layout": {"visibility": "none"}},
        {"id": "deeper", "type": "fill", "source": "s", "minzoom": 3},
        {"id": "shallower", "type": "fill", "source": "s", "maxzoom": 2},
        {"id": "shown", "type": "fill", "source": "s", "minzoom": 1, "maxzoom": 3}
        """), zoom: 2)
        XCTAssertEqual(renderer.features(at: CGPoint(x: 128, y: 128)).map(\.layerID), ["shown"])
        XCTAssertTrue(renderer.features(at: CGPoint(x: 128, y: 128), layers: ["hidden", "deeper", "shallower"]).isEmpty)
    }

    /// A rectangle finds every feature it meets, whichever part of it is inside, and none that
    /// lie wholly outside.
    func testRectangleFindsEveryFeatureItMeets() throws {
        // At zoom 0, 10° is 14.2 points: the rectangle x 100…150, y 100…150 is about ±19° of (0, 0)…
        let data = collection([
            feature(1, square(-10, 0, 3)), feature(2, square(40, 0, 3)),  // inside; outside
            feature(3, square(0, 0, 60)),  // the rectangle is wholly inside it
            feature(4, #"{"type": "LineString", "coordinates": [[-80, -10], [80, -10]]}"#),  // crosses it
            feature(5, #"{"type": "LineString", "coordinates": [[-80, 40], [80, 40]]}"#),  // passes above
            feature(6, #"{"type": "Point", "coordinates": [15, 15]}"#), feature(7, #"{"type": "Point", "coordinates": [-50, -50]}"#),
        ])
        let renderer = try rendered(style(data, """
        {"id": "f", "type": "fill", "source": "s", "filter": ["==", ["geometry-type"], "Polygon"]},
        {"id": "l", "type": "line", "source": "s", "filter": ["==", ["geometry-type"], "LineString"]},
        {"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 2}}
        """))
        let found = renderer.features(in: CGRect(x: 100, y: 100, width: 50, height: 50))
        XCTAssertEqual(Set(ids(found)), [1, 3, 4, 6])
        XCTAssertEqual(found.map(\.layerID), ["c", "l", "f", "f"])
        XCTAssertEqual(ids(renderer.features(in: CGRect(x: 100, y: 100, width: 50, height: 50), layers: ["f"])), [3, 1])
        // A rectangle beyond the image is cut to it; wholly beyond it finds nothing.
        XCTAssertTrue(renderer.features(in: CGRect(x: 300, y: 300, width: 50, height: 50)).isEmpty)
        XCTAssertEqual(Set(ids(renderer.features(in: CGRect(x: -1000, y: -1000, width: 3000, height: 3000)))), [1, 2, 3, 4, 5, 6, 7])
    }

    /// Only labels the frame placed are found, where they were placed: a label that lost its
    /// place to another is not.
    func testSymbolQueryFindsOnlyPlacedLabels() throws {
        let data = collection([feature(1, #"{"type": "Point", "coordinates": [0, 0]}"#, #"{"name": "First"}"#),
                               feature(2, #"{"type": "Point", "coordinates": [0.5, 0]}"#, #"{"name": "Second"}"#),
                               feature(3, #"{"type": "Point", "coordinates": [15, 0]}"#, #"{"name": "Far"}"#)])
        let layer = #"{"id": "t", "type": "symbol", "source": "s", "layout": {"text-field": ["get", "name"], "text-font": ["Open Sans Regular"], "text-size": 20}}"#
        let renderer = try rendered(style(data, layer), zoom: 2)
        let placed = try XCTUnwrap(renderer.placedSymbols["t"])
        XCTAssertEqual(placed.count, 2, "Second collides with First")
        let centre = renderer.features(at: CGPoint(x: 128, y: 128))
        XCTAssertEqual(ids(centre), [1])
        XCTAssertEqual(centre.first?.properties["name"], .string("First"))
        XCTAssertEqual(centre.first?.geometry, .points([CLLocationCoordinate2D(latitude: 0, longitude: 0)]))
        XCTAssertEqual(Set(ids(renderer.features(in: CGRect(x: 0, y: 0, width: 256, height: 256)))), [1, 3])
        XCTAssertTrue(renderer.features(at: CGPoint(x: 128, y: 60)).isEmpty, "above the label")
        // Allowed to overlap, both are placed, the later drawn over (found before) the earlier.
        let overlapping = layer.replacingOccurrences(of: #""text-size": 20"#, with: #""text-size": 20, "text-allow-overlap": true"#)
        let both = try rendered(style(data, overlapping), zoom: 2)
        XCTAssertEqual(ids(both.features(at: CGPoint(x: 129, y: 128))), [2, 1])
    }

    // MARK: Tiles

    /// Vector tiles of zoom 1 (overzoomed at zoom 2) holding a square with id 7 across all four
    /// tiles and a line without an id across two: the square is found once, its geometry the
    /// four tiles' pieces cut to their squares; the line once per tile, as Mapbox reports it.
    func testFeatureAcrossTilesIsFoundOnce() throws {
        let loader = TileSet.loader()
        let style = try Style(text: """
        {"version": 8, "sources": {"v": {"type": "vector", "tiles": ["x/{z}/{x}/{y}"], "maxzoom": 1}},
         "layers": [{"id": "area", "type": "fill", "source": "v", "source-layer": "shapes", "filter": ["==", ["geometry-type"], "Polygon"]},
                    {"id": "path", "type": "line", "source": "v", "source-layer": "shapes", "filter": ["==", ["geometry-type"], "LineString"]}]}
        """)
        let renderer = try StyleRenderer(style: style, loader: loader.loader)
        _ = try renderer.render(center: Self.origin, zoom: 2, width: 512, height: 512)
        let everything = renderer.features(in: CGRect(x: 0, y: 0, width: 512, height: 512))
        let areas = everything.filter { $0.layerID == "area" }
        XCTAssertEqual(areas.count, 1)
        let area = try XCTUnwrap(areas.first)
        XCTAssertEqual(area.id, .number(7))
        XCTAssertEqual(area.sourceLayer, "shapes")
        XCTAssertEqual(area.properties["name"], .string("square"))
        guard case .polygons(let pieces) = area.geometry else { return XCTFail() }
        XCTAssertEqual(pieces.count, 4, "one piece per tile")
        let corners = pieces.flatMap { $0[0] }
        // The square spans world 0.4…0.6: ±36° of longitude; every piece is cut at the tile edges.
        XCTAssertEqual(corners.map(\.longitude).min()!, -36, accuracy: 0.05)
        XCTAssertEqual(corners.map(\.longitude).max()!, 36, accuracy: 0.05)
        for piece in pieces {
            let longitudes = piece[0].map(\.longitude)
            XCTAssertTrue(longitudes.allSatisfy { $0 <= 1e-9 } || longitudes.allSatisfy { $0 >= -1e-9 }, "cut at the antimeridian's opposite")
        }
        XCTAssertEqual(everything.filter { $0.layerID == "path" }.count, 2, "without an id, a piece per tile")
        // The point where the four tiles meet is in each tile's square: still one result.
        XCTAssertEqual(renderer.features(at: CGPoint(x: 256, y: 256), layers: ["area"]).count, 1)
        guard case .polygons(let one) = renderer.features(at: CGPoint(x: 200, y: 200), layers: ["area"]).first?.geometry else { return XCTFail() }
        XCTAssertEqual(one.count, 1, "a point inside one tile meets one piece")
    }

    /// A query reads no tile again and draws nothing: the loader is not asked, and the next
    /// render's warnings are not changed by it.
    func testQueryReusesTheFramesTiles() throws {
        let loader = TileSet.loader(failing: TileID(z: 1, x: 1, y: 1))
        let style = try Style(text: """
        {"version": 8, "sources": {"v": {"type": "vector", "tiles": ["x/{z}/{x}/{y}"], "maxzoom": 1}},
         "layers": [{"id": "area", "type": "fill", "source": "v", "source-layer": "shapes"}]}
        """)
        let renderer = try StyleRenderer(style: style, loader: loader.loader)
        _ = try renderer.render(center: Self.origin, zoom: 2, width: 512, height: 512)
        let loads = loader.count
        let warnings = renderer.warnings
        XCTAssertEqual(warnings.count, 1, "the broken tile")
        XCTAssertFalse(renderer.features(in: CGRect(x: 0, y: 0, width: 512, height: 512)).isEmpty)
        _ = renderer.features(at: CGPoint(x: 100, y: 100))
        XCTAssertEqual(loader.count, loads, "no tile read for a query")
        _ = try renderer.render(center: Self.origin, zoom: 2, width: 512, height: 512)
        XCTAssertEqual(renderer.warnings, warnings)
    }

    // MARK: Cameras

    /// With a rotated and pitched camera, each feature is found where `MapViewport` (the map
    /// view's conversion, which the warp follows) shows its coordinate; above the horizon
    /// nothing is.
    func testRotatedAndPitchedCamerasFindWhatIsDrawnThere() throws {
        var features: [String] = []
        var places: [(id: Int, coordinate: CLLocationCoordinate2D)] = []
        for (i, (lon, lat)) in [(-3.0, -2.0), (0, 0), (3, 2), (-2, 3), (2, -3), (0, 4)].enumerated() {
            features.append(feature(i + 1, square(lon, lat, 0.6)))
            places.append((i + 1, CLLocationCoordinate2D(latitude: lat, longitude: lon)))
        }
        features.append(feature(100, #"{"type": "Point", "coordinates": [1.5, -1.5]}"#, #"{"name": "X"}"#))
        let data = collection(features)
        let layers = """
        {"id": "f", "type": "fill", "source": "s", "filter": ["==", ["geometry-type"], "Polygon"]},
        {"id": "t", "type": "symbol", "source": "s", "layout": {"text-field": ["get", "name"], "text-font": ["Open Sans Regular"], "text-size": 16}}
        """
        let size = CGSize(width: 400, height: 300)
        for (bearing, pitch) in [(0.0, 0.0), (40.0, 0.0), (-70.0, 30.0), (40.0, 55.0)] {
            let renderer = try rendered(style(data, layers), zoom: 5, bearing: bearing, pitch: pitch, width: 400, height: 300)
            let viewport = MapViewport(size: size, centerCoordinate: Self.origin, zoomLevel: 5, heading: bearing, pitch: pitch)
            for place in places {
                let point = viewport.convert(place.coordinate)
                guard point.x > 0, point.x < size.width, point.y > 0, point.y < size.height else { continue }
                XCTAssertEqual(ids(renderer.features(at: point, layers: ["f"])), [Double(place.id)], "bearing \(bearing) pitch \(pitch)")
            }
            let label = viewport.convert(CLLocationCoordinate2D(latitude: -1.5, longitude: 1.5))
            XCTAssertEqual(ids(renderer.features(at: label, layers: ["t"])), [100], "bearing \(bearing) pitch \(pitch)")
            // A rectangle around the label's anchor finds it too.
            let box = CGRect(x: label.x - 2, y: label.y - 2, width: 4, height: 4)
            XCTAssertEqual(ids(renderer.features(in: box, layers: ["t"])), [100], "bearing \(bearing) pitch \(pitch)")
        }
        // Steeply pitched, the top of the image is sky.
        let steep = try rendered(style(collection([feature(1, square(0, 0, 80))]), #"{"id": "f", "type": "fill", "source": "s"}"#),
                                 zoom: 5, pitch: 80, width: 400, height: 300)
        XCTAssertTrue(steep.features(at: CGPoint(x: 200, y: 2)).isEmpty)
        XCTAssertEqual(ids(steep.features(at: CGPoint(x: 200, y: 290))), [1])
        XCTAssertEqual(ids(steep.features(in: CGRect(x: 0, y: 0, width: 400, height: 300))), [1])
    }

    /// Before any frame, and for points outside the image, there is nothing to find.
    func testNothingBeforeAFrameOrOutsideTheImage() throws {
        let style = try style(collection([feature(1, square(0, 0, 80))]), #"{"id": "f", "type": "fill", "source": "s"}"#)
        let renderer = try StyleRenderer(style: style, loader: StyleResourceLoader(tile: { _, _ in nil }))
        XCTAssertTrue(renderer.features(at: CGPoint(x: 40, y: 40)).isEmpty)
        _ = try renderer.render(center: Self.origin, zoom: 0, width: 256, height: 256)
        XCTAssertEqual(renderer.features(at: CGPoint(x: 40, y: 40)).count, 1)
        XCTAssertTrue(renderer.features(at: CGPoint(x: -1, y: 40)).isEmpty)
        XCTAssertTrue(renderer.features(at: CGPoint(x: Double.nan, y: 40)).isEmpty)
        XCTAssertThrowsError(try renderer.render(center: Self.origin, zoom: 99, width: 256, height: 256))
        XCTAssertTrue(renderer.features(at: CGPoint(x: 40, y: 40)).isEmpty, "a failed frame shows nothing")
    }
}

/// Vector tiles of zoom 1 for the tile tests: a square (id 7) over world 0.4…0.6 in every tile
/// and a line without id along world y = 0.45 from x 0.3 to 0.7, each tile holding the whole
/// shapes in its own coordinates (as a tile's buffer would, only larger).
private final class TileSet: @unchecked Sendable {
    private let lock = NSLock()
    private var loads = 0
    var count: Int { lock.withLock { loads } }
    private(set) var loader: StyleResourceLoader!

    static func loader(failing broken: TileID? = nil) -> TileSet {
        let set = TileSet()
        set.loader = StyleResourceLoader(tile: { [set] _, id in
            set.lock.withLock { set.loads += 1 }
            guard id.z == 1 else { return nil }
            if id == broken { return [0xff, 0xff, 0xff] }
            return tile(x: id.x, y: id.y)
        })
        return set
    }

    private static func tile(x: Int, y: Int) -> [UInt8] {
        func point(_ wx: Double, _ wy: Double) -> VectorTile.TilePoint {
            VectorTile.TilePoint(Int32(((wx * 2 - Double(x)) * 4096).rounded()), Int32(((wy * 2 - Double(y)) * 4096).rounded()))
        }
        let square = VectorTile.Geometry.polygons([[[point(0.4, 0.4), point(0.6, 0.4), point(0.6, 0.6), point(0.4, 0.6)]]])
        let line = VectorTile.Geometry.lines([[point(0.3, 0.45), point(0.7, 0.45)]])
        return VectorTile(layers: [VectorTile.Layer(name: "shapes", features: [
            VectorTile.Feature(id: 7, properties: [.init("name", .string("square"))], geometry: square),
            VectorTile.Feature(properties: [.init("name", .string("line"))], geometry: line),
        ])]).encoded()
    }
}
