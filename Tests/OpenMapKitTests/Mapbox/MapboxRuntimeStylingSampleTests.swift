// Code written the way the Mapbox Maps SDK's iOS runtime-styling examples are ("add a line style
// layer from GeoJSON", "create a heatmap layer", "data-driven circles", "change a layer's
// colour"), to show it compiles unchanged against `import OpenMapKit`. UIKit's view controller is
// replaced by a plain class (there is no UIKit on Linux); everything touching the map and its
// style is as in Mapbox's examples.

import Foundation
import OpenMapKit
import TestSupport
import XCTest

// MARK: - Add a line style layer from GeoJSON

final class LineStyleLayerController: MGLMapViewDelegate {
    var mapView: MGLMapView!
    var geoJSONURL: URL!

    func viewDidLoad() {
        mapView = MGLMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        mapView.setCenter(CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), zoomLevel: 14, animated: false)
        mapView.delegate = self
    }

    // Wait until the map is loaded before adding to the map.
    func mapView(_ mapView: MGLMapView, didFinishLoading style: MGLStyle) {
        loadGeoJson()
    }

    func loadGeoJson() {
        guard let jsonData = try? Data(contentsOf: geoJSONURL) else { return }
        drawPolyline(geoJson: jsonData)
    }

    func drawPolyline(geoJson: Data) {
        // Add our GeoJSON data to the map as an MGLShapeSource.
        // We can then reference this data from an MGLStyleLayer.
        // MGLMapView.style is optional, so you must guard against it not being set.
        guard let style = self.mapView.style else { return }

        guard let shapeFromGeoJSON = try? MGLShape(data: geoJson, encoding: String.Encoding.utf8.rawValue) else {
            fatalError("Could not generate MGLShape")
        }

        let source = MGLShapeSource(identifier: "polyline", shape: shapeFromGeoJSON, options: nil)
        style.addSource(source)

        // Create new layer for the line.
        let layer = MGLLineStyleLayer(identifier: "polyline", source: source)

        // Set the line join and cap to a rounded end.
        layer.lineJoin = NSExpression(forConstantValue: "round")
        layer.lineCap = NSExpression(forConstantValue: "round")

        // Set the line color to a constant blue color.
        layer.lineColor = NSExpression(forConstantValue: UIColor(red: 59/255, green: 178/255, blue: 208/255, alpha: 1))

        // Use `NSExpression` to smoothly adjust the line width from 2pt to 20pt between zoom levels 14 and 18. The `interpolationBase` parameter allows the values to interpolate along an exponential curve.
        layer.lineWidth = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'linear', nil, %@)",
                                       [14: 2, 18: 20])

        // We can also add a second layer that will draw a stroke around the original line.
        let casingLayer = MGLLineStyleLayer(identifier: "polyline-case", source: source)
        // Copy these attributes from the main line layer.
        casingLayer.lineJoin = layer.lineJoin
        casingLayer.lineCap = layer.lineCap
        // Line gap width represents the space before the outline begins, so should match the main line’s line width exactly.
        casingLayer.lineGapWidth = layer.lineWidth
        // Stroke color slightly darker than the line color.
        casingLayer.lineColor = NSExpression(forConstantValue: UIColor(red: 41/255, green: 145/255, blue: 171/255, alpha: 1))
        // Use `NSExpression` to gradually increase the stroke width between zoom levels 14 and 18.
        casingLayer.lineWidth = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'linear', nil, %@)", [14: 1, 18: 4])

        // Just for fun, let’s add another copy of the line with a dash pattern.
        let dashedLayer = MGLLineStyleLayer(identifier: "polyline-dash", source: source)
        dashedLayer.lineJoin = layer.lineJoin
        dashedLayer.lineCap = layer.lineCap
        dashedLayer.lineColor = NSExpression(forConstantValue: UIColor.white)
        dashedLayer.lineOpacity = NSExpression(forConstantValue: 0.5)
        dashedLayer.lineWidth = layer.lineWidth
        // Dash pattern in the format [dash, gap, dash, gap, ...]. You’ll want to adjust these values based on the line cap style.
        dashedLayer.lineDashPattern = NSExpression(forConstantValue: [0, 1.5])

        style.addLayer(layer)
        style.addLayer(dashedLayer)
        style.insertLayer(casingLayer, below: layer)
    }
}

