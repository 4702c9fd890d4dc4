import Foundation
@testable import OpenMapKit
import TestSupport
import XCTest

/// Realistic elevation on the Monaco bundle: buildings stand up in pitched snapshots and map view
/// frames, and the rest of the map is the flat map's.
final class ExtrudedBuildingsSnapshotTests: XCTestCase {
    private static let size = CGSize(width: 320, height: 240)

    /// The Monaco camera at zoom 16.5, pitched.
    private static func camera(pitch: Double) -> MKMapCamera {
        let camera = MapViewport(size: size, centerCoordinate: MonacoBundle.center, zoomLevel: 16.5, heading: 0, pitch: 0).camera
        camera.pitch = pitch
        return camera
    }

    private func options(realistic: Bool, pitch: Double) -> MKMapSnapshotter.Options {
        let options = MKMapSnapshotter.Options()
        options.size = Self.size
        options.camera = Self.camera(pitch: pitch)
        options.preferredConfiguration = MKStandardMapConfiguration(elevationStyle: realistic ? .realistic : .flat)
        options.showsAttribution = false
        return options
    }

    /// How two images of the same size compare, on every other column: how many pixels differ;
    /// how many pixels the flat image shows as a building (fill or outline) and how many of those
    /// differ; and how many differing pixels have no building of the flat image below them in
    /// their column within `reach` pixels (what a standing building cannot explain: it only
    /// covers what lies behind it and above its footprint on screen).
    private static func compare(_ flat: UIImage, _ raised: UIImage, reach: Int = 110) throws
        -> (total: Int, changed: Int, buildings: Int, buildingsChanged: Int, unexplained: Int) {
        var result = (total: 0, changed: 0, buildings: 0, buildingsChanged: 0, unexplained: 0)
        let fill = UIColor(red: 0xe7 / 255, green: 0xe2 / 255, blue: 0xd9 / 255, alpha: 1)
        let outline = UIColor(red: 0xd6 / 255, green: 0xcf / 255, blue: 0xc2 / 255, alpha: 1)
        let (width, height) = (Int(size.width), Int(size.height))
        for x in stride(from: 1, to: width, by: 2) {
            var changed: [Bool] = [], building: [Bool] = []
            for y in 0..<height {
                let p = CGPoint(x: x, y: y)
                let a = try XCTUnwrap(flat.color(at: p)), b = try XCTUnwrap(raised.color(at: p))
                changed.append(abs(a.red - b.red) + abs(a.green - b.green) + abs(a.blue - b.blue) > 0.02)
                building.append(isColor(a, near: fill, tolerance: 0.02) || isColor(a, near: outline, tolerance: 0.02))
            }
            for y in 0..<height {
                result.total += 1
                if changed[y] { result.changed += 1 }
                if building[y] {
                    result.buildings += 1
                    if changed[y] { result.buildingsChanged += 1 }
                }
                if changed[y], !building[y...min(y + reach, height - 1)].contains(true) { result.unexplained += 1 }
            }
        }
        return result
    }

    /// At pitch 60 the realistic snapshot differs from the flat one where buildings are (their
    /// walls cover what lies behind them) and barely over the sea, which has no buildings.
    func testRealisticSnapshotRaisesTheBuildings() async throws {
        let flat = try await snapshot(options(realistic: false, pitch: 60))
        let raised = try await snapshot(options(realistic: true, pitch: 60))
        MonacoBundle.save(flat.image, "extrusion-flat-60")
        MonacoBundle.save(raised.image, "extrusion-realistic-60")
        let c = try Self.compare(flat.image, raised.image)
        XCTAssertGreaterThan(c.buildings, c.total / 10, "the view shows buildings: \(c)")
        XCTAssertGreaterThan(c.changed, c.total / 6, "walls and roofs stand over the map: \(c)")
        XCTAssertGreaterThan(c.buildingsChanged, c.buildings / 5, "walls cover the footprints: \(c)")
        XCTAssertLessThan(c.unexplained, c.total / 50, "away from the buildings the map is the flat map: \(c)")
    }

    /// Seen from straight above, buildings are their roofs: the realistic map stays close to the
    /// flat one. What changes is at buildings: a roof is the building colour lit from above,
    /// without the flat fill's outline, and it lies over the roads (the extrusion layer is above
    /// them), so a footprint's edge pixels and roads under buildings differ.
    func testRealisticSnapshotFromAboveShowsRoofs() async throws {
        let flat = try await snapshot(options(realistic: false, pitch: 0))
        let raised = try await snapshot(options(realistic: true, pitch: 0))
        let c = try Self.compare(flat.image, raised.image, reach: 0)
        XCTAssertLessThan(c.unexplained, c.total / 20, "only the buildings' edges and what they cover change: \(c)")
        XCTAssertLessThan(c.changed, c.total / 10, "\(c)")
    }

    /// `Map`'s style and the map view: `.standard(elevation: .realistic)` asks for the realistic
    /// configuration, and a pitched map view frame shows the raised buildings.
    func testMapViewFramesRaiseTheBuildings() throws {
        let style = Map.Style.standard(elevation: .realistic)
        XCTAssertEqual(style.configuration.elevationStyle, .realistic)
        XCTAssertEqual(Map.Style.hybrid(elevation: .realistic).configuration.elevationStyle, .realistic)
        XCTAssertEqual(Map.Style.standard(elevation: .flat).configuration.elevationStyle, .flat)
        XCTAssertNotEqual(style.key, Map.Style.standard.key)

        let view = MKMapView(frame: CGRect(origin: .zero, size: Self.size))
        view.dataSource = try MonacoBundle.dataSource()
        view.showsAttribution = false
        view.camera = Self.camera(pitch: 60)
        let flat = try view.render()
        view.preferredConfiguration = style.configuration
        let raised = try view.render()
        let c = try Self.compare(flat, raised)
        XCTAssertGreaterThan(c.buildingsChanged, c.buildings / 5, "\(c)")
        XCTAssertLessThan(c.unexplained, c.total / 50, "\(c)")
    }
}
