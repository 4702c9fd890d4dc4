import Foundation
import MapFormats
import MapRender
import MapStyle
@testable import OpenMapKit
import XCTest

final class MapSnapshotterTests: XCTestCase {
    let monaco = MonacoBundle.center

    func options(zoom: Double = 15, size: CGSize = CGSize(width: 256, height: 192)) -> MKMapSnapshotter.Options {
        let options = MKMapSnapshotter.Options()
        options.size = size
        options.camera = MapViewport(size: size, centerCoordinate: monaco, zoomLevel: zoom).camera
        return options
    }

    func testImageIsSizeTimesScaleAndPointForMatchesTheViewport() async throws {
        let options = MKMapSnapshotter.Options()
        options.size = CGSize(width: 200, height: 150)
        options.scale = 2
        let region = MKCoordinateRegion(center: monaco, latitudinalMeters: 1500, longitudinalMeters: 1500)
        options.region = region
        let shot = try await snapshot(options)
        XCTAssertEqual(shot.image.size, CGSize(width: 200, height: 150))
        XCTAssertEqual(shot.image.scale, 2)
        XCTAssertEqual(shot.image.pixelSize.width, 400)
        XCTAssertEqual(shot.image.pixelSize.height, 300)
        let png = try XCTUnwrap(shot.image.pngData())
        XCTAssertEqual(Array(png[16..<24]), [0, 0, 1, 144, 0, 0, 1, 44], "a 400 × 300 PNG")

        let centre = shot.point(for: monaco)
        XCTAssertEqual(Double(centre.x), 100, accuracy: 1e-6)
        XCTAssertEqual(Double(centre.y), 75, accuracy: 1e-6)
        let known = CLLocationCoordinate2D(latitude: 43.7402, longitude: 7.4301)
        let expected = MapViewport(size: CGSize(width: 200, height: 150), region: region).convert(known)
        let actual = shot.point(for: known)
        XCTAssertEqual(Double(actual.x), Double(expected.x), accuracy: 1e-6)
        XCTAssertEqual(Double(actual.y), Double(expected.y), accuracy: 1e-6)
        XCTAssertGreaterThan(Double(actual.x), 100, "east is right")
        XCTAssertLessThan(Double(actual.y), 75, "north is up")
        MonacoBundle.save(shot.image, "snapshot-region-2x")

        // A real map: many distinct colours, not a blank image.
        var colours = Set<UInt32>()
        for y in stride(from: 0, to: 300, by: 7) {
            for x in stride(from: 0, to: 400, by: 7) {
                let c = shot.image.pixelColor(x: x, y: y)!
                colours.insert(UInt32(c.red * 255) << 16 | UInt32(c.green * 255) << 8 | UInt32(c.blue * 255))
            }
        }
        XCTAssertGreaterThan(colours.count, 20)
    }

    func testTheFramingSetLastWins() throws {
        let size = CGSize(width: 300, height: 200)
        let options = MKMapSnapshotter.Options()
        options.size = size
        let region = MKCoordinateRegion(center: monaco, latitudinalMeters: 1000, longitudinalMeters: 1000)
        let rect = MKMapRect(x: MKMapPoint(monaco).x - 5000, y: MKMapPoint(monaco).y - 1000, width: 20000, height: 2000)
        options.region = region
        options.mapRect = rect
        XCTAssertEqual(options.viewport.zoomLevel, MapViewport(size: size, visibleMapRect: rect).zoomLevel, accuracy: 1e-9)
        options.region = region
        XCTAssertEqual(options.viewport.zoomLevel, MapViewport(size: size, region: region).zoomLevel, accuracy: 1e-9)
        XCTAssertNotEqual(options.viewport.zoomLevel, MapViewport(size: size, visibleMapRect: rect).zoomLevel, accuracy: 0.1)
        let camera = MKMapCamera(lookingAtCenter: monaco, fromDistance: 2000, pitch: 0, heading: 30)
        options.camera = camera
        XCTAssertEqual(options.viewport.heading, 30)
        XCTAssertEqual(options.viewport.centerCoordinate.latitude, monaco.latitude, accuracy: 1e-9)
        // The region read back while a camera frames is what the camera shows.
        XCTAssertTrue(MKMapRect(options.region).contains(MKMapPoint(monaco)))
    }