// MARK: - Create a heatmap layer

final class HeatmapController: MGLMapViewDelegate {
    var mapView: MGLMapView!
    var earthquakesURL: URL!

    func viewDidLoad() {
        mapView = MGLMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 400), styleURL: MGLStyle.darkStyleURL)
        mapView.setCenter(CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), zoomLevel: 13, animated: false)
        mapView.delegate = self
    }

    func mapView(_ mapView: MGLMapView, didFinishLoading style: MGLStyle) {
        // Parse GeoJSON data. This example uses all M1.0+ earthquakes from 12/22/15 to 1/21/16 as logged by USGS' Earthquake hazards program.
        let source = MGLShapeSource(identifier: "earthquakes", url: earthquakesURL, options: nil)
        style.addSource(source)

        // Create a heatmap layer.
        let heatmapLayer = MGLHeatmapStyleLayer(identifier: "earthquakes", source: source)

        // Adjust the color of the heatmap based on the point density.
        let colorDictionary: [NSNumber: UIColor] = [
            0.0: .clear,
            0.01: .white,
            0.15: UIColor(red: 0.19, green: 0.30, blue: 0.80, alpha: 1.0),
            0.5: UIColor(red: 0.73, green: 0.23, blue: 0.25, alpha: 1.0),
            1: .yellow
        ]
        heatmapLayer.heatmapColor = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($heatmapDensity, 'linear', nil, %@)", colorDictionary)

        // Heatmap weight measures how much a single data point impacts the layer's appearance.
        heatmapLayer.heatmapWeight = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:(mag, 'linear', nil, %@)",
                                                  [0: 0,
                                                   6: 1])

        // Heatmap intensity multiplies the heatmap weight based on zoom level.
        heatmapLayer.heatmapIntensity = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'linear', nil, %@)",
                                                     [0: 1,
                                                      9: 3])
        heatmapLayer.heatmapRadius = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'linear', nil, %@)",
                                                  [0: 4,
                                                   9: 30])

        // The heatmap layer should be visible up to zoom level 9.
        heatmapLayer.heatmapOpacity = NSExpression(format: "mgl_step:from:stops:($zoomLevel, 0.75, %@)", [0: 0.75, 9: 0])
        style.addLayer(heatmapLayer)

        // Add a circle layer to represent the earthquakes at higher zoom levels.
        let circleLayer = MGLCircleStyleLayer(identifier: "circle-layer", source: source)

        let magnitudeDictionary: [NSNumber: UIColor] = [
            0: .white,
            0.5: .yellow,
            2.5: UIColor(red: 0.73, green: 0.23, blue: 0.25, alpha: 1.0),
            5: UIColor(red: 0.19, green: 0.30, blue: 0.80, alpha: 1.0)
        ]
        circleLayer.circleColor = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:(mag, 'linear', nil, %@)", magnitudeDictionary)

        // The heatmap layer will have an opacity of 0.75 up to zoom level 9, when the opacity becomes 0.
        circleLayer.circleOpacity = NSExpression(format: "mgl_step:from:stops:($zoomLevel, 0, %@)", [0: 0, 9: 0.75])
        circleLayer.circleRadius = NSExpression(forConstantValue: 20)
        style.insertLayer(circleLayer, below: heatmapLayer)
    }
}

// MARK: - Data-driven circles

final class DataDrivenCirclesController: MGLMapViewDelegate {
    var mapView: MGLMapView!
    var features: [MGLPointFeature] = []

