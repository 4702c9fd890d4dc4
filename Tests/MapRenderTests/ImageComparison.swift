/// Compares two RGBA images the way the render suite's README asks: pixelmatch's rule, written
/// here from its description. Each pixel is blended over white and the two colours' YIQ distance
/// is compared with `35215 · threshold²` (35215 is the largest possible distance). A differing
/// pixel is not counted when it looks anti-aliased in either image: among its 8 neighbours there
/// are both a darker and a brighter one, no more than two identical ones, and the darkest or the
/// brightest neighbour sits in a flat area (3+ identical neighbours) in both images.
struct ImageComparison {
    let width: Int, height: Int
    let expected: [UInt8], actual: [UInt8]

    /// How many pixels differ (anti-aliased ones excluded).
    func differingPixels(threshold: Double = 0.1285) -> Int {
        let maxDelta = 35215 * threshold * threshold
        var count = 0
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let delta = Self.colorDelta(expected, i, actual, i, brightnessOnly: false)
                guard abs(delta) > maxDelta else { continue }
                if isAntialiased(expected, x, y, other: actual) || isAntialiased(actual, x, y, other: expected) { continue }
                count += 1
            }
        }
        return count
    }

    private func isAntialiased(_ image: [UInt8], _ x: Int, _ y: Int, other: [UInt8]) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0), x1 = min(x + 1, width - 1), y1 = min(y + 1, height - 1)
        let center = (y * width + x) * 4
        var identical = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0
        var darkest = 0.0, brightest = 0.0
        var darkestAt = (0, 0), brightestAt = (0, 0)
        for ny in y0...y1 {
            for nx in x0...x1 where nx != x || ny != y {
                let delta = Self.colorDelta(image, center, image, (ny * width + nx) * 4, brightnessOnly: true)
                if delta == 0 {
                    identical += 1
                    if identical > 2 { return false }
                } else if delta < darkest {
                    darkest = delta
                    darkestAt = (nx, ny)
                } else if delta > brightest {
                    brightest = delta
                    brightestAt = (nx, ny)
                }
            }
        }
        guard darkest != 0, brightest != 0 else { return false }
        return (hasManySiblings(image, darkestAt.0, darkestAt.1) && hasManySiblings(other, darkestAt.0, darkestAt.1))
            || (hasManySiblings(image, brightestAt.0, brightestAt.1) && hasManySiblings(other, brightestAt.0, brightestAt.1))
    }

    /// Whether at least three neighbours have exactly the pixel's RGBA.
    private func hasManySiblings(_ image: [UInt8], _ x: Int, _ y: Int) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0), x1 = min(x + 1, width - 1), y1 = min(y + 1, height - 1)
        let center = (y * width + x) * 4
        var identical = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0
        for ny in y0...y1 {
            for nx in x0...x1 where nx != x || ny != y {
                let other = (ny * width + nx) * 4
                if image[center] == image[other], image[center + 1] == image[other + 1],
                   image[center + 2] == image[other + 2], image[center + 3] == image[other + 3] {
                    identical += 1
                    if identical > 2 { return true }
                }
            }
        }
        return false
    }

    /// The squared YIQ distance (signed: negative when the second colour is brighter), or with
    /// `brightnessOnly` the difference in luma Y.
    static func colorDelta(_ a: [UInt8], _ i: Int, _ b: [UInt8], _ j: Int, brightnessOnly: Bool) -> Double {
        func blended(_ image: [UInt8], _ k: Int) -> (Double, Double, Double) {
            let alpha = Double(image[k + 3]) / 255
            func over(_ c: UInt8) -> Double { 255 + (Double(c) - 255) * alpha }
            return (over(image[k]), over(image[k + 1]), over(image[k + 2]))
        }
        let (r1, g1, b1) = blended(a, i), (r2, g2, b2) = blended(b, j)
        func luma(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.29889531 + g * 0.58662247 + b * 0.11448223 }
        let y = luma(r1, g1, b1) - luma(r2, g2, b2)
        if brightnessOnly { return y }
        let iDelta = (r1 * 0.59597799 - g1 * 0.27417610 - b1 * 0.32180189) - (r2 * 0.59597799 - g2 * 0.27417610 - b2 * 0.32180189)
        let qDelta = (r1 * 0.21147017 - g1 * 0.52261711 + b1 * 0.31114694) - (r2 * 0.21147017 - g2 * 0.52261711 + b2 * 0.31114694)
        let delta = 0.5053 * y * y + 0.299 * iDelta * iDelta + 0.1957 * qDelta * qDelta
        return luma(r1, g1, b1) > luma(r2, g2, b2) ? -delta : delta
    }
}
