import Foundation
import MapFormats
import MapGeometry
@testable import MapRender
import MapStyle
import TestSupport
import XCTest

/// Clustered GeoJSON sources (`"cluster": true`), drawn and queried as MapLibre does: clusters at
/// low zooms, points above `clusterMaxZoom`, `clusterMinPoints`, `clusterProperties`, filters on
/// `point_count`, and one shared index per data.
///
/// The points: A, three points 0.3° apart on the equator (0°, 0.3°, 0.6°; scalerank 1, 2, 3); B,
/// two points 1° apart at 40°–41° E (scalerank 4, 5); C, one point at 100° W 40° N. At zoom 0 the
/// world is 512 points (1° = 1.42 points), so with the default radius of 50 points A and B are
/// one cluster each (56.9 points apart, more than the radius) and C stands alone. At zoom 8
/// (1° = 364 points) the closest points are 109 points apart: every point stands alone.
final class GeoJSONClusterTests: XCTestCase {
    static let points: [(lon: Double, lat: Double, rank: Int)] = [(0, 0, 1), (0.3, 0, 2), (0.6, 0, 3), (40, 0, 4), (41, 0, 5), (-100, 40, 6)]

    static var data: String {
        let features = points.enumerated().map { index, p in
            #"{"type": "Feature", "id": \#(index + 1), "properties": {"scalerank": \#(p.rank), "name": "p\#(index + 1)"}, "geometry": {"type": "Point", "coordinates": [\#(p.lon), \#(p.lat)]}}"#
        }
        return #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#
    }

    /// Red circles for clusters (`has point_count`), blue ones for points, on white.
    private func style(options: String = "", extraLayers: String = "") throws -> Style {
        try Style(text: """
        {"version": 8, "glyphs": "local://{fontstack}/{range}",
         "sources": {"s": {"type": "geojson", "cluster": true\(options.isEmpty ? "" : ", " + options), "data": \(Self.data)}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
          {"id": "clusters", "type": "circle", "source": "s", "filter": ["has", "point_count"],
           "paint": {"circle-color": "#ff0000", "circle-radius": 6}},
          {"id": "points", "type": "circle", "source": "s", "filter": ["!", ["has", "point_count"]],
           "paint": {"circle-color": "#0000ff", "circle-radius": 4}}\(extraLayers)]}
        """)
    }

    private func renderer(_ style: Style) throws -> StyleRenderer {
        try StyleRenderer(style: style, loader: StyleResourceLoader(tile: { _, _ in nil }))
    }

    /// Where a coordinate is drawn on a `size`-point square image centred on `center` at `zoom`.
    private func point(_ lon: Double, _ lat: Double, center: CLLocationCoordinate2D, zoom: Double, size: Double) -> CGPoint {
        let transform = ScreenTransform(center: center, zoom: zoom, bearing: 0, width: size, height: size)
        let world = ScreenTransform.world(CLLocationCoordinate2D(latitude: lat, longitude: lon))
        let screen = transform.screen(worldX: world.x, worldY: world.y)
        return CGPoint(x: screen.x, y: screen.y)
    }

