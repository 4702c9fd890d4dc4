import Foundation
@testable import OpenMapKit
import MapStyle
import MapRender
import class OpenMapKit.NSExpression
import class OpenMapKit.NSPredicate
import TestSupport
import XCTest

/// Mapbox's source classes (issue 22): the MapLibre source JSON each makes, their options, and
/// the document sources they wrap.
final class StyleSourceTests: XCTestCase {
    func testShapeSourceJSONAndOptions() throws {
        let point = MGLPointFeature()
        point.coordinate = MapboxFixtures.monaco
        point.attributes = ["name": "Monaco"]
        point.identifier = 7
        let source = MGLShapeSource(identifier: "points", features: [point],
                                    options: [.maximumZoomLevel: 14, .buffer: 64, .simplificationTolerance: 0.5, .lineDistanceMetrics: true])
        let object = source.detachedObject
        XCTAssertEqual(object["type"], .string("geojson"))
        XCTAssertEqual(object["maxzoom"], .number(14))
        XCTAssertEqual(object["buffer"], .number(64))
        XCTAssertEqual(object["tolerance"], .number(0.5))
        XCTAssertEqual(object["lineMetrics"], .bool(true))
        XCTAssertEqual(object["data"]?["type"], .string("FeatureCollection"))
        XCTAssertEqual(object["data"]?["features"]?.arrayValue?.first?["properties"]?["name"], .string("Monaco"))
        let collection = try XCTUnwrap(source.shape as? MGLShapeCollectionFeature)
        XCTAssertEqual(collection.features.count, 1)
        XCTAssertEqual(collection.features.first?.attribute(forKey: "name") as? String, "Monaco")
        XCTAssertNil(source.url)
        // A URL source.
        let url = URL(fileURLWithPath: "/tmp/quakes.geojson")
        let remote = MGLShapeSource(identifier: "quakes", url: url, options: nil)
        XCTAssertEqual(remote.url, url)
        XCTAssertNil(remote.shape)
        XCTAssertEqual(remote.detachedObject["data"], .string(url.absoluteString))
        // Shapes (geometries only) and an empty source.
        let shapes = MGLShapeSource(identifier: "shapes", shapes: [MGLPolyline(coordinates: [MapboxFixtures.monaco, MapboxFixtures.nice])])
        XCTAssertEqual(shapes.detachedObject["data"]?["type"], .string("GeometryCollection"))
        XCTAssertEqual(MGLShapeSource(identifier: "e", shape: nil).detachedObject["data"]?["features"], .array([]))
    }

    func testTileSourcesJSON() {
        let vector = MGLVectorTileSource(identifier: "v", tileURLTemplates: ["https://example.com/{z}/{x}/{y}.pbf"],
                                         options: [.minimumZoomLevel: 2, .maximumZoomLevel: 14, .tileCoordinateSystem: MGLTileCoordinateSystem.TMS,
                                                   .coordinateBounds: MGLCoordinateBounds(sw: MapboxFixtures.nice, ne: MapboxFixtures.monaco),
                                                   .attributionHTMLString: "© Example"])
        XCTAssertEqual(vector.detachedObject["type"], .string("vector"))
        XCTAssertEqual(vector.detachedObject["tiles"], .array([.string("https://example.com/{z}/{x}/{y}.pbf")]))
        XCTAssertEqual(vector.detachedObject["scheme"], .string("tms"))
        XCTAssertEqual(vector.detachedObject["minzoom"], .number(2))
        XCTAssertEqual(vector.detachedObject["bounds"], .array([7.2620, 43.7102, 7.4246, 43.7384].map(JSONValue.number)))
        XCTAssertEqual(vector.attributionHTMLString, "© Example")
        XCTAssertNil(vector.configurationURL)
        let configured = MGLVectorTileSource(identifier: "c", configurationURL: URL(string: "https://example.com/tiles.json")!)
        XCTAssertEqual(configured.configurationURL?.absoluteString, "https://example.com/tiles.json")
        let raster = MGLRasterTileSource(identifier: "r", tileURLTemplates: ["https://tile.example/{z}/{x}/{y}.png"], options: nil)
        XCTAssertEqual(raster.detachedObject["type"], .string("raster"))
        XCTAssertEqual(raster.detachedObject["tileSize"], .number(256))
        let sized = MGLRasterTileSource(identifier: "s", configurationURL: URL(string: "https://example.com/r.json")!, tileSize: 512)
        XCTAssertEqual(sized.detachedObject["tileSize"], .number(512))
        let dem = MGLRasterDEMSource(identifier: "d", tileURLTemplates: ["dem/{z}/{x}/{y}.png"], options: [.demEncoding: MGLDEMEncoding.terrarium])
        XCTAssertEqual(dem.detachedObject["type"], .string("raster-dem"))
        XCTAssertEqual(dem.detachedObject["encoding"], .string("terrarium"))
        let quad = MGLCoordinateQuadMake(MapboxFixtures.monaco, MapboxFixtures.nice, MapboxFixtures.nice, MapboxFixtures.monaco)
        let image = MGLImageSource(identifier: "i", coordinateQuad: quad, url: URL(string: "https://example.com/radar.png")!)
        XCTAssertEqual(image.detachedObject["type"], .string("image"))
        XCTAssertEqual(image.coordinates, quad)
        XCTAssertEqual(image.url?.absoluteString, "https://example.com/radar.png")
    }