    func testCancelledStartFailsWithCancellationError() async throws {
        let snapshotter = try MKMapSnapshotter(options: options(), dataSource: MonacoBundle.dataSource())
        snapshotter.cancel()
        do {
            _ = try await snapshotter.start()
            XCTFail("a cancelled snapshot must fail")
        } catch is CancellationError {
        } catch {
            XCTFail("expected CancellationError, got \(error)")
        }
        XCTAssertFalse(snapshotter.isLoading)
    }

    func testCompletionHandlerRunsOnTheGivenQueueAndIsLoadingFollowsTheWork() throws {
        let snapshotter = try MKMapSnapshotter(options: options(zoom: 13), dataSource: MonacoBundle.dataSource())
        let queue = DispatchQueue(label: "snapshot-results")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "results")
        let done = expectation(description: "snapshot")
        nonisolated(unsafe) var onQueue = false, result: MKMapSnapshotter.Snapshot?
        snapshotter.start(with: queue) { snapshot, error in
            onQueue = DispatchQueue.getSpecific(key: key) == "results"
            result = snapshot
            XCTAssertNil(error)
            done.fulfill()
        }
        XCTAssertTrue(snapshotter.isLoading)
        wait(for: [done], timeout: 300)
        XCTAssertTrue(onQueue)
        XCTAssertNotNil(result)
        XCTAssertFalse(snapshotter.isLoading)
    }

    func testWithoutADataSourceTheErrorNamesTheEnvironmentVariable() async throws {
        let saved = ProcessInfo.processInfo.environment["OPENMAPKIT_BUNDLE"]
        unsetenv("OPENMAPKIT_BUNDLE")
        defer { if let saved { setenv("OPENMAPKIT_BUNDLE", saved, 1) } }
        MapDataSource.default = nil
        XCTAssertNil(MapDataSource.default)
        do {
            _ = try await MKMapSnapshotter(options: options()).start()
            XCTFail("no data source must fail")
        } catch let error as MKError {
            XCTAssertEqual(error.code, .serverFailure)
            XCTAssertTrue(error.localizedDescription.contains("OPENMAPKIT_BUNDLE"), error.localizedDescription)
        }
        // A variable naming a folder that is not a bundle says so.
        setenv("OPENMAPKIT_BUNDLE", "/nonexistent/bundle", 1)
        XCTAssertThrowsError(try MapDataSource.resolved()) { error in
            XCTAssertTrue("\(error.localizedDescription)".contains("/nonexistent/bundle"), error.localizedDescription)
        }
        unsetenv("OPENMAPKIT_BUNDLE")
        // Set in code, the default is used.
        MapDataSource.default = try MonacoBundle.dataSource()
        defer { MapDataSource.default = nil }
        let shot = try await MKMapSnapshotter(options: options(zoom: 12, size: CGSize(width: 64, height: 64))).start()
        XCTAssertEqual(shot.image.pixelSize.width, 64)
    }

    func testSeveralBundlesMergeTheirTilesLayerByLayer() throws {
        let one = try MonacoBundle.dataSource()
        let url = one.bundles[0].url
        let twice = try MapDataSource(path: url.path + ":" + url.path)
        XCTAssertEqual(twice.bundles.count, 2)
        let id = TileID(containing: MKMapPoint(monaco), zoom: 14)
        let single = try VectorTile(decoding: XCTUnwrap(one.vectorTile(id)))
        let merged = try VectorTile(decoding: XCTUnwrap(twice.vectorTile(id)))
        XCTAssertEqual(merged.layers.map(\.name), single.layers.map(\.name), "one layer per name")
        for (a, b) in zip(single.layers, merged.layers) { XCTAssertEqual(b.features.count, 2 * a.features.count, a.name) }
        XCTAssertNil(one.vectorTile(TileID(z: 14, x: 0, y: 0)!), "no tile far from the bundle")
        XCTAssertThrowsError(try MapDataSource(path: "/nonexistent/a.omk")) { error in
            XCTAssertTrue(error.localizedDescription.contains("/nonexistent/a.omk"), error.localizedDescription)
        }
    }

    func testDarkAppearanceDrawsTheDarkMap() async throws {
        let light = try await snapshot(options(zoom: 14))
        let darkOptions = options(zoom: 14)
        darkOptions.traitCollection = UITraitCollection(userInterfaceStyle: .dark)
        let dark = try await snapshot(darkOptions)
        MonacoBundle.save(dark.image, "snapshot-dark")
        func brightness(_ image: UIImage) -> Double {
            var total = 0.0
            for y in stride(from: 0, to: image.pixelSize.height, by: 4) {
                for x in stride(from: 0, to: image.pixelSize.width, by: 4) {
                    let c = image.pixelColor(x: x, y: y)!
                    total += Double(c.red + c.green + c.blue)
                }
            }
            return total
        }
        XCTAssertLessThan(brightness(dark.image), brightness(light.image) * 0.6)
        // The macOS appearance means the same.
        let appearance = options(zoom: 14)
        appearance.appearance = NSAppearance(named: .darkAqua)
        XCTAssertTrue(appearance.isDark)
        XCTAssertEqual(DefaultStyle.dark, appearance.preferredConfiguration.defaultStyle(dark: appearance.isDark))
    }

    func testMapTypeAndConfigurationChooseTheStyle() throws {
        let options = MKMapSnapshotter.Options()
        XCTAssertEqual(options.mapType, .standard)
        options.mapType = .mutedStandard
        XCTAssertEqual((options.preferredConfiguration as? MKStandardMapConfiguration)?.emphasisStyle, .muted)
        XCTAssertEqual(options.preferredConfiguration.defaultStyle(dark: false), .muted)
        options.preferredConfiguration = MKHybridMapConfiguration()
        XCTAssertEqual(options.mapType, .hybrid)
        options.mapType = .satellite
        XCTAssertTrue(options.preferredConfiguration is MKImageryMapConfiguration)
        XCTAssertEqual(options.preferredConfiguration.defaultStyle(dark: true), .imagery)
    }

    func testHybridWithoutImageryExplainsWhatIsMissing() async throws {
        let options = options()
        options.preferredConfiguration = MKHybridMapConfiguration()
        do {
            _ = try await snapshot(options)
            XCTFail("hybrid without imagery must fail")
        } catch let error as MKError {
            XCTAssertTrue(error.localizedDescription.contains("imagery"), error.localizedDescription)
        }
    }

    func testPointOfInterestFilterNarrowsThePOILayers() throws {
        let source = try MonacoBundle.dataSource()
        let options = MKMapSnapshotter.Options()
        let poiLayers = { (style: Style) in style.layers.filter { $0.sourceLayer == "poi" } }
        let all = try SnapshotEngine.makeStyle(options: options, dataSource: source)
        XCTAssertFalse(poiLayers(all).isEmpty, "the default style has POI layers")

        options.pointOfInterestFilter = .excludingAll
        XCTAssertFalse(options.showsPointsOfInterest)
        XCTAssertTrue(poiLayers(try SnapshotEngine.makeStyle(options: options, dataSource: source)).isEmpty)

        options.pointOfInterestFilter = MKPointOfInterestFilter(including: [.restaurant, .cafe])
        let filtered = try SnapshotEngine.makeStyle(options: options, dataSource: source)
        for layer in poiLayers(filtered) {
            let text = "\(layer.filter!)"
            XCTAssertTrue(text.contains("restaurant") && text.contains("cafe"), text)
            XCTAssertNotNil(layer.filterExpression)
        }
        // The configuration's filter applies when the options have none.
        options.pointOfInterestFilter = nil
        let configuration = MKStandardMapConfiguration()
        configuration.pointOfInterestFilter = .excludingAll
        options.preferredConfiguration = configuration
        XCTAssertTrue(poiLayers(try SnapshotEngine.makeStyle(options: options, dataSource: source)).isEmpty)

        // No buildings: the building layers go.
        options.showsBuildings = false
        XCTAssertTrue(try SnapshotEngine.makeStyle(options: options, dataSource: source).layers.allSatisfy { $0.sourceLayer != "building" })
    }

    func testPointOfInterestFilterKeepsTheLayersFilterSyntax() throws {
        var style = try Style(text: """
        {"version": 8, "sources": {"s": {"type": "vector", "tiles": ["bundle://{z}/{x}/{y}"]}}, "layers": [
          {"id": "poi-legacy", "type": "circle", "source": "s", "source-layer": "poi", "filter": ["==", "class", "cafe"]},
          {"id": "poi-expression", "type": "circle", "source": "s", "source-layer": "poi", "filter": ["==", ["get", "class"], "cafe"]},
          {"id": "poi-bare", "type": "circle", "source": "s", "source-layer": "poi"}]}
        """)
        MKPointOfInterestFilter(excluding: [.cafe]).apply(to: &style)
        func evaluate(_ layer: StyleLayer, _ properties: [String: String]) throws -> Bool {
            let expression = try XCTUnwrap(layer.filterExpression)
            let context = EvaluationContext(zoom: 14, properties: properties.mapValues { JSONValue.string($0) })
            return try expression.evaluate(context) == .boolean(true)
        }
        for layer in style.layers where layer.id != "poi-bare" {
            XCTAssertFalse(try evaluate(layer, ["class": "cafe", "subclass": "cafe"]), "\(layer.id): cafes are excluded")
            XCTAssertFalse(try evaluate(layer, ["class": "restaurant", "subclass": "restaurant"]), "\(layer.id): its own filter still applies")
        }
        let bare = style.layers[2]
        XCTAssertFalse(try evaluate(bare, ["class": "cafe", "subclass": "cafe"]))
        XCTAssertTrue(try evaluate(bare, ["class": "restaurant", "subclass": "restaurant"]))
        XCTAssertTrue(try evaluate(bare, ["class": "place_of_worship", "subclass": "place_of_worship"]), "unknown kinds stay")
    }

    func testPointOfInterestFilterRemovesIconsFromTheImage() async throws {
        let base = options(zoom: 16, size: CGSize(width: 256, height: 256))
        let all = try await snapshot(base)
        let none = options(zoom: 16, size: CGSize(width: 256, height: 256))
        none.pointOfInterestFilter = .excludingAll
        let withoutPOIs = try await snapshot(none)
        MonacoBundle.save(withoutPOIs.image, "snapshot-no-poi")
        MonacoBundle.save(all.image, "snapshot-poi")
        var differing = 0
        for y in 0..<256 {
            for x in 0..<256 where !isColor(all.image.pixelColor(x: x, y: y), near: withoutPOIs.image.pixelColor(x: x, y: y)!, tolerance: 0.02) {
                differing += 1
            }
        }
        XCTAssertGreaterThan(differing, 200, "POI icons and their labels are gone")
    }

    func testCategoriesCoverMapKitsListWithStableRawValues() {
        XCTAssertEqual(MKPointOfInterestCategory.allCategories.count, 73)
        XCTAssertEqual(Set(MKPointOfInterestCategory.allCategories).count, 73)
        XCTAssertEqual(MKPointOfInterestCategory.museum.rawValue, "MKPOICategoryMuseum")
        XCTAssertEqual(MKPointOfInterestCategory.atm.rawValue, "MKPOICategoryATM")
        XCTAssertEqual(MKPointOfInterestCategory(openMapTilesClass: "bank", subclass: "atm"), .atm)
        XCTAssertEqual(MKPointOfInterestCategory(openMapTilesClass: "lodging", subclass: "hotel"), .hotel)
        XCTAssertEqual(MKPointOfInterestCategory(openMapTilesClass: "cafe", subclass: nil), .cafe)
        XCTAssertNil(MKPointOfInterestCategory(openMapTilesClass: "place_of_worship", subclass: "place_of_worship"))
        let filter = MKPointOfInterestFilter(including: [.cafe])
        XCTAssertTrue(filter.includes(.cafe))
        XCTAssertTrue(filter.excludes(.bakery))
        XCTAssertTrue(MKPointOfInterestFilter.includingAll.includes(.zoo))
        XCTAssertTrue(MKPointOfInterestFilter.excludingAll.excludes(.zoo))
    }

    func testHybridDrawsRoadsOverTheImageryAndImageryDrawsItAlone() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imagery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let canvas = try RenderCanvas(width: 256, height: 256)
        canvas.fill(RenderColor(red: 0.1, green: 0.6, blue: 0.2))
        try Data(canvas.pngData()).write(to: folder.appendingPathComponent("ground.png"))
        // Every imagery tile is the same green picture.
        let imagery = MKTileOverlay(urlTemplate: folder.appendingPathComponent("ground.png").path)
        let source = try MonacoBundle.dataSource().withImagery(imagery)
        let green = UIColor(red: 0.1, green: 0.6, blue: 0.2, alpha: 1)
        func greenShare(_ image: UIImage) -> Double {
            var count = 0
            for y in 0..<image.pixelSize.height { for x in 0..<image.pixelSize.width where isColor(image.pixelColor(x: x, y: y), near: green, tolerance: 0.02) { count += 1 } }
            return Double(count) / Double(image.pixelSize.width * image.pixelSize.height)
        }
        let hybridOptions = options(zoom: 15)
        hybridOptions.mapType = .hybrid
        let hybrid = try await snapshot(hybridOptions, dataSource: source)
        MonacoBundle.save(hybrid.image, "snapshot-hybrid")
        let imageryOptions = options(zoom: 15)
        imageryOptions.preferredConfiguration = MKImageryMapConfiguration()
        let alone = try await snapshot(imageryOptions, dataSource: source)
        XCTAssertGreaterThan(greenShare(alone.image), 0.99, "imagery alone")
        let share = greenShare(hybrid.image)
        XCTAssertGreaterThan(share, 0.3, "the imagery shows between the roads")
        XCTAssertLessThan(share, 0.95, "roads and labels are drawn over it")
    }

    func testAStyleFileIsDrawnWithTheBundlesTiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("style-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let style = folder.appendingPathComponent("style.json")
        try Data("""
        {"version": 8, "sources": {"omt": {"type": "vector", "tiles": ["bundle://{z}/{x}/{y}"], "maxzoom": 14}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#123456"}},
                    {"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation",
                     "paint": {"line-color": "#ff8800", "line-width": 4}}]}
        """.utf8).write(to: style)
        let options = options(zoom: 15)
        options.styleURL = style
        let shot = try await snapshot(options)
        MonacoBundle.save(shot.image, "snapshot-style-file")
        var background = 0, roads = 0
        for y in 0..<shot.image.pixelSize.height {
            for x in 0..<shot.image.pixelSize.width {
                let c = shot.image.pixelColor(x: x, y: y)!
                if isColor(c, near: UIColor(red: 0x12 / 255.0, green: 0x34 / 255.0, blue: 0x56 / 255.0, alpha: 1), tolerance: 0.01) { background += 1 }
                if isColor(c, near: UIColor(red: 1, green: 0x88 / 255.0, blue: 0, alpha: 1), tolerance: 0.01) { roads += 1 }
            }
        }
        XCTAssertGreaterThan(background, 1000)
        XCTAssertGreaterThan(roads, 500, "roads from the bundle's tiles")
    }

    func testHostileOptionsFailWithAnError() async throws {
        let options = options()
        options.size = CGSize(width: 0, height: 100)
        do {
            _ = try await snapshot(options)
            XCTFail("an empty size must fail")
        } catch let error as MKError {
            XCTAssertTrue(error.localizedDescription.contains("size"), error.localizedDescription)
        }
        options.size = CGSize(width: 100, height: 100)
        options.styleURL = URL(fileURLWithPath: "/nonexistent/style.json")
        do {
            _ = try await snapshot(options)
            XCTFail("a missing style must fail")
        } catch let error as MKError {
            XCTAssertTrue(error.localizedDescription.contains("/nonexistent/style.json"), error.localizedDescription)
        }
    }
}
