import Foundation
import MapRender
@testable import OpenMapKit
import XCTest

extension CLLocationCoordinate2D {
    // Monaco stand-ins for the WWDC23 trip planner's Boston places.
    static let parking = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
    static let casino = CLLocationCoordinate2D(latitude: 43.7394, longitude: 7.4283)
    static let palace = CLLocationCoordinate2D(latitude: 43.7312, longitude: 7.4198)
    static let museum = CLLocationCoordinate2D(latitude: 43.7308, longitude: 7.4253)
}

struct Place: Identifiable {
    let id: Int
    let name: String
    let coordinate: CLLocationCoordinate2D
}

final class MapContentTests: XCTestCase {
    let size = CGSize(width: 320, height: 320)

    func testAutomaticPositionFramesEveryMarkerWithRoomForBalloons() async throws {
        let places: [CLLocationCoordinate2D] = [.parking, .casino, .palace, .museum]
        let map = Map {
            ForEach(places.indices, id: \.self) { index in
                Marker("Place \(index)", coordinate: places[index])
            }
        }
        let viewport = map.viewport(size: size)
        for place in places {
            let p = viewport.convert(place)
            XCTAssertGreaterThanOrEqual(Double(p.x), 28 - 1e-6)
            XCTAssertLessThanOrEqual(Double(p.x), 320 - 28 + 1e-6)
            XCTAssertGreaterThanOrEqual(Double(p.y), 48 - 1e-6, "room above for the balloon")
            XCTAssertLessThanOrEqual(Double(p.y), 320 - 24 + 1e-6)
        }
        let shot = try await map.snapshot(size: size, dataSource: MonacoBundle.dataSource())
        MonacoBundle.save(shot.image, "map-automatic-markers")
        for place in places {
            // The balloon's head, 25 points above the tip, is MapKit red.
            let tip = shot.point(for: place)
            assertColor(shot.image.color(at: CGPoint(x: tip.x, y: tip.y - 25 + 8)), near: .systemRed, tolerance: 0.1)
        }
    }

    func testSingleMarkerIsCentredAtTheDefaultZoom() {
        let map = Map { Marker("Parking", coordinate: .parking) }
        let viewport = map.viewport(size: CGSize(width: 400, height: 400))
        let p = viewport.convert(CLLocationCoordinate2D.parking)
        XCTAssertEqual(Double(p.x), 200, accuracy: 1e-6)
        XCTAssertEqual(viewport.zoomLevel, Map.singlePointZoom)
        XCTAssertEqual(Map().viewport(size: size).zoomLevel, MapViewport(size: size, visibleMapRect: .world).zoomLevel, "no content: the world")
    }

    func testCollidingTitlesAreNotBothDrawn() async throws {
        let near = CLLocationCoordinate2D(latitude: CLLocationCoordinate2D.parking.latitude, longitude: CLLocationCoordinate2D.parking.longitude + 0.00005)
        let crowded = Map(initialPosition: .region(MKCoordinateRegion(center: .parking, latitudinalMeters: 800, longitudinalMeters: 800))) {
            Marker("First place", coordinate: .parking)
            Marker("Second place", coordinate: near)
        }
        let crowdedShot = try await crowded.snapshot(size: size, dataSource: MonacoBundle.dataSource())
        XCTAssertEqual(AnnotationDrawing.lastDrawnTitles, ["First place"], "the second title would overlap the first")
        MonacoBundle.save(crowdedShot.image, "map-colliding-titles")

        let apart = Map(initialPosition: .region(MKCoordinateRegion(center: .parking, latitudinalMeters: 800, longitudinalMeters: 800))) {
            Marker("First place", coordinate: .parking)
            Marker("Second place", coordinate: .casino)
        }
        _ = try await apart.snapshot(size: size, dataSource: MonacoBundle.dataSource())
        XCTAssertEqual(Set(AnnotationDrawing.lastDrawnTitles), ["First place", "Second place"])

        let hidden = Map(initialPosition: .region(MKCoordinateRegion(center: .parking, latitudinalMeters: 800, longitudinalMeters: 800))) {
            Marker("First place", coordinate: .parking).annotationTitles(.hidden)
            Marker("Second place", coordinate: .casino)
        }
        _ = try await hidden.snapshot(size: size, dataSource: MonacoBundle.dataSource())
        XCTAssertEqual(AnnotationDrawing.lastDrawnTitles, ["Second place"])
    }

