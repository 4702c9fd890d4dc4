import Foundation
import MapRender
@testable import OpenMapKit
import TestSupport
import XCTest

/// The map data's credit (issue 23): snapshots, map view frames and Mapbox's map view carry
/// "© OpenStreetMap contributors" at the bottom-right corner unless the caller says it shows it.
final class AttributionTests: XCTestCase {
    static let size = CGSize(width: 320, height: 200)

    static func options() -> MKMapSnapshotter.Options {
        let options = MKMapSnapshotter.Options()
        options.size = size
        options.camera = MapViewport(size: size, centerCoordinate: MonacoBundle.center, zoomLevel: 15).camera
        return options
    }

    /// Where the credit's label sits on a view of ``size``.
    static var labelFrame: CGRect {
        MapAttribution.frame(of: [MapAttribution.openStreetMap], at: MapAttribution.placement, in: size)!
    }

    /// The pixels of `frame` that differ between two images, and those dark enough to be text.
    static func compare(_ a: UIImage, _ b: UIImage, in frame: CGRect) -> (changed: Int, dark: Int, total: Int) {
        var changed = 0, dark = 0, total = 0
        for y in Int(frame.minY.rounded(.up))..<Int(frame.maxY) {
            for x in Int(frame.minX.rounded(.up))..<Int(frame.maxX) {
                guard let p = a.pixelColor(x: x, y: y), let q = b.pixelColor(x: x, y: y) else { continue }
                total += 1
                if abs(p.red - q.red) + abs(p.green - q.green) + abs(p.blue - q.blue) > 0.05 { changed += 1 }
                if p.red + p.green + p.blue < 1.2 { dark += 1 }
            }
        }
        return (changed, dark, total)
    }

    func testSnapshotsCarryTheCreditUnlessTheCallerShowsIt() async throws {
        let frame = Self.labelFrame
        XCTAssertEqual(frame.maxX, Self.size.width - 8, accuracy: 0.001, "8 points from the right edge")
        XCTAssertEqual(frame.maxY, Self.size.height - 8, accuracy: 0.001, "and from the bottom")
        XCTAssertGreaterThan(frame.width, 100, "the whole credit is written out")

        let credited = try await snapshot(Self.options())
        XCTAssertEqual(credited.attribution, [MapAttribution.openStreetMap])
        let bare = Self.options()
        bare.showsAttribution = false
        XCTAssertTrue(bare.copy().showsAttribution == false, "copies keep the choice")
        let plain = try await snapshot(bare)
        MonacoBundle.save(credited.image, "attribution-snapshot")
        let label = Self.compare(credited.image, plain.image, in: frame)
        XCTAssertGreaterThan(Double(label.changed), 0.5 * Double(label.total), "the label covers its frame")
        XCTAssertGreaterThan(label.dark, 40, "with dark text on it")
        // Nothing else of the image changes.
        let rest = Self.compare(credited.image, plain.image, in: CGRect(x: 0, y: 0, width: Self.size.width, height: frame.minY - 1))
        XCTAssertEqual(rest.changed, 0)
    }

    func testMapContentSnapshotsAndStyleFilesCreditTheirSources() async throws {
        // Map { } content is drawn by the same engine.
        let map = Map(initialPosition: .region(MKCoordinateRegion(center: MonacoBundle.center, latitudinalMeters: 800, longitudinalMeters: 800))) {
            Marker("Casino", coordinate: MonacoBundle.center)
        }
        let shot = try await map.snapshot(size: Self.size, dataSource: MonacoBundle.dataSource())
        XCTAssertEqual(shot.attribution, [MapAttribution.openStreetMap])

        // A style file: each used source's own credit, then OpenStreetMap's for the bundle; a
        // source no visible layer draws is not credited.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("attribution-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let style = folder.appendingPathComponent("style.json")
        try Data("""
        {"version": 8,
         "sources": {
           "pins": {"type": "geojson", "attribution": "Pins © Example", "data": {"type": "FeatureCollection", "features": []}},
           "unused": {"type": "geojson", "attribution": "Never drawn", "data": {"type": "FeatureCollection", "features": []}},
           "omt": {"type": "vector", "tiles": ["bundle://{z}/{x}/{y}"], "maxzoom": 14}},
         "layers": [
           {"id": "bg", "type": "background", "paint": {"background-color": "#eeeeee"}},
           {"id": "pins", "type": "circle", "source": "pins"},
           {"id": "hidden", "type": "circle", "source": "unused", "layout": {"visibility": "none"}},
           {"id": "water", "type": "fill", "source": "omt", "source-layer": "water"}]}
        """.utf8).write(to: style)
        let options = Self.options()
        options.styleURL = style
        let styled = try await snapshot(options)
        XCTAssertEqual(styled.attribution, ["Pins © Example", MapAttribution.openStreetMap])

        // Tiles that replace the map show none of our data: nothing to credit.
        let tiles = MKTileOverlay(urlTemplate: folder.path)
        tiles.canReplaceMapContent = true
        let replaced = Self.options()
        replaced.addOverlay(MKTileOverlayRenderer(tileOverlay: tiles))
        let bare = try await snapshot(replaced)
        XCTAssertEqual(bare.attribution, [])
    }

    func testMapViewFramesCarryTheCreditAtTheBottomRight() throws {
        let view = MKMapView(frame: CGRect(origin: .zero, size: Self.size))
        view.dataSource = try MonacoBundle.dataSource()
        view.setRegion(MKCoordinateRegion(center: MonacoBundle.center, latitudinalMeters: 800, longitudinalMeters: 800), animated: false)
        XCTAssertTrue(view.showsAttribution)
        let credited = try view.render()
        XCTAssertEqual(view.attributionFrame, Self.labelFrame)
        view.showsAttribution = false
        XCTAssertNil(view.attributionFrame)
        let plain = try view.render()
        let label = Self.compare(credited, plain, in: Self.labelFrame)
        XCTAssertGreaterThan(Double(label.changed), 0.5 * Double(label.total))
        XCTAssertGreaterThan(label.dark, 40)

        // Mapbox's face: the credit of its style's sources, hidden only by hiding its attribution.
        let mapbox = MGLMapView(frame: CGRect(origin: .zero, size: Self.size))
        mapbox.dataSource = try MonacoBundle.dataSource()
        mapbox.setCenter(MonacoBundle.center, zoomLevel: 14, animated: false)
        _ = try mapbox.render()
        XCTAssertEqual(mapbox.attributionText, MapAttribution.openStreetMap)
        XCTAssertNotNil(mapbox.engine.attributionFrame)
        mapbox.attributionButton.isHidden = true
        XCTAssertNil(mapbox.engine.attributionFrame)
    }
}
