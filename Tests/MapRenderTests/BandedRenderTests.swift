import Foundation
import MapGeometry
@testable import MapRender
import MapStyle
import TestSupport
import XCTest

/// A render split into horizontal bands drawn on several threads makes the same pixels as one
/// thread drawing the whole image: the bands share the image's coordinates, and every cache the
/// drawing reads is filled before the threads start.
final class BandedRenderTests: XCTestCase {
    private func pixels(_ renderer: StyleRenderer, threads: Int, center: CLLocationCoordinate2D, zoom: Double,
                        bearing: Double = 0, size: Double = 512, scale: Double = 1) throws -> [UInt8] {
        renderer.maximumThreads = threads
        return try renderer.render(center: center, zoom: zoom, bearing: bearing, width: size, height: size, pixelRatio: scale).rgbaPixels()
    }

    /// Asserts that at most `tolerated` pixels differ, each by at most `level` in any channel.
    private func assertSame(_ a: [UInt8], _ b: [UInt8], width: Int, tolerated: Int = 0, level: Int = 0, _ message: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, message, file: file, line: line)
        let differing = stride(from: 0, to: min(a.count, b.count), by: 4).filter { a[$0..<$0 + 4] != b[$0..<$0 + 4] }
        let rows = Set(differing.map { $0 / 4 / width }).sorted()
        let worst = differing.map { i in (0..<4).map { abs(Int(a[i + $0]) - Int(b[i + $0])) }.max()! }.max() ?? 0
        XCTAssertTrue(differing.count <= tolerated && worst <= level,
                      "\(message): \(differing.count) pixels differ by up to \(worst), in rows \(rows.prefix(12))", file: file, line: line)
    }

    /// Real-world street tiles with dashes, casings and buildings, turned and at 2×.
    func testRealWorldCaseMatchesOneThread() throws {
        let folder = TestData.shared("conformance/render/realworld/sanfrancisco-z16")
        let style = try Style(data: [UInt8](Data(contentsOf: folder.appendingPathComponent("style.json"))))
        let renderer = try StyleRenderer(style: style, loader: .files(relativeTo: folder.path, style: style))
        let center = CLLocationCoordinate2D(latitude: 37.7664, longitude: -122.4481)
        for (bearing, scale) in [(0.0, 1.0), (33.0, 2.0)] {
            let single = try pixels(renderer, threads: 1, center: center, zoom: 16, bearing: bearing, scale: scale)
            XCTAssertGreaterThan(Set(stride(from: 0, to: single.count, by: 4 * 97).map { single[$0] }).count, 3, "a drawn map")
            for threads in [2, 3, 7] {
                assertSame(single, try pixels(renderer, threads: threads, center: center, zoom: 16, bearing: bearing, scale: scale),
                           width: Int(512 * scale),
                           "\(threads) threads, bearing \(bearing), scale \(scale)")
            }
        }
    }

    /// The default style on Monaco: labels placed once and drawn across band edges, icons (read from
    /// one sprite sheet by every band in turn) and patterns.
    /// Icons and blurred halos go through Cairo groups, which a band sizes to its own rows; their
    /// 8-bit rounding may then differ by one level in a few pixels (0.03% here), never more.
    func testDefaultStyleWithLabelsMatchesOneThread() throws {
        let renderer = try StyleRenderer(style: DefaultStyle.standard.style, loader: MonacoTiles.loader())
        let center = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
        let single = try pixels(renderer, threads: 1, center: center, zoom: 16, size: 600, scale: 2)
        let labelled = renderer.placedSymbols.values.joined().filter { !$0.glyphs.isEmpty }.count
        XCTAssertGreaterThan(labelled, 10, "the view has labels to cut across bands")
        assertSame(single, try pixels(renderer, threads: 4, center: center, zoom: 16, size: 600, scale: 2), width: 1200,
                   tolerated: 1200 * 1200 / 1000, level: 1, "4 threads")
    }
}