    /// Titles keep their width from one snapshot to the next (shaping after drawing once gave
    /// glyphs with almost no advance, all piled up on the first letter).
    func testTitlesKeepTheirWidthAcrossSnapshots() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let canvas = try RenderCanvas(width: 4, height: 4)
        canvas.fill(.white)
        try Data(canvas.pngData()).write(to: folder.appendingPathComponent("white.png"))
        var widths: [Int] = []
        for _ in 0..<2 {
            let options = MKMapSnapshotter.Options()
            options.size = CGSize(width: 200, height: 100)
            options.scale = 2
            options.camera = MapViewport(size: options.size, centerCoordinate: .parking, zoomLevel: 15).camera
            let white = MKTileOverlay(urlTemplate: folder.appendingPathComponent("white.png").path)
            white.canReplaceMapContent = true
            options.addOverlay(MKTileOverlayRenderer(tileOverlay: white))
            options.markers = [MarkerItem(coordinate: .parking, title: "First place", glyph: .text("AB"))]
            let shot = try await MKMapSnapshotter(options: options).start()
            // Columns with dark title pixels, in the band under the tip.
            var columns = 0
            for x in 0..<400 where (100..<130).contains(where: { y in (shot.image.pixelColor(x: x, y: y)?.red ?? 1) < 0.4 }) { columns += 1 }
            widths.append(columns)
            MonacoBundle.save(shot.image, "map-title")
        }
        XCTAssertGreaterThan(widths[0], 2 * 30, "\"First place\" in 11-point bold is about 40 points wide, not piled up")
        XCTAssertEqual(widths[0], widths[1])
    }

    func testMarkerVariantsTintAndAnnotationAnchor() async throws {
        let region = MKCoordinateRegion(center: .parking, latitudinalMeters: 1500, longitudinalMeters: 1500)
        let map = Map(initialPosition: .region(region)) {
            Marker("Mint", systemImage: "fork.knife", coordinate: .casino).tint(.mint)
            Marker("Monogram", monogram: Text("ABCD"), coordinate: .palace)
            Annotation("Parking", coordinate: .parking, anchor: .bottom) {
                ZStack {
                    RoundedRectangle(cornerRadius: 5).fill(.background)
                    RoundedRectangle(cornerRadius: 5).stroke(.secondary, lineWidth: 5)
                    Image(systemName: "car").padding(5)
                }
            }
            .annotationTitles(.hidden)
        }
        var scene = MapScene()
        collect(TupleMapContent([Marker("Monogram", monogram: Text("ABCD"), coordinate: .palace)]), into: &scene, MapContentEnvironment())
        guard case .text(let letters) = scene.markers[0].glyph else { return XCTFail("a monogram glyph") }
        XCTAssertEqual(letters, "ABC", "monograms keep three letters")
        // An image marker from a PNG file; an unreadable name falls back to the pin.
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("glyph-\(UUID().uuidString)@2x.png")
        defer { try? FileManager.default.removeItem(at: png) }
        let pixels = try RenderCanvas(width: 32, height: 32)
        pixels.fill(.white)
        try Data(pixels.pngData()).write(to: png)
        XCTAssertEqual(UIImage(contentsOfFile: png.path)?.size, CGSize(width: 16, height: 16), "a 2× file of 32 pixels is 16 points")
        XCTAssertNil(UIImage(data: Data("not a png".utf8)))
        var images = MapScene()
        collect(TupleMapContent([Marker("Image", image: png.path, coordinate: .palace), Marker("Missing", image: "/nonexistent.png", coordinate: .palace)]),
                into: &images, MapContentEnvironment())
        guard case .image = images.markers[0].glyph, case .pin = images.markers[1].glyph else { return XCTFail("image glyph, then the pin") }

        let shot = try await map.snapshot(size: size, dataSource: MonacoBundle.dataSource())
        MonacoBundle.save(shot.image, "map-marker-variants")
        let mint = shot.point(for: .casino)
        assertColor(shot.image.color(at: CGPoint(x: mint.x + 9, y: mint.y - 25)), near: UIColor.systemMint, tolerance: 0.1)
        // The annotation's content (30 × 30: a 20-point symbol padded by 5) sits with its bottom on the coordinate.
        let anchor = shot.point(for: .parking)
        // The 5-point outline, centred on the edge, is the secondary grey (60 % over white) just inside it.
        assertColor(shot.image.color(at: CGPoint(x: anchor.x, y: anchor.y - 1.2)), near: UIColor(red: 0.544, green: 0.544, blue: 0.556, alpha: 1),
                    tolerance: 0.1)
        assertColor(shot.image.color(at: CGPoint(x: anchor.x - 11, y: anchor.y - 15)), near: .white, tolerance: 0.05)
        XCTAssertFalse(isColor(shot.image.color(at: CGPoint(x: anchor.x - 11, y: anchor.y + 6)), near: .white, tolerance: 0.01),
                       "nothing drawn below the anchor")
    }

    func testShapesAndLevels() async throws {
        let map = Map(initialPosition: .region(MKCoordinateRegion(center: .parking, latitudinalMeters: 2500, longitudinalMeters: 2500))) {
            MapCircle(center: .parking, radius: 100)
                .foregroundStyle(Color.orange.opacity(0.75))
                .mapOverlayLevel(level: .aboveLabels)
            MapPolyline(coordinates: [.palace, .museum])
                .stroke(.blue, lineWidth: 13)
                .mapOverlayLevel(level: .aboveLabels)
            MapPolygon(coordinates: [.casino, CLLocationCoordinate2D(latitude: 43.7400, longitude: 7.4300),
                                     CLLocationCoordinate2D(latitude: 43.7405, longitude: 7.4270)])
                .foregroundStyle(.purple)
        }
        var scene = MapScene()
        collect(map.content, into: &scene, MapContentEnvironment())
        XCTAssertEqual(scene.overlays.map(\.level), [.aboveLabels, .aboveLabels, .aboveRoads], "SwiftUI's default level is above roads")
        let shot = try await map.snapshot(size: size, dataSource: MonacoBundle.dataSource())
        MonacoBundle.save(shot.image, "map-shapes")
        let orange = try XCTUnwrap(shot.image.color(at: shot.point(for: .parking)))
        XCTAssertGreaterThan(orange.red, 0.9)
        // Orange (1, 0.58, 0) at 75 % over the light map: green about 0.68, blue about 0.23.
        XCTAssertEqual(Double(orange.green), 0.68, accuracy: 0.1)
        XCTAssertEqual(Double(orange.blue), 0.23, accuracy: 0.1)
        let p = shot.point(for: .palace), m = shot.point(for: .museum)
        assertColor(shot.image.color(at: CGPoint(x: (p.x + m.x) / 2, y: (p.y + m.y) / 2)), near: UIColor.systemBlue)
    }

    func testMarkerForAMapItemTakesItsNameIconAndColour() async throws {
        let placemark = MKPlacemark(coordinate: .casino)
        let item = MKMapItem(placemark: placemark)
        item.name = "Café de Paris"
        item.pointOfInterestCategory = .cafe
        var scene = MapScene()
        collect(TupleMapContent([Marker(item: item), Marker(item: MKMapItem(placemark: MKPlacemark(coordinate: .palace)))]),
                into: &scene, MapContentEnvironment())
        XCTAssertEqual(scene.markers[0].title, "Café de Paris")
        guard case .icon(let icon) = scene.markers[0].glyph else { return XCTFail("a category icon") }
        XCTAssertEqual(icon, PointOfInterestIcon(openMapTilesClass: "cafe"))
        XCTAssertEqual(scene.markers[0].tint, icon.categoryColor)
        guard case .pin = scene.markers[1].glyph else { return XCTFail("no category: the pin") }
        XCTAssertEqual(scene.markers[1].tint, MarkerItem.defaultTint)

        let viewport = Map(initialPosition: .item(item)).viewport(size: CGSize(width: 300, height: 300))
        XCTAssertEqual(viewport.centerCoordinate.latitude, CLLocationCoordinate2D.casino.latitude, accuracy: 1e-9)
        XCTAssertEqual(MapCameraPosition.item(item).item, item)
    }

    func testPositionsFrameWhatTheySay() {
        let region = MKCoordinateRegion(center: .parking, span: MKCoordinateSpan(latitudeDelta: 0.01, longitudeDelta: 0.01))
        let viewport = Map(initialPosition: .region(region)).viewport(size: CGSize(width: 400, height: 400))
        XCTAssertEqual(viewport.centerCoordinate.latitude, CLLocationCoordinate2D.parking.latitude, accuracy: 1e-6)
        XCTAssertTrue(MKMapRect(viewport.region).contains(MKMapPoint(CLLocationCoordinate2D(latitude: 43.7384 + 0.0049, longitude: 7.4246 + 0.0049))))
        let camera = MapCamera(centerCoordinate: .casino, distance: 980, heading: 242, pitch: 60)
        let position = MapCameraPosition.camera(camera)
        XCTAssertEqual(position.camera, camera)
        let seen = Map(initialPosition: position).viewport(size: CGSize(width: 400, height: 400))
        XCTAssertEqual(seen.heading, 242)
        XCTAssertEqual(seen.pitch, 60, "a pitched camera is drawn pitched")
        XCTAssertEqual(seen.centerCoordinate.longitude, CLLocationCoordinate2D.casino.longitude, accuracy: 1e-9)
        // No user location: the fallback; with one, centred on it.
        let follow = MapCameraPosition.userLocation(fallback: .region(region))
        XCTAssertTrue(follow.followsUserLocation)
        XCTAssertEqual(Map(initialPosition: follow).viewport(size: size).zoomLevel, Map(initialPosition: .region(region)).viewport(size: size).zoomLevel)
        let located = Map(initialPosition: follow) { UserAnnotation() }.userLocation(.museum).viewport(size: size)
        XCTAssertEqual(located.centerCoordinate.latitude, CLLocationCoordinate2D.museum.latitude, accuracy: 1e-9)
    }

    /// The WWDC23 trip planner's map, as written for MapKit for SwiftUI, drawn headless.
    func testTripPlannerReadsLikeSwiftUIAndRenders() async throws {
        let places = [Place(id: 1, name: "Casino", coordinate: .casino), Place(id: 2, name: "Palace", coordinate: .palace)]
        let searchResults: [MKMapItem] = places.map { place in
            let item = MKMapItem(placemark: MKPlacemark(coordinate: place.coordinate))
            item.name = place.name
            item.pointOfInterestCategory = .landmark
            return item
        }
        let route = MKPolyline(coordinates: [.parking, .casino])
        let position = Binding<MapCameraPosition>.constant(.automatic)
        let selection = Binding<Int?>.constant(nil)
        let showsRoute = true
        let map = Map(position: position, selection: selection) {
            Annotation("Parking", coordinate: .parking) {
                ZStack {
                    RoundedRectangle(cornerRadius: 5)
                        .fill(.background)
                    RoundedRectangle(cornerRadius: 5)
                        .stroke(.secondary, lineWidth: 5)
                    Image(systemName: "car")
                        .padding(5)
                }
            }
            .annotationTitles(.hidden)

            ForEach(places) { place in
                Marker(place.name, systemImage: "building.columns", coordinate: place.coordinate)
                    .tint(.purple)
            }
            .annotationTitles(.hidden)

            ForEach(searchResults, id: \.self) { result in
                Marker(item: result)
            }
            .annotationTitles(.hidden)

            if showsRoute {
                MapPolyline(route)
                    .stroke(.blue, lineWidth: 5)
            }
            UserAnnotation()
        }
        .mapStyle(.standard(elevation: .realistic, pointsOfInterest: .including([.museum, .restaurant])))
        .mapControls {
            MapUserLocationButton()
            MapCompass()
            MapScaleView()
        }
        .userLocation(.museum)
        let shot = try await map.snapshot(size: CGSize(width: 400, height: 400), scale: 2, dataSource: MonacoBundle.dataSource())
        MonacoBundle.save(shot.image, "map-trip-planner")
        XCTAssertEqual(shot.image.pixelSize.width, 800)
        for place in [CLLocationCoordinate2D.parking, .casino, .palace, .museum] {
            let p = shot.point(for: place)
            XCTAssertTrue((0...400).contains(Double(p.x)) && (0...400).contains(Double(p.y)), "\(place) is in view")
        }
        XCTAssertTrue(AnnotationDrawing.lastDrawnTitles.isEmpty, "titles hidden")
        assertColor(shot.image.color(at: shot.point(for: .museum)), near: UIColor.systemBlue, tolerance: 0.1)
    }
}