    func mapView(_ mapView: MGLMapView, didFinishLoading style: MGLStyle) {
        let source = MGLShapeSource(identifier: "historical-places", features: features, options: nil)
        style.addSource(source)

        let layer = MGLCircleStyleLayer(identifier: "landmarks", source: source)
        // Color the circles by the `ethnicity` attribute, with a default of black.
        layer.circleColor = NSExpression(format: "MGL_MATCH(ethnicity, 'White', %@, 'Black', %@, 'Hispanic', %@, 'Asian', %@, %@)",
                                         UIColor(red: 251/255.0, green: 176/255.0, blue: 59/255.0, alpha: 1.0),
                                         UIColor(red: 34/255.0, green: 59/255.0, blue: 83/255.0, alpha: 1.0),
                                         UIColor(red: 229/255.0, green: 94/255.0, blue: 94/255.0, alpha: 1.0),
                                         UIColor(red: 59/255.0, green: 178/255.0, blue: 208/255.0, alpha: 1.0),
                                         UIColor.black)
        // Size the circles by zoom level, with a base of 1.75.
        layer.circleRadius = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'exponential', 1.75, %@)",
                                          [12: 2,
                                           22: 180])
        layer.circleOpacity = NSExpression(forConstantValue: 0.7)
        style.addLayer(layer)
    }
}

// MARK: - Change a layer's colour

final class LayerColorController: MGLMapViewDelegate {
    var mapView: MGLMapView!

    func mapView(_ mapView: MGLMapView, didFinishLoading style: MGLStyle) {
        // Change the water colour, and the buildings' colour by zoom level.
        if let water = style.layer(withIdentifier: "water") as? MGLFillStyleLayer {
            water.fillColor = NSExpression(forConstantValue: UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        }
        if let buildings = style.layer(withIdentifier: "building") as? MGLFillStyleLayer {
            buildings.fillColor = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'linear', nil, %@)",
                                               [14: UIColor.lightGray, 18: UIColor.darkGray])
            buildings.fillOpacity = NSExpression(forConstantValue: 0.8)
        }
        // Hide the labels of points of interest.
        style.layer(withIdentifier: "poi")?.isVisible = false
    }
}

final class MapboxRuntimeStylingSampleTests: XCTestCase {
    func testAddALineStyleLayerFromGeoJSON() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mgl-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("line.geojson")
        try Data(#"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[7.41, 43.735], [7.43, 43.74]]}}"#.utf8).write(to: url)
        let controller = LineStyleLayerController()
        controller.geoJSONURL = url
        controller.viewDidLoad()
        controller.mapView.dataSource = try MonacoBundle.dataSource()
        _ = try controller.mapView.render()
        let style = try XCTUnwrap(controller.mapView.style)
        XCTAssertEqual(Array(style.layers.map(\.identifier).suffix(3)), ["polyline-case", "polyline", "polyline-dash"])
        XCTAssertNotNil(style.source(withIdentifier: "polyline") as? MGLShapeSource)
    }

    func testCreateAHeatmapLayer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mgl-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("quakes.geojson")
        try Data(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"mag": 4}, "geometry": {"type": "Point", "coordinates": [7.4246, 43.7384]}}]}"#.utf8).write(to: url)
        let controller = HeatmapController()
        controller.earthquakesURL = url
        controller.viewDidLoad()
        controller.mapView.dataSource = try MonacoBundle.dataSource()
        _ = try controller.mapView.render()
        let style = try XCTUnwrap(controller.mapView.style)
        XCTAssertEqual(Array(style.layers.map(\.identifier).suffix(2)), ["circle-layer", "earthquakes"])
        XCTAssertNotNil((style.layer(withIdentifier: "earthquakes") as? MGLHeatmapStyleLayer)?.heatmapColor)
    }

    func testDataDrivenCirclesAndLayerColour() throws {
        let (map, _, _) = MapboxFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 15, animated: false)
        let circles = DataDrivenCirclesController()
        circles.mapView = map
        let place = MGLPointFeature()
        place.coordinate = MapboxFixtures.monaco
        place.attributes = ["ethnicity": "Hispanic"]
        circles.features = [place]
        let colours = LayerColorController()
        colours.mapView = map
        map.finishLoadingStyle()
        let style = try XCTUnwrap(map.style)
        circles.mapView(map, didFinishLoading: style)
        colours.mapView(map, didFinishLoading: style)
        let image = try map.render()
        XCTAssertTrue(isColor(image.color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 229/255.0, green: 94/255.0, blue: 94/255.0, alpha: 1.0), tolerance: 0.12))
        XCTAssertEqual(style.layer(withIdentifier: "poi")?.isVisible, false)
    }
}
