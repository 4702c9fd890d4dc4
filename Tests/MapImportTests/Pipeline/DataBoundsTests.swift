import Foundation
import MapBundle
import MapFormats
@testable import MapImport
import TestSupport
import XCTest

/// What a bundle records of where its data lies: the extract's header box, else boxes around the
/// parts of its nodes (`NodeCoverage`), which readers hatch around as having no data.
final class DataBoundsTests: XCTestCase {
    private func location(_ latitude: Double, _ longitude: Double) -> OSMLocation {
        OSMLocation(latitudeE7: Int32((latitude * 1e7).rounded()), longitudeE7: Int32((longitude * 1e7).rounded()))
    }

    func testNodesFarApartMakeOneBoxPerPart() throws {
        var coverage = NodeCoverage()
        XCTAssertTrue(coverage.isEmpty)
        XCTAssertEqual(coverage.parts(), [])
        // A country whose nodes spread over neighbouring cells (one part) ...
        for (latitude, longitude) in [(47.05, 9.47), (47.27, 9.53), (46.90, 8.10), (47.60, 10.40)] { coverage.add(location(latitude, longitude)) }
        // ... a county across the ocean with more nodes (the main part) ...
        for step in 0..<10 { coverage.add(location(32.2 + 0.1 * Double(step), -87.9 + 0.2 * Double(step))) }
        // ... and a lone node far from both, which makes no box.
        coverage.add(location(-33.9, 151.2))
        let parts = coverage.parts()
        XCTAssertEqual(parts.count, 2, "\(parts)")
        XCTAssertEqual(parts.first, GeographicBounds(west: -87.9, south: 32.2, east: -86.1, north: 33.1))
        XCTAssertEqual(parts.last, GeographicBounds(west: 8.10, south: 46.90, east: 10.40, north: 47.60))
    }

    /// Nodes on the world's edges fall in its corner cells, which do not touch; the part with
    /// more nodes comes first.
    func testNodesAtTheWorldsEdgesStayOnTheGrid() {
        var coverage = NodeCoverage()
        for (latitude, longitude) in [(90.0, 180.0), (89.9, 179.9), (-90.0, -180.0), (-89.9, -179.8), (-89.95, -179.9)] { coverage.add(location(latitude, longitude)) }
        XCTAssertEqual(coverage.parts(), [GeographicBounds(west: -180, south: -90, east: -179.8, north: -89.9),
                                          GeographicBounds(west: 179.9, south: 89.9, east: 180, north: 90)])
    }

    func testBoundsTextIsReadStrictly() {
        XCTAssertEqual(GeographicBounds(text: "7.4, 43.7,7.5,43.8"), GeographicBounds(west: 7.4, south: 43.7, east: 7.5, north: 43.8))
        for bad in ["", "1,2,3", "1,2,3,4,5", "7.5,43.7,7.4,43.8", "7.4,43.8,7.5,43.7", "7.4,43.7,7.5,nan", "-181,0,0,1", "0,0,1,91", "a,b,c,d", "1,,2,3"] {
            XCTAssertNil(GeographicBounds(text: bad), bad)
        }
    }

    /// The Liechtenstein extract has no header box and also holds Autauga County, Alabama: its
    /// manifest keeps a box for each, Liechtenstein (more nodes) first, and bounds around both.
    func testAnExtractWithoutAHeaderBoxRecordsTheBoxesOfItsParts() throws {
        let manifest = try MapBundle(url: SampleBundle.tilesOnly("liechtenstein")).manifest
        let parts = manifest.geographicCoverage
        XCTAssertEqual(parts.count, 2, "\(manifest.coverage ?? [])")
        let vaduz = (latitude: 47.141, longitude: 9.521), prattville = (latitude: 32.464, longitude: -86.459)
        func holds(_ box: GeographicBounds?, _ point: (latitude: Double, longitude: Double)) -> Bool {
            guard let box else { return false }
            return box.west < point.longitude && point.longitude < box.east && box.south < point.latitude && point.latitude < box.north
        }
        XCTAssertTrue(holds(parts.first, vaduz), "\(parts)")
        XCTAssertFalse(holds(parts.first, prattville), "\(parts)")
        XCTAssertTrue(holds(parts.last, prattville), "\(parts)")
        XCTAssertEqual(manifest.geographicBounds, parts[0].union(parts[1]))
        // The header's box wins when there is one: Monaco's, a single part.
        let monaco = try MapBundle(url: SampleBundle.tilesOnly("monaco")).manifest
        XCTAssertNil(monaco.coverage)
        XCTAssertEqual(monaco.geographicCoverage, [GeographicBounds(west: 7.409205, south: 43.72335, east: 7.448637, north: 43.75169)])
    }
}
