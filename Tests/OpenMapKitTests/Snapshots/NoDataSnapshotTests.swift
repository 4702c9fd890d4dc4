import Foundation
import OpenMapKit
import TestSupport
import XCTest

/// The first view of each sample, framed on its data with a margin around it: inside the data's
/// bounds the map, the sea where the coastline puts it right up to the edge; outside, the
/// hatching that says "no data", never the colour of land. The pictures are written to
/// /tmp/openmapkit-snapshots/no-data-NAME.png for a person to look at (the README shows them).
final class NoDataSnapshotTests: XCTestCase {
    private static let land = UIColor(red: 0xF6 / 255.0, green: 0xF3 / 255.0, blue: 0xEC / 255.0, alpha: 1)
    private static let water = UIColor(red: 0x9F / 255.0, green: 0xD0 / 255.0, blue: 0xF4 / 255.0, alpha: 1)

    /// The hatching's two greys (#E3E3E1, #D3D3D0) and their blends.
    private static func isHatching(_ color: UIColor?) -> Bool {
        guard let color else { return false }
        let (r, g, b) = (color.red * 255, color.green * 255, color.blue * 255)
        return abs(r - g) <= 4 && abs(g - b) <= 5 && (205...230).contains(r)
    }

    /// What the picture of one sample shows, sampled every 6 points away from the bounds' edges.
    private struct Picture {
        var outside = 0, outsideHatched = 0, outsideLand = 0
        var inside = 0
        /// Pixels just inside an edge that are sea, and whether the pixel just across is hatching.
        var seaAtEdge = 0, hatchedAcrossSea = 0
        /// Pixels just inside the east edge, and how many of them are sea.
        var eastEdge = 0, eastEdgeSea = 0
    }

    private func picture(of bundle: URL, name: String) async throws -> Picture {
        let source = try MapDataSource(bundleURL: bundle)
        let area = try XCTUnwrap(source.dataMapRect, "\(name): the bundle records no bounds")
        let options = MKMapSnapshotter.Options()
        options.size = CGSize(width: 640, height: 480)
        options.mapRect = area.insetBy(dx: -0.4 * area.width, dy: -0.4 * area.height)
        let shot = try await snapshot(options, dataSource: source)
        MonacoBundle.save(shot.image, "no-data-\(name)")
        let northWest = shot.point(for: MKMapPoint(x: area.minX, y: area.minY).coordinate)
        let southEast = shot.point(for: MKMapPoint(x: area.maxX, y: area.maxY).coordinate)
        let (left, top, right, bottom) = (Double(northWest.x), Double(northWest.y), Double(southEast.x), Double(southEast.y))
        XCTAssertTrue(left > 20 && top > 20 && right < 620 && bottom < 460, "\(name): the bounds are not framed with a margin")
        func color(_ x: Double, _ y: Double) -> UIColor? { shot.image.color(at: CGPoint(x: x, y: y)) }
        var seen = Picture()
        for y in stride(from: 2.0, to: 478, by: 6) {
            for x in stride(from: 2.0, to: 560, by: 6) {  // the attribution sits in the bottom-right corner
                let inX = x > left + 3 && x < right - 3, inY = y > top + 3 && y < bottom - 3
                let outX = x < left - 3 || x > right + 3, outY = y < top - 3 || y > bottom + 3
                if inX && inY {
                    seen.inside += 1
                } else if outX || outY {
                    seen.outside += 1
                    if Self.isHatching(color(x, y)) { seen.outsideHatched += 1 }
                    if isColor(color(x, y), near: Self.land, tolerance: 3 / 255) { seen.outsideLand += 1 }
                }
            }
        }
        // Along each edge: 4 points inside against 4 points outside.
        for step in stride(from: 0.05, to: 0.95, by: 0.01) {
            let x = left + (right - left) * step, y = top + (bottom - top) * step
            for (inner, outer) in [((x, top + 4), (x, top - 4)), ((x, bottom - 4), (x, bottom + 4)),
                                   ((left + 4, y), (left - 4, y)), ((right - 4, y), (right + 4, y))] {
                guard isColor(color(inner.0, inner.1), near: Self.water, tolerance: 3 / 255) else { continue }
                seen.seaAtEdge += 1
                if Self.isHatching(color(outer.0, outer.1)) { seen.hatchedAcrossSea += 1 }
            }
            seen.eastEdge += 1
            if isColor(color(right - 4, y), near: Self.water, tolerance: 3 / 255) { seen.eastEdgeSea += 1 }
        }
        return seen
    }

    private func checkOutside(_ seen: Picture, _ name: String) {
        XCTAssertGreaterThan(seen.outside, 1000, name)
        XCTAssertGreaterThan(seen.inside, 500, name)
        XCTAssertEqual(seen.outsideLand, 0, "\(name): beyond the data the map is drawn as land")
        // Features that run on past the box (roads, forests, rivers) are drawn over the hatching.
        XCTAssertGreaterThan(Double(seen.outsideHatched), 0.5 * Double(seen.outside), "\(name): little hatching beyond the data")
        // Where the sea reaches the data's edge, it stops there and the hatching begins (but for
        // what the data draws across the edge: a railway, a boundary).
        XCTAssertGreaterThanOrEqual(Double(seen.hatchedAcrossSea), 0.9 * Double(seen.seaAtEdge), "\(name): the sea runs on past the data's edge")
    }

    /// Monaco: the sea the coastline closes reaches the box's east edge all along, and stops there.
    func testMonacosSeaEndsWhereItsDataEnds() async throws {
        let seen = try await picture(of: SampleBundle.monaco(), name: "monaco")
        checkOutside(seen, "monaco")
        XCTAssertGreaterThan(Double(seen.eastEdgeSea), 0.9 * Double(seen.eastEdge), "the sea should fill Monaco's box to its east edge")
        XCTAssertGreaterThan(seen.seaAtEdge, 100)
    }

    /// Helsinki, a coastal extract cut by a box across the city: the harbour's water meets the
    /// box's edge, and the hatching begins there.
    func testHelsinkisWaterEndsWhereItsDataEnds() async throws {
        let seen = try await picture(of: SampleBundle.tilesOnly("helsinki"), name: "helsinki")
        checkOutside(seen, "helsinki")
        XCTAssertGreaterThan(seen.seaAtEdge, 0, "no water meets Helsinki's box")
    }

    /// Landlocked samples: Andorra (its header box), and Liechtenstein, whose extract has no
    /// header box and also holds a county in Alabama: the picture opens on Liechtenstein's part.
    func testLandlockedSamplesAreHatchedAroundTheirData() async throws {
        checkOutside(try await picture(of: SampleBundle.tilesOnly("andorra"), name: "andorra"), "andorra")
        checkOutside(try await picture(of: SampleBundle.tilesOnly("liechtenstein"), name: "liechtenstein"), "liechtenstein")
    }
}
