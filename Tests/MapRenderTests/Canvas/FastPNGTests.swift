import Foundation
import MapRender
import XCTest

/// `RenderCanvas.fastPNGData()` decodes (with Cairo's libpng reader) to the canvas's pixels,
/// opaque or translucent, at every scale.
final class FastPNGTests: XCTestCase {
    private func decoded(_ png: [UInt8]) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fastpng-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(png).write(to: URL(fileURLWithPath: path))
        return try RenderCanvas.readPNG(path: path)
    }

    func testOpaqueAndTranslucentCanvasesRoundTrip() throws {
        for (scale, background) in [(1.0, true), (2.0, true), (1.0, false), (3.0, false)] {
            let canvas = try RenderCanvas(width: 37, height: 23, scale: scale)
            if background { canvas.fill(RenderColor(red: 0.9, green: 0.85, blue: 0.8)) }
            canvas.fill(rings: [[(3, 3), (30, 5), (20, 20)]], color: RenderColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.6))
            canvas.stroke([(0, 22), (36, 1)], width: 2.5, color: RenderColor(red: 1, green: 0.1, blue: 0.1, alpha: 0.8), cap: .round)
            let png = try canvas.fastPNGData()
            XCTAssertEqual(png[25], background ? 2 : 6, "colour type: RGB when opaque, else RGBA")
            let image = try decoded(png)
            XCTAssertEqual(image.width, canvas.pixelWidth)
            XCTAssertEqual(image.height, canvas.pixelHeight)
            let expected = canvas.rgbaPixels()
            // Cairo premultiplies on reading, so nearly transparent pixels lose a little precision.
            var worst = 0
            for i in stride(from: 0, to: expected.count, by: 4) where expected[i + 3] >= 16 || image.rgba[i + 3] >= 16 {
                for c in 0..<4 { worst = max(worst, abs(Int(expected[i + c]) - Int(image.rgba[i + c]))) }
            }
            XCTAssertLessThanOrEqual(worst, 8, "scale \(scale), background \(background)")
            XCTAssertTrue(expected.contains { $0 != 0 })
        }
    }

    /// Large images are encoded in bands on several threads into one PNG; any reader sees the
    /// same pixels whatever the thread count.
    func testBandedEncodingDecodesToTheSamePixels() throws {
        for background in [true, false] {
            let canvas = try RenderCanvas(width: 640, height: 515, scale: 1)
            if background { canvas.fill(RenderColor(red: 0.95, green: 0.93, blue: 0.9)) }
            for i in 0..<40 {
                let t = Double(i)
                canvas.stroke([(t * 16, 0), (640 - t * 9, 515)], width: 1 + t / 8,
                              color: RenderColor(red: t / 40, green: 0.4, blue: 1 - t / 40, alpha: 0.7), cap: .round)
            }
            let expected = canvas.rgbaPixels()
            var sizes: [Int] = []
            for threads in [1, 2, 5] {
                let png = try canvas.fastPNGData(threads: threads)
                sizes.append(png.count)
                let image = try decoded(png)
                XCTAssertEqual(image.width, 640)
                XCTAssertEqual(image.height, 515)
                var worst = 0
                for i in stride(from: 0, to: expected.count, by: 4) where expected[i + 3] >= 16 {
                    for c in 0..<4 { worst = max(worst, abs(Int(expected[i + c]) - Int(image.rgba[i + c]))) }
                }
                XCTAssertLessThanOrEqual(worst, background ? 0 : 8, "\(threads) threads, background \(background)")
            }
            // Bands compress separately, so the file may grow a little, never much.
            XCTAssertLessThan(Double(sizes.max()!), Double(sizes[0]) * 1.1)
        }
    }
}
