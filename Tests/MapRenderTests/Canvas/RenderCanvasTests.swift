import Foundation
import MapRender
import XCTest

final class RenderCanvasTests: XCTestCase {
    /// A square with a square hole at 2×: inside the ring is filled, the hole and the outside are not,
    /// and pixels are twice the points.
    func testFillsPolygonsWithHolesAtScale() throws {
        let canvas = try RenderCanvas(width: 100, height: 50, scale: 2)
        XCTAssertEqual([canvas.pixelWidth, canvas.pixelHeight], [200, 100])
        canvas.fill(.white)
        let outer = [(x: 10.0, y: 10.0), (x: 40, y: 10), (x: 40, y: 40), (x: 10, y: 40)]
        let hole = [(x: 20.0, y: 20.0), (x: 30, y: 20), (x: 30, y: 30), (x: 20, y: 30)]
        // The hole wound the same way as the exterior: even-odd still cuts it out.
        canvas.fill(rings: [outer, hole], color: RenderColor(red: 0, green: 0.5, blue: 1))
        let inRing = canvas.pixel(x: 30, y: 30), inHole = canvas.pixel(x: 50, y: 50), outside = canvas.pixel(x: 150, y: 50)
        XCTAssertEqual([inRing.red, inRing.green, inRing.blue, inRing.alpha], [0, 128, 255, 255])
        XCTAssertEqual([inHole.red, inHole.green, inHole.blue], [255, 255, 255])
        XCTAssertEqual([outside.red, outside.green, outside.blue], [255, 255, 255])
        // The edge at x = 10 points falls between pixels 19 and 20: sharp, no bleeding.
        XCTAssertEqual(canvas.pixel(x: 19, y: 30).red, 255)
        XCTAssertEqual(canvas.pixel(x: 20, y: 30).red, 0)
    }

    func testStrokesWithCapsAndDashes() throws {
        let canvas = try RenderCanvas(width: 100, height: 20)
        canvas.stroke([(x: 10, y: 10), (x: 90, y: 10)], width: 4, color: .black, cap: .butt, dashes: [10, 10])
        XCTAssertEqual(canvas.pixel(x: 15, y: 10).alpha, 255, "first dash")
        XCTAssertEqual(canvas.pixel(x: 25, y: 10).alpha, 0, "first gap")
        XCTAssertEqual(canvas.pixel(x: 35, y: 10).alpha, 255, "second dash")
        XCTAssertEqual(canvas.pixel(x: 8, y: 10).alpha, 0, "a butt cap stops at the end")
        canvas.stroke([(x: 10, y: 16), (x: 90, y: 16)], width: 4, color: .black, cap: .square)
        XCTAssertEqual(canvas.pixel(x: 9, y: 16).alpha, 255, "a square cap runs half the width past the end")
    }

    func testPNGEncodesTheImage() throws {
        let canvas = try RenderCanvas(width: 3, height: 2, scale: 1)
        canvas.fill(.white)
        let png = try canvas.pngData()
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: width 3, height 2.
        XCTAssertEqual(Array(png[16..<24]), [0, 0, 0, 3, 0, 0, 0, 2])
    }

    func testBadSizesAreErrors() {
        for (w, h, s) in [(0.0, 10.0, 1.0), (10, -1, 1), (.nan, 10, 1), (10, 10, .infinity), (20000, 10, 1), (9000, 10, 2)] {
            XCTAssertThrowsError(try RenderCanvas(width: w, height: h, scale: s), "\(w) × \(h) @\(s)") { error in
                XCTAssertTrue(error is RenderError)
            }
        }
    }
}
