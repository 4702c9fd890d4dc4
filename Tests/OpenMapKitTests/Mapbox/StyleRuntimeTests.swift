import Foundation
@testable import OpenMapKit
import MapStyle
import MapRender
import class OpenMapKit.NSExpression
import class OpenMapKit.NSPredicate
import TestSupport
import XCTest

/// Runtime styling on MGLStyle (issue 22): sources and layers added, inserted, removed and
/// changed, drawn by the map view's next frame; identity, images, localization, transitions.
final class StyleRuntimeTests: XCTestCase {
    /// A map of Monaco at zoom 15 with its style loaded.
    static func monacoMap(zoom: Double = 15) throws -> (MGLMapView, MGLStyle) {
        let (map, _, _) = MapboxFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: zoom, animated: false)
        map.finishLoadingStyle()
        return (map, try XCTUnwrap(map.style))
    }

    /// Moves the map's clock past the style's transitions: paint changed after a frame blends in
    /// over 0.3 s, as in Mapbox, and these tests look at where it ends.
    static func settle(_ map: MGLMapView) {
        (map.clock as? MKManualMapViewClock)?.advance(by: 1)
    }

    /// The frame once the paint changed since the last frame has blended in: a frame that starts
    /// the transitions, then one drawn after they end.
    static func settledFrame(_ map: MGLMapView) throws -> UIImage {
        _ = try map.render()
        settle(map)
        return try map.render()
    }

    /// How many pixels of an 80 × 80 grid over the image are close to `color`.
    static func count(_ color: UIColor, in image: UIImage, tolerance: CGFloat = 0.08) -> Int {
        var hits = 0
        for gx in 0..<80 {
            for gy in 0..<80 {
                let point = CGPoint(x: (Double(gx) + 0.5) * Double(image.size.width) / 80, y: (Double(gy) + 0.5) * Double(image.size.height) / 80)
                if isColor(image.color(at: point), near: color, tolerance: tolerance) { hits += 1 }
            }
        }
        return hits
    }

    static func point(_ coordinate: CLLocationCoordinate2D, _ attributes: [String: Any] = [:]) -> MGLPointFeature {
        let feature = MGLPointFeature()
        feature.coordinate = coordinate
        feature.attributes = attributes
        return feature
    }

    func testGeoJSONSourceAndCircleLayerAreDrawnAndFollowShapeChanges() throws {
        let (map, style) = try Self.monacoMap()
        let source = MGLShapeSource(identifier: "pins", features: [Self.point(MapboxFixtures.monaco)], options: nil)
        style.addSource(source)
        let circles = MGLCircleStyleLayer(identifier: "pins", source: source)
        circles.circleColor = NSExpression(forConstantValue: UIColor(red: 1, green: 0, blue: 1, alpha: 1))
        circles.circleRadius = NSExpression(forConstantValue: 30)
        style.addLayer(circles)
        XCTAssertTrue(style.layers.last === circles)
        XCTAssertTrue(style.source(withIdentifier: "pins") === source)
        let json = try XCTUnwrap(style.document.json["layers"]?.arrayValue?.last)
        XCTAssertEqual(json["paint"]?["circle-radius"], .number(30))
        XCTAssertEqual(json["source"], .string("pins"))
        let image = try map.render()
        assertColor(image.color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 1, green: 0, blue: 1, alpha: 1))
        // Moving the point (a new shape) moves the circle on the next frame.
        let west = map.convert(CGPoint(x: 80, y: 200), toCoordinateFrom: nil)
        source.shape = Self.point(west)
        let second = try map.render()
        XCTAssertFalse(isColor(second.color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 1, green: 0, blue: 1, alpha: 1)))
        assertColor(second.color(at: CGPoint(x: 80, y: 200)), near: UIColor(red: 1, green: 0, blue: 1, alpha: 1))
        XCTAssertEqual((source.shape as? MGLPointFeature)?.coordinate.latitude ?? 0, west.latitude, accuracy: 1e-9)
        // Changing the layer redraws too.
        circles.circleColor = NSExpression(forConstantValue: UIColor(red: 0, green: 1, blue: 0, alpha: 1))
        assertColor(try Self.settledFrame(map).color(at: CGPoint(x: 80, y: 200)), near: UIColor(red: 0, green: 1, blue: 0, alpha: 1))
        circles.isVisible = false
        XCTAssertFalse(isColor(try map.render().color(at: CGPoint(x: 80, y: 200)), near: UIColor(red: 0, green: 1, blue: 0, alpha: 1)))
        XCTAssertEqual(style.document.layer("pins")?.isVisible, false)
    }

    func testBuiltInLayerPaintPropertyWithZoomInterpolationChangesPixels() throws {
        let (map, style) = try Self.monacoMap(zoom: 16)
        let background = try XCTUnwrap(style.layer(withIdentifier: "background") as? MGLBackgroundStyleLayer)
        let before = try map.render()
        let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1), blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
        XCTAssertEqual(Self.count(red, in: before), 0)
        background.backgroundColor = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'linear', nil, %@)",
                                                  [12: blue, 16: red])
        XCTAssertEqual(style.document.layer("background")?.paintValue("background-color"),
                       .array([.string("interpolate"), .array([.string("linear")]), .array([.string("zoom")]),
                               .number(12), .array([.string("rgb"), .number(0), .number(0), .number(255)]),
                               .number(16), .array([.string("rgb"), .number(255), .number(0), .number(0)])]))
        let after = try Self.settledFrame(map)
        XCTAssertGreaterThan(Self.count(red, in: after), 20, "the background shows the new colour at zoom 16")
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 12, animated: false)
        let zoomedOut = try map.render()
        XCTAssertGreaterThan(Self.count(blue, in: zoomedOut), 20, "and the zoom-12 stop at zoom 12")
        XCTAssertEqual(Self.count(red, in: zoomedOut), 0)
        // The water fill of the built-in style: a constant colour read as a UIColor, changed.
        let water = try XCTUnwrap(style.layer(withIdentifier: "water") as? MGLFillStyleLayer)
        XCTAssertNotNil(water.fillColor.constantValue as? UIColor)
        XCTAssertEqual(water.sourceIdentifier, "openmaptiles")
        XCTAssertEqual(water.sourceLayerIdentifier, "water")
    }

    func testInsertBelowAndAboveAndAtIndex() throws {
        let (map, style) = try Self.monacoMap()
        let source = MGLShapeSource(identifier: "spot", features: [Self.point(MapboxFixtures.monaco)], options: nil)
        style.addSource(source)
        let top = MGLCircleStyleLayer(identifier: "top", source: source)
        top.circleColor = NSExpression(forConstantValue: UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        top.circleRadius = NSExpression(forConstantValue: 30)
        style.addLayer(top)
        let under = MGLCircleStyleLayer(identifier: "under", source: source)
        under.circleColor = NSExpression(forConstantValue: UIColor(red: 0, green: 0, blue: 1, alpha: 1))
        under.circleRadius = NSExpression(forConstantValue: 40)
        style.insertLayer(under, below: top)
        var ids = style.layers.map(\.identifier)
        XCTAssertEqual(Array(ids.suffix(2)), ["under", "top"])
        var image = try map.render()
        assertColor(image.color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        assertColor(image.color(at: CGPoint(x: 200 + 35, y: 200)), near: UIColor(red: 0, green: 0, blue: 1, alpha: 1))
        // Moved above: remove and insert again (a removed layer keeps its properties).
        style.removeLayer(under)
        XCTAssertNil(style.layer(withIdentifier: "under"))
        XCTAssertEqual(under.circleRadius, NSExpression(forConstantValue: 40))
        style.insertLayer(under, above: top)
        ids = style.layers.map(\.identifier)
        XCTAssertEqual(Array(ids.suffix(2)), ["top", "under"])
        image = try map.render()
        assertColor(image.color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 0, green: 0, blue: 1, alpha: 1))
        // At an index: 0 is the bottom.
        let bottom = MGLBackgroundStyleLayer(identifier: "bottom")
        style.insertLayer(bottom, at: 0)
        XCTAssertEqual(style.layers.first?.identifier, "bottom")
        XCTAssertThrowsError(try style.insertLayer(MGLBackgroundStyleLayer(identifier: "far"), at: 10_000, error: ())) { error in
            XCTAssertEqual((error as? MGLStyleError)?.code, .indexOutOfRange)
        }
        // A sibling not in the style, a layer already in it, an identifier in use.
        XCTAssertThrowsError(try style.insertLayer(MGLBackgroundStyleLayer(identifier: "x"), below: MGLBackgroundStyleLayer(identifier: "y"), error: ())) {
            XCTAssertEqual(($0 as? MGLStyleError)?.code, .notInStyle)
        }
        XCTAssertThrowsError(try style.addLayer(top, error: ())) { XCTAssertEqual(($0 as? MGLStyleError)?.code, .redundantLayer) }
        XCTAssertThrowsError(try style.addLayer(MGLCircleStyleLayer(identifier: "top", source: source), error: ())) {
            XCTAssertEqual(($0 as? MGLStyleError)?.code, .redundantLayerIdentifier)
        }
        XCTAssertThrowsError(try style.addSource(MGLShapeSource(identifier: "spot", shape: nil), error: ())) {
            XCTAssertEqual(($0 as? MGLStyleError)?.code, .redundantSourceIdentifier)
        }
        XCTAssertThrowsError(try style.addSource(source, error: ())) { XCTAssertEqual(($0 as? MGLStyleError)?.code, .redundantSource) }
        // A layer whose source is not in the style.
        let orphan = MGLCircleStyleLayer(identifier: "orphan", source: MGLShapeSource(identifier: "nowhere", shape: nil))
        XCTAssertThrowsError(try style.addLayer(orphan, error: ())) { XCTAssertEqual(($0 as? MGLStyleError)?.code, .notInStyle) }
        // Setting `layers` replaces them.
        style.layers = [bottom, top]
        XCTAssertEqual(style.layers.map(\.identifier), ["bottom", "top"])
        XCTAssertNil(style.layer(withIdentifier: "water"))
    }

    func testRemovingASourceInUseFails() throws {
        let (_, style) = try Self.monacoMap()
        let source = MGLShapeSource(identifier: "lines", shape: MGLPolyline(coordinates: [MapboxFixtures.monaco, MapboxFixtures.nice]))
        style.addSource(source)
        let line = MGLLineStyleLayer(identifier: "line", source: source)
        style.addLayer(line)
        XCTAssertThrowsError(try style.removeSource(source, error: ())) { error in
            XCTAssertEqual((error as? MGLStyleError)?.code, .sourceIsInUse)
            XCTAssertTrue("\(error)".contains("\"line\""), "\(error)")
        }
        style.removeSource(source)
        XCTAssertTrue(style.source(withIdentifier: "lines") === source, "in use: not removed, as in Mapbox")
        // The built-in vector source is in use too.
        let tiles = try XCTUnwrap(style.source(withIdentifier: "openmaptiles") as? MGLVectorTileSource)
        XCTAssertThrowsError(try style.removeSource(tiles, error: ()))
        style.removeLayer(line)
        try style.removeSource(source, error: ())
        XCTAssertNil(style.source(withIdentifier: "lines"))
        XCTAssertFalse(style.sources.contains(source))
        XCTAssertNotNil(source.shape, "a removed source keeps its shape")
        XCTAssertThrowsError(try style.removeSource(source, error: ())) { XCTAssertEqual(($0 as? MGLStyleError)?.code, .notInStyle) }
        style.addSource(source)
        XCTAssertTrue(style.sources.contains(source))
    }

    func testPredicateFiltersDrawnFeatures() throws {
        let (map, style) = try Self.monacoMap()
        let west = map.convert(CGPoint(x: 100, y: 200), toCoordinateFrom: nil)
        let east = map.convert(CGPoint(x: 300, y: 200), toCoordinateFrom: nil)
        let source = MGLShapeSource(identifier: "shops", features: [Self.point(west, ["kind": "bakery", "rank": 1]),
                                                                     Self.point(east, ["kind": "florist", "rank": 2])], options: nil)
        style.addSource(source)
        let layer = MGLCircleStyleLayer(identifier: "shops", source: source)
        layer.circleColor = NSExpression(forConstantValue: UIColor(red: 1, green: 0, blue: 1, alpha: 1))
        layer.circleRadius = NSExpression(forConstantValue: 20)
        layer.predicate = NSPredicate(format: "kind == %@", "bakery")
        style.addLayer(layer)
        XCTAssertEqual(style.document.layer("shops")?.filter,
                       .array([.string("=="), .array([.string("get"), .string("kind")]), .string("bakery")]))
        XCTAssertEqual(layer.predicate, NSPredicate(format: "kind == %@", "bakery"))
        let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)
        var image = try map.render()
        assertColor(image.color(at: CGPoint(x: 100, y: 200)), near: magenta)
        XCTAssertFalse(isColor(image.color(at: CGPoint(x: 300, y: 200)), near: magenta))
        layer.predicate = NSPredicate(format: "rank > 1")
        image = try map.render()
        XCTAssertFalse(isColor(image.color(at: CGPoint(x: 100, y: 200)), near: magenta))
        assertColor(image.color(at: CGPoint(x: 300, y: 200)), near: magenta)
        layer.predicate = nil
        image = try map.render()
        assertColor(image.color(at: CGPoint(x: 100, y: 200)), near: magenta)
        assertColor(image.color(at: CGPoint(x: 300, y: 200)), near: magenta)
        // Data-driven colour from the attributes.
        layer.circleColor = NSExpression(format: "TERNARY(kind == 'bakery', %@, %@)", UIColor(red: 0, green: 1, blue: 0, alpha: 1), magenta)
        image = try map.render()
        assertColor(image.color(at: CGPoint(x: 100, y: 200)), near: UIColor(red: 0, green: 1, blue: 0, alpha: 1))
        assertColor(image.color(at: CGPoint(x: 300, y: 200)), near: magenta)
        // The source's features, filtered the same way.
        XCTAssertEqual(source.features(matching: NSPredicate(format: "kind == 'florist'")).count, 1)
        XCTAssertEqual(source.features(matching: nil).count, 2)
        // A legacy filter of a loaded style reads as a predicate.
        let park = try XCTUnwrap(style.layer(withIdentifier: "park") as? MGLFillStyleLayer)
        XCTAssertNotNil(park.predicate)
    }

    func testLayersAndSourcesAreTheSameObjectsEachTime() throws {
        let (_, style) = try Self.monacoMap()
        let water = try XCTUnwrap(style.layer(withIdentifier: "water"))
        XCTAssertTrue(style.layer(withIdentifier: "water") === water)
        XCTAssertEqual(style.layer(withIdentifier: "water"), water)
        XCTAssertTrue(style.layers.contains { $0 === water })
        XCTAssertTrue(water is MGLFillStyleLayer)
        XCTAssertTrue(style.layer(withIdentifier: "road") is MGLLineStyleLayer)
        XCTAssertTrue(style.layer(withIdentifier: "poi") is MGLSymbolStyleLayer)
        XCTAssertTrue(style.layer(withIdentifier: "background") is MGLBackgroundStyleLayer)
        XCTAssertNil(style.layer(withIdentifier: "no such layer"))
        let tiles = try XCTUnwrap(style.source(withIdentifier: "openmaptiles"))
        XCTAssertTrue(style.source(withIdentifier: "openmaptiles") === tiles)
        // The tiles, and the GeoJSON shape of the world outside the data that the style hatches.
        XCTAssertEqual(style.sources.map(\.identifier).sorted(), ["no-data", "openmaptiles"])
        XCTAssertTrue(style.sources.contains { $0 === tiles })
        XCTAssertTrue(style.source(withIdentifier: "no-data") is MGLShapeSource)
        XCTAssertTrue(tiles is MGLVectorTileSource)
        // Changes through the wrapper write the document.
        water.isVisible = false
        XCTAssertEqual(style.document.layer("water")?.isVisible, false)
        water.minimumZoomLevel = 3
        XCTAssertEqual(style.document.layer("water")?.minzoom, 3)
        XCTAssertEqual(water.maximumZoomLevel, .infinity)
    }

    func testLocalizesLabelsIsReversible() throws {
        let (_, style) = try Self.monacoMap()
        let before = try XCTUnwrap(style.document.json["layers"])
        XCTAssertFalse(style.localizesLabels)
        style.localizeLabels(into: Locale(identifier: "fr_FR"))
        XCTAssertTrue(style.localizesLabels)
        let label = try XCTUnwrap(style.document.layer("place-town")?.layoutValue("text-field"))
        XCTAssertTrue("\(label)".contains("name:fr"), "\(label)")
        let poi = try XCTUnwrap(style.layer(withIdentifier: "poi") as? MGLSymbolStyleLayer)
        XCTAssertTrue("\(poi.text.mgl_jsonExpressionObject)".contains("name:fr"))
        // A symbol layer added meanwhile is localized too.
        let source = MGLShapeSource(identifier: "names", shape: nil)
        style.addSource(source)
        let names = MGLSymbolStyleLayer(identifier: "names", source: source)
        names.text = NSExpression(forKeyPath: "name")
        style.addLayer(names)
        XCTAssertEqual(style.document.layer("names")?.layoutValue("text-field"),
                       .array([.string("coalesce"), .array([.string("get"), .string("name:fr")]), .array([.string("get"), .string("name")])]))
        style.removeLayer(names)
        style.localizesLabels = false
        XCTAssertEqual(style.document.json["layers"], before, "the text fields are restored exactly")
    }

    func testImagesAreDrawnAsIcons() throws {
        let (map, style) = try Self.monacoMap()
        let red = try RenderCanvas(width: 24, height: 24, scale: 1)
        red.fill(RenderColor(red: 1, green: 0, blue: 0))
        let square = UIImage(canvas: red)
        XCTAssertNil(style.image(forName: "square"))
        style.setImage(square, forName: "square")
        let stored = try XCTUnwrap(style.image(forName: "square"))
        XCTAssertEqual(stored.pixelSize.width, 24)
        let source = MGLShapeSource(identifier: "icon", features: [Self.point(MapboxFixtures.monaco)], options: nil)
        style.addSource(source)
        let icons = MGLSymbolStyleLayer(identifier: "icon", source: source)
        icons.iconImageName = NSExpression(forConstantValue: "square")
        icons.iconAllowsOverlap = NSExpression(forConstantValue: true)
        style.addLayer(icons)
        let image = try map.render()
        assertColor(image.color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        style.removeImage(forName: "square")
        XCTAssertNil(style.image(forName: "square"))
        XCTAssertFalse(isColor(try map.render().color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 1, green: 0, blue: 0, alpha: 1)))
    }

    func testPaintChangesBlendInOverTheStyleTransition() throws {
        let (map, _, clock) = MapboxFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 16, animated: false)
        map.finishLoadingStyle()
        let style = try XCTUnwrap(map.style)
        // Hide every layer but the background, so the frame is one colour.
        for layer in style.layers where layer.identifier != "background" { layer.isVisible = false }
        let background = try XCTUnwrap(style.layer(withIdentifier: "background") as? MGLBackgroundStyleLayer)
        background.backgroundColor = NSExpression(forConstantValue: UIColor(red: 0, green: 0, blue: 1, alpha: 1))
        // Changes before the first frame have nothing to blend from.
        assertColor(try map.render().color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 0, green: 0, blue: 1, alpha: 1))
        XCTAssertFalse(map.isAnimating)

        style.transition = MGLTransitionMake(1, 0.5)
        background.backgroundColor = NSExpression(forConstantValue: UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        func red() throws -> CGFloat {
            var red: CGFloat = 0
            try XCTUnwrap(map.render().color(at: CGPoint(x: 200, y: 200))).getRed(&red, green: nil, blue: nil, alpha: nil)
            return red
        }
        XCTAssertEqual(try red(), 0, accuracy: 0.01, "the frame that starts the transition still shows blue")
        XCTAssertTrue(map.isAnimating, "a window keeps drawing frames")
        clock.advance(by: 0.4)
        XCTAssertEqual(try red(), 0, accuracy: 0.01, "within the delay")
        clock.advance(by: 0.6)
        let halfWay = try red()
        XCTAssertEqual(halfWay, UnitBezier(0, 0, 0.25, 1).solve(0.5, epsilon: 0.001), accuracy: 0.01, "eased half-way")
        clock.advance(by: 0.6)
        XCTAssertEqual(try red(), 1, accuracy: 0.01)
        XCTAssertFalse(map.isAnimating)

        // A layer's own transition wins over the style's; a zero one shows the change at once.
        background.backgroundColorTransition = MGLTransitionMake(0, 0)
        background.backgroundColor = NSExpression(forConstantValue: UIColor(red: 0, green: 1, blue: 0, alpha: 1))
        assertColor(try map.render().color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 0, green: 1, blue: 0, alpha: 1))
        XCTAssertFalse(map.isAnimating)
        // A new style shows as it is.
        map.styleURL = MGLStyle.darkStyleURL
        _ = try map.render()
        XCTAssertFalse(map.isAnimating)
    }

    func testTransitionLightAndPlacementTransitions() throws {
        let (_, style) = try Self.monacoMap()
        XCTAssertEqual(style.transition, MGLTransition(duration: 0.3, delay: 0))
        style.transition = MGLTransitionMake(1.5, 0.25)
        XCTAssertEqual(style.transition, MGLTransition(duration: 1.5, delay: 0.25))
        XCTAssertEqual(style.document.transition, StyleTransition(duration: 1500, delay: 250))
        XCTAssertTrue(style.performsPlacementTransitions)
        style.performsPlacementTransitions = false
        XCTAssertFalse(style.performsPlacementTransitions)
        var light = style.light
        XCTAssertEqual(light.intensity, NSExpression(forConstantValue: 0.5))
        light.intensity = NSExpression(forConstantValue: 0.8)
        light.color = NSExpression(forConstantValue: UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        style.light = light
        XCTAssertEqual(style.document.light?["intensity"], .number(0.8))
        XCTAssertEqual(style.light.color, NSExpression(forConstantValue: UIColor(red: 1, green: 0, blue: 0, alpha: 1)))
        // A layer's property transition.
        let water = try XCTUnwrap(style.layer(withIdentifier: "water") as? MGLFillStyleLayer)
        XCTAssertEqual(water.fillColorTransition, MGLTransition())
        water.fillColorTransition = MGLTransitionMake(2, 1)
        XCTAssertEqual(style.document.layer("water")?.paintValue("fill-color-transition"),
                       .object(JSONObject([("duration", .number(2000)), ("delay", .number(1000))])))
        XCTAssertEqual(water.fillColorTransition, MGLTransition(duration: 2, delay: 1))
    }
}
