import Foundation
@testable import MapRender
import TestSupport
import XCTest

/// Fill outlines drawn by the canvas's own 1-pixel line rasterizer cover the pixels Cairo's
/// 1-pixel stroke covers, inside the same aliased clip.
final class HairlineTests: XCTestCase {
    func testHairlinesMatchCairoStrokes() throws {
        var random = SplitMix64(seed: 11)
        var rings: [[(x: Double, y: Double)]] = []
        for _ in 0..<60 {
            let cx = random.uniform(-20, 220), cy = random.uniform(-20, 170), r = random.uniform(2, 40)
            let corners = 3 + Int(random.next() % 6)
            rings.append((0..<corners).map { k in
                let angle = Double(k) / Double(corners) * 2 * .pi + random.uniform(0, 0.5)
                return (cx + r * cos(angle), cy + r * 0.7 * sin(angle))
            })
        }
        let clip: [(x: Double, y: Double)] = [(10, 5), (190, 20), (180, 140), (15, 130)]
        let color = RenderColor(red: 0.1, green: 0.2, blue: 0.5, alpha: 0.9)
        for scale in [1.0, 2.0] {
            let ours = try RenderCanvas(width: 200, height: 150, scale: scale)
            let cairo = try RenderCanvas(width: 200, height: 150, scale: scale)
            for canvas in [ours, cairo] { canvas.fill(.white) }
            let rasterizer = try XCTUnwrap(ours.thinLineRasterizer(clip: clip))
            for ring in rings { rasterizer.stroke([ring], closed: true, width: 1 / scale, color: color) }
            rasterizer.finish()
            cairo.save()
            cairo.clip(to: clip)
            for ring in rings {
                cairo.stroke(lines: [ring], closed: true, width: 1 / scale, color: color, cap: .butt, join: .bevel, miterLimit: 2)
            }
            cairo.restore()
            let a = ours.rgbaPixels(), b = cairo.rgbaPixels()
            var inked = 0, far = 0, total = 0
            for i in stride(from: 0, to: a.count, by: 4) {
                let difference = abs(Int(a[i + 2]) - Int(b[i + 2]))
                total += difference
                if b[i + 2] < 250 { inked += 1 }
                if difference > 64 { far += 1 }
            }
            XCTAssertGreaterThan(inked, 1000, "the strokes drew")
            // The ends and joins of segments differ a little; the lines themselves agree.
            XCTAssertLessThan(Double(far), Double(inked) * 0.02, "scale \(scale): \(far) of \(inked) inked pixels differ by over a quarter")
            XCTAssertLessThan(Double(total) / Double(inked), 12, "scale \(scale): mean difference per inked pixel")
            // Nothing outside the clip, though the rings reach beyond it.
            func inside(_ x: Double, _ y: Double) -> Bool {
                (0..<4).allSatisfy { k in
                    let p = clip[k], q = clip[(k + 1) % 4]
                    return (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x) >= 0
                }
            }
            var outsideInk = 0
            for y in 0..<ours.pixelHeight {
                for x in 0..<ours.pixelWidth where !inside((Double(x) + 0.5) / scale, (Double(y) + 0.5) / scale) {
                    if a[(y * ours.pixelWidth + x) * 4 + 2] != 255 { outsideInk += 1 }
                }
            }
            XCTAssertEqual(outsideInk, 0, "scale \(scale)")
            XCTAssertTrue(rings.joined().contains { !inside($0.x, $0.y) })
        }
    }

    /// Inside a group (layer opacity) the canvas cannot draw straight into its pixels.
    func testRefusedInsideAGroup() throws {
        let canvas = try RenderCanvas(width: 20, height: 20)
        canvas.beginGroup()
        XCTAssertNil(canvas.thinLineRasterizer(clip: nil))
        canvas.endGroup()
    }
}