    private func color(_ canvas: RenderCanvas, _ p: CGPoint) -> [Int] {
        let pixels = canvas.rgbaPixels()
        let i = (Int(p.y) * canvas.pixelWidth + Int(p.x)) * 4
        return [Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2])]
    }

    private func clusters(_ features: [RenderedFeature]) -> [RenderedFeature] {
        features.filter { $0.properties["cluster"] == .bool(true) }
    }

    // MARK: Drawing

    /// Zoom 0: A and B are drawn as clusters (red) at their count-weighted centres, C as a point
    /// (blue); the members themselves are not drawn.
    func testClustersAtLowZoomPointsStandAloneAtHighZoom() throws {
        let renderer = try renderer(style())
        let center = CLLocationCoordinate2D(latitude: 0, longitude: 0)
        let canvas = try renderer.render(center: center, zoom: 0, width: 512, height: 512)
        XCTAssertEqual(color(canvas, point(0.3, 0, center: center, zoom: 0, size: 512)), [255, 0, 0], "A's cluster at its centre")
        XCTAssertEqual(color(canvas, point(40.5, 0, center: center, zoom: 0, size: 512)), [255, 0, 0], "B's cluster")
        XCTAssertEqual(color(canvas, point(-100, 40, center: center, zoom: 0, size: 512)), [0, 0, 255], "C alone")

        let all = renderer.features(in: CGRect(x: 0, y: 0, width: 512, height: 512))
        XCTAssertEqual(all.count, 3)
        let found = clusters(all).sorted { $0.properties["point_count"]!.numberValue! > $1.properties["point_count"]!.numberValue! }
        XCTAssertEqual(found.map { $0.properties["point_count"] }, [.number(3), .number(2)])
        XCTAssertEqual(found.map { $0.properties["point_count_abbreviated"] }, [.string("3"), .string("2")])
        // The cluster sits at its members' mean on the Mercator plane (on the equator: the mean longitude).
        guard case .points(let at) = found[0].geometry else { return XCTFail("\(found[0].geometry)") }
        XCTAssertEqual(at[0].longitude, 0.3, accuracy: 1e-5)
        XCTAssertEqual(at[0].latitude, 0, accuracy: 1e-5)
        XCTAssertEqual(found[0].id, found[0].properties["cluster_id"], "a cluster's id is its cluster_id")
        XCTAssertNil(found[0].properties["scalerank"], "a cluster has no member's properties without clusterProperties")
        let single = try XCTUnwrap(all.first { $0.properties["cluster"] == nil })
        XCTAssertEqual(single.id, .number(6))
        XCTAssertEqual(single.properties["name"], .string("p6"), "a point keeps its properties")

        // Zoom 8 (below the default clusterMaxZoom of 17): every point is its own item.
        let near = CLLocationCoordinate2D(latitude: 0, longitude: 0.3)
        let zoomed = try renderer.render(center: near, zoom: 8, width: 512, height: 512)
        for lon in [0.0, 0.3, 0.6] {
            XCTAssertEqual(color(zoomed, point(lon, 0, center: near, zoom: 8, size: 512)), [0, 0, 255], "point at \(lon)°")
        }
        XCTAssertTrue(clusters(renderer.features(in: CGRect(x: 0, y: 0, width: 512, height: 512))).isEmpty)
        XCTAssertEqual(renderer.features(in: CGRect(x: 0, y: 0, width: 512, height: 512)).count, 3)
    }

    /// The clusters of a fractional zoom are those of its floor (MapLibre's tile zoom), and they
    /// agree with the index at every zoom: as many items drawn as the index has there.
    func testFractionalZoomUsesTheFlooredTileZoom() throws {
        let renderer = try renderer(style())
        let index = try XCTUnwrap(renderer.clusters(sourceID: "s")).index
        let center = CLLocationCoordinate2D(latitude: 20, longitude: -30)
        for zoom in [0.0, 0.99] {
            _ = try renderer.render(center: center, zoom: zoom, width: 1024, height: 1024)
            XCTAssertEqual(renderer.features(in: CGRect(x: 0, y: 0, width: 1024, height: 1024)).count, index.itemCount(atZoom: 0), "zoom \(zoom)")
        }
        // The radius is 50 points of a 512-point tile: supercluster's 800 of 8192.
        XCTAssertEqual(index.options.radius, 800)
        XCTAssertEqual(index.options.extent, 8192)
        XCTAssertEqual(index.options.maxZoom, 17, "one less than the source's maxzoom (18)")
    }

    /// Above `clusterMaxZoom` the points are shown as they are; at and below it they cluster.
    func testClusterMaxZoom() throws {
        // B's points are 1° apart: 11.4 points at zoom 3, well inside the radius.
        let renderer = try renderer(style(options: #""clusterMaxZoom": 2"#))
        let center = CLLocationCoordinate2D(latitude: 0, longitude: 40.5)
        _ = try renderer.render(center: center, zoom: 2.9, width: 256, height: 256)
        XCTAssertEqual(clusters(renderer.features(in: CGRect(x: 0, y: 0, width: 256, height: 256))).map { $0.properties["point_count"] }, [.number(2)])
        _ = try renderer.render(center: center, zoom: 3, width: 256, height: 256)
        let shown = renderer.features(in: CGRect(x: 0, y: 0, width: 256, height: 256))
        XCTAssertTrue(clusters(shown).isEmpty)
        XCTAssertEqual(Set(shown.compactMap { $0.id?.numberValue }), [4, 5])
    }

    /// `clusterMinPoints` 3: B's two points stay separate, A's three still cluster.
    func testClusterMinPoints() throws {
        let renderer = try renderer(style(options: #""clusterMinPoints": 3"#))
        _ = try renderer.render(center: CLLocationCoordinate2D(latitude: 0, longitude: 0), zoom: 0, width: 512, height: 512)
        let shown = renderer.features(in: CGRect(x: 0, y: 0, width: 512, height: 512))
        XCTAssertEqual(clusters(shown).map { $0.properties["point_count"] }, [.number(3)])
        XCTAssertEqual(Set(shown.filter { $0.properties["cluster"] == nil }.compactMap { $0.id?.numberValue }), [4, 5, 6])
    }

    /// The radius in points: 20 points keeps A (0.6° = 0.85 points wide) one cluster but no
    /// longer reaches from A to B; 60 points (more than the 56.9 between them) makes A and B one.
    func testClusterRadius() throws {
        let center = CLLocationCoordinate2D(latitude: 0, longitude: 0)
        let wide = try renderer(style(options: #""clusterRadius": 60"#))
        _ = try wide.render(center: center, zoom: 0, width: 512, height: 512)
        XCTAssertEqual(clusters(wide.features(in: CGRect(x: 0, y: 0, width: 512, height: 512))).map { $0.properties["point_count"] }, [.number(5)])
        let narrow = try renderer(style(options: #""clusterRadius": 20"#))
        _ = try narrow.render(center: center, zoom: 0, width: 512, height: 512)
        XCTAssertEqual(Set(clusters(narrow.features(in: CGRect(x: 0, y: 0, width: 512, height: 512))).compactMap { $0.properties["point_count"]?.numberValue }),
                       [2, 3])
    }

    /// `clusterProperties` in both forms (an operator name, and a reduce expression over
    /// `accumulated`), a boolean fold, and filters and text reading them.
    func testClusterPropertiesAndPointCountFilters() throws {
        let options = #""clusterProperties": {"sum": ["+", ["get", "scalerank"]], "max": ["max", ["get", "scalerank"]], "#
            + #""total": [["+", ["accumulated"], ["get", "total"]], ["*", 10, ["get", "scalerank"]]], "#
            + #""big": ["any", [">", ["get", "scalerank"], 4]]}"#
        let extra = #", {"id": "pairs", "type": "circle", "source": "s", "filter": ["==", ["get", "point_count"], 2], "paint": {"circle-radius": 3}}"#
            + #", {"id": "labels", "type": "symbol", "source": "s", "filter": ["has", "point_count"], "#
            + #""layout": {"text-field": "{point_count_abbreviated}/{sum}", "text-font": ["Noto Sans Regular"], "text-allow-overlap": true}}"#
        let renderer = try renderer(style(options: options, extraLayers: extra))
        _ = try renderer.render(center: CLLocationCoordinate2D(latitude: 0, longitude: 0), zoom: 0, width: 512, height: 512)
        let shown = clusters(renderer.features(in: CGRect(x: 0, y: 0, width: 512, height: 512), layers: ["clusters"]))
        let byCount = Dictionary(uniqueKeysWithValues: shown.map { ($0.properties["point_count"]!.numberValue!, $0.properties) })
        XCTAssertEqual(byCount[3]?["sum"], .number(6))
        XCTAssertEqual(byCount[3]?["max"], .number(3))
        XCTAssertEqual(byCount[3]?["total"], .number(60))
        XCTAssertEqual(byCount[3]?["big"], .bool(false))
        XCTAssertEqual(byCount[2]?["sum"], .number(9))
        XCTAssertEqual(byCount[2]?["max"], .number(5))
        XCTAssertEqual(byCount[2]?["total"], .number(90))
        XCTAssertEqual(byCount[2]?["big"], .bool(true))
        // `["==", ["get", "point_count"], 2]` draws B's cluster only.
        let pairs = renderer.features(in: CGRect(x: 0, y: 0, width: 512, height: 512), layers: ["pairs"])
        XCTAssertEqual(pairs.map { $0.properties["point_count"] }, [.number(2)])
        // A label for each cluster, placed for the cluster feature (which its text reads).
        let labels = renderer.placedSymbols["labels"] ?? []
        XCTAssertEqual(Set(labels.compactMap { $0.feature.properties["sum"]?.numberValue }), [6, 9])
    }

    /// A feature query at a cluster's centre finds the cluster (with its properties), not its points.
    func testFeatureQueryAtACluster() throws {
        let renderer = try renderer(style())
        let center = CLLocationCoordinate2D(latitude: 0, longitude: 0)
        _ = try renderer.render(center: center, zoom: 0, width: 512, height: 512)
        let hit = renderer.features(at: point(40.5, 0, center: center, zoom: 0, size: 512))
        XCTAssertEqual(hit.count, 1)
        let cluster = try XCTUnwrap(hit.first)
        XCTAssertEqual(cluster.layerID, "clusters")
        XCTAssertEqual(cluster.geometryType, "Point")
        XCTAssertEqual(cluster.properties["cluster"], .bool(true))
        XCTAssertEqual(cluster.properties["point_count"], .number(2))
        let id = try XCTUnwrap(cluster.properties["cluster_id"]?.numberValue)
        let clusters = try XCTUnwrap(renderer.clusters(sourceID: "s"))
        XCTAssertEqual(try clusters.leaves(of: Int(id), limit: 10, offset: 0).compactMap { $0.id.numberValue }.sorted(), [4, 5])
        XCTAssertEqual(try clusters.children(of: Int(id)).count, 2)
        // B's points are 1° apart: 45.5 points at zoom 5 (inside the radius), 91 at zoom 6.
        XCTAssertEqual(try clusters.expansionZoom(of: Int(id)), 6)
    }

    /// One index per data and options: renderers of restyled documents share it; other data or
    /// options make another.
    func testTheIndexIsSharedAcrossRenderersOfTheSameData() throws {
        let first = try renderer(style())
        let second = try renderer(style(extraLayers: #", {"id": "more", "type": "circle", "source": "s"}"#))
        XCTAssertTrue(try XCTUnwrap(first.clusters(sourceID: "s")) === XCTUnwrap(second.clusters(sourceID: "s")))
        let other = try renderer(style(options: #""clusterRadius": 20"#))
        XCTAssertFalse(try XCTUnwrap(first.clusters(sourceID: "s")) === XCTUnwrap(other.clusters(sourceID: "s")))
        XCTAssertNil(try renderer(Style(text: """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": \(Self.data)}}, "layers": []}
        """)).clusters(sourceID: "s"), "an unclustered source has none")
    }

    /// A reduce expression that does not compile refuses the style, naming the property.
    func testBadClusterPropertyIsRefused() throws {
        // The style checker refuses it first; the renderer also refuses a style given unchecked.
        var style = try style()
        style.sources[0].source.properties.set("clusterProperties", try JSONValue.parse(#"{"x": [["no-such-operator", ["accumulated"]], ["get", "scalerank"]]}"#))
        XCTAssertThrowsError(try renderer(style)) { error in
            XCTAssertTrue("\(error)".contains("clusterProperties.x"), "\(error)")
        }
    }

    // MARK: supercluster's expectations

    /// A clustered source of supercluster's `places.json` (../shared/conformance/supercluster)
    /// with `options`, its radius given in points of 512-point tiles.
    private func places(_ options: String) throws -> GeoJSONClusters {
        let url = TestData.shared("conformance/supercluster/places.json")
        let data = try JSONValue.parse([UInt8](Data(contentsOf: url)))
        let source = try XCTUnwrap(StyleSource(try XCTUnwrap(JSONValue.parse(#"{"type": "geojson", "cluster": true, \#(options)}"#).objectValue)))
        return try GeoJSONClusters(source: source, data: data)
    }

    /// supercluster's test expectations (reference-expectations.js) hold for a source whose
    /// options are the same once scaled: its default radius 40 of a 512 extent is clusterRadius
    /// 40, its default maxZoom 16 is clusterMaxZoom 16. Same cluster ids, children, leaves and
    /// expansion zooms.
    func testSuperclusterExpectationsThroughASource() throws {
        let clusters = try places(#""clusterRadius": 40, "clusterMaxZoom": 16"#)
        XCTAssertEqual(try clusters.children(of: 164).map(\.pointCount), [6, 7, 2, 1])
        XCTAssertEqual(try clusters.leaves(of: 164, limit: 10, offset: 5).map { $0.properties["name"] },
                       ["Niagara Falls", "Cape San Blas", "Cape Sable", "Cape Canaveral", "San  Salvador", "Cabo Gracias a Dios",
                        "I. de Cozumel", "Grand Cayman", "Miquelon", "Cape Bauld"].map { ExpressionValue.string($0) })
        XCTAssertEqual(try [164, 196, 581, 1157, 4134].map { try clusters.expansionZoom(of: $0) }, [1, 1, 2, 2, 3])
        // The z0 tile's clusters (places-z0-0-0.json), without its copies across the antimeridian.
        let expected = try JSONValue.parse([UInt8](Data(contentsOf: TestData.shared("conformance/supercluster/places-z0-0-0.json"))))
        let expectedIDs = Set((expected["features"]?.arrayValue ?? []).compactMap { $0["tags"]?["cluster_id"]?.numberValue })
        XCTAssertEqual(Set(clusters.features(atZoom: 0.5).compactMap { $0.clusterID.map(Double.init) }), expectedIDs)
        // `maxZoom: 4, radius: 60, extent: 256` is clusterMaxZoom 4 and clusterRadius 120.
        XCTAssertEqual(try places(#""clusterRadius": 120, "clusterMaxZoom": 4"#).expansionZoom(of: 2504), 5)
    }

    /// supercluster's map/reduce expectation (`sum` of `scalerank`, radius 100) through
    /// `clusterProperties`: the sums of the z0 tile's clusters.
    func testSuperclusterReduceExpectationThroughClusterProperties() throws {
        let clusters = try places(#""clusterRadius": 100, "clusterMaxZoom": 16, "clusterProperties": {"sum": ["+", ["get", "scalerank"]]}"#)
        let sums = clusters.features(atZoom: 0).compactMap { $0.clusterID == nil ? nil : $0.properties["sum"]?.numberValue }
        XCTAssertEqual(Set(sums), [298, 122, 12, 36, 98, 7, 24, 8, 125])
        XCTAssertEqual(sums.reduce(0, +), clusters.features(atZoom: 17).reduce(0) { $0 + ($1.properties["scalerank"]?.numberValue ?? 0) }
                       - clusters.features(atZoom: 0).reduce(0) { $0 + ($1.clusterID == nil ? ($1.properties["scalerank"]?.numberValue ?? 0) : 0) },
                       "every point's scalerank is summed once")
    }
}