    func testSourcesJoinAndLeaveTheDocument() throws {
        let (map, style) = try StyleRuntimeTests.monacoMap()
        let raster = MGLRasterTileSource(identifier: "tiles", tileURLTemplates: ["file:///nonexistent/{z}/{x}/{y}.png"], options: nil)
        style.addSource(raster)
        XCTAssertEqual(style.document.source("tiles")?.type, .raster)
        XCTAssertTrue(style.source(withIdentifier: "tiles") === raster)
        let layer = MGLRasterStyleLayer(identifier: "tiles", source: raster)
        layer.rasterOpacity = NSExpression(forConstantValue: 0.5)
        style.addLayer(layer)
        XCTAssertNoThrow(try map.render(), "missing tiles are drawn as nothing")
        style.removeLayer(layer)
        style.removeSource(raster)
        XCTAssertNil(style.document.source("tiles"))
        // A shape source's shape, changed while in the style, writes the document.
        let shape = MGLShapeSource(identifier: "shape", shape: nil)
        style.addSource(shape)
        shape.shape = MGLPolygon(coordinates: [MapboxFixtures.monaco, MapboxFixtures.nice, CLLocationCoordinate2D(latitude: 43.8, longitude: 7.3)])
        XCTAssertEqual(style.document.source("shape")?.data?["type"], .string("Polygon"))
        shape.url = URL(fileURLWithPath: "/tmp/x.geojson")
        XCTAssertEqual(style.document.source("shape")?.data, .string("file:///tmp/x.geojson"))
    }

    func testGeoJSONURLSourceIsReadWhenDrawn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mgl-geojson-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("point.geojson")
        try Data(#"{"type": "Point", "coordinates": [7.4246, 43.7384]}"#.utf8).write(to: file)
        let (map, style) = try StyleRuntimeTests.monacoMap()
        let source = MGLShapeSource(identifier: "file", url: file, options: nil)
        style.addSource(source)
        let circles = MGLCircleStyleLayer(identifier: "file", source: source)
        circles.circleRadius = NSExpression(forConstantValue: 25)
        circles.circleColor = NSExpression(forConstantValue: UIColor(red: 0, green: 1, blue: 1, alpha: 1))
        style.addLayer(circles)
        assertColor(try map.render().color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 0, green: 1, blue: 1, alpha: 1))
    }

    /// An image source from a PNG file is drawn by a raster layer, stretched over its corners:
    /// red on the left half, blue on the right, as the picture is.
    func testImageSourceIsDrawnBetweenItsCorners() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mgl-image-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let canvas = try RenderCanvas(width: 20, height: 10)
        canvas.fill(path: [.move(x: 0, y: 0), .line(x: 10, y: 0), .line(x: 10, y: 10), .line(x: 0, y: 10), .close], color: RenderColor(red: 1, green: 0, blue: 0))
        canvas.fill(path: [.move(x: 10, y: 0), .line(x: 20, y: 0), .line(x: 20, y: 10), .line(x: 10, y: 10), .close], color: RenderColor(red: 0, green: 0, blue: 1))
        let file = folder.appendingPathComponent("picture.png")
        try Data(canvas.pngData()).write(to: file)

        let (map, style) = try StyleRuntimeTests.monacoMap()
        // A quad around the view's centre, 200 × 100 points at the map's zoom.
        let topLeft = map.convert(CGPoint(x: 100, y: 150), toCoordinateFrom: nil), bottomRight = map.convert(CGPoint(x: 300, y: 250), toCoordinateFrom: nil)
        let quad = MGLCoordinateQuad(topLeft: topLeft, bottomLeft: CLLocationCoordinate2D(latitude: bottomRight.latitude, longitude: topLeft.longitude),
                                     bottomRight: bottomRight, topRight: CLLocationCoordinate2D(latitude: topLeft.latitude, longitude: bottomRight.longitude))
        let source = MGLImageSource(identifier: "picture", coordinateQuad: quad, url: file)
        style.addSource(source)
        style.addLayer(MGLRasterStyleLayer(identifier: "picture", source: source))
        let image = try map.render()
        assertColor(image.color(at: CGPoint(x: 150, y: 200)), near: UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        assertColor(image.color(at: CGPoint(x: 250, y: 200)), near: UIColor(red: 0, green: 0, blue: 1, alpha: 1))
        XCTAssertNotEqual(image.color(at: CGPoint(x: 50, y: 200)).map { $0.red > 0.9 && $0.green < 0.1 }, true, "outside the quad is the map")

        // The same picture given in code, in a second source over the first: drawn, and redrawn
        // when the image changes.
        let given = MGLImageSource(identifier: "given", coordinateQuad: quad, image: try XCTUnwrap(UIImage(data: Data(canvas.pngData()))))
        style.addSource(given)
        style.addLayer(MGLRasterStyleLayer(identifier: "given", source: given))
        assertColor(try map.render().color(at: CGPoint(x: 250, y: 200)), near: UIColor(red: 0, green: 0, blue: 1, alpha: 1))
        let green = try RenderCanvas(width: 4, height: 4)
        green.fill(RenderColor(red: 0, green: 1, blue: 0))
        given.image = try XCTUnwrap(UIImage(data: Data(green.pngData())))
        let redrawn = try map.render()
        assertColor(redrawn.color(at: CGPoint(x: 150, y: 200)), near: UIColor(red: 0, green: 1, blue: 0, alpha: 1))
        assertColor(redrawn.color(at: CGPoint(x: 250, y: 200)), near: UIColor(red: 0, green: 1, blue: 0, alpha: 1))
    }
}
