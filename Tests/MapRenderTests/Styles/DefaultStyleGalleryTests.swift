import Foundation
import MapFormats
import MapGeometry
import MapBundle
import MapRender
import MapStyle
import XCTest

/// The default styles drawn over a real bundle (Monaco) from the whole world down to street
/// level. The images are written to a temporary folder for looking at; the assertions check what
/// a user would see at each zoom.
final class DefaultStyleGalleryTests: XCTestCase {
    static let output = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-default-styles")

    private func render(_ style: DefaultStyle, zoom: Double, center: CLLocationCoordinate2D = CLLocationCoordinate2D(latitude: 43.7365, longitude: 7.4230),
                        size: Double = 512, scale: Double = 1, imagery: (@Sendable (TileID) -> [UInt8]?)? = nil) throws -> RenderCanvas {
        let archive = try MonacoTiles.archive()
        let loader = StyleResourceLoader(tile: { source, id in
            if source == DefaultStyle.imagerySourceID { return imagery?(id) }
            return (try? archive.tile(id)).flatMap { $0.map { [UInt8]($0) } }
        }, resource: { DefaultStyle.resource($0) })
        let renderer = try StyleRenderer(style: style.style, loader: loader)
        let canvas = try renderer.render(center: center, zoom: zoom, width: size, height: size, pixelRatio: scale)
        try FileManager.default.createDirectory(at: Self.output, withIntermediateDirectories: true)
        try Data(canvas.pngData()).write(to: Self.output.appendingPathComponent("\(style.rawValue)-z\(Int(zoom)).png"))
        return canvas
    }

    /// How many pixels of the image are close to a colour (per channel within `tolerance`).
    private func count(_ canvas: RenderCanvas, near hex: String, tolerance: Int = 6) -> Int {
        let target = [hex.dropFirst().prefix(2), hex.dropFirst(3).prefix(2), hex.dropFirst(5).prefix(2)].map { Int($0, radix: 16)! }
        let pixels = canvas.rgbaPixels()
        var matches = 0
        for index in stride(from: 0, to: pixels.count, by: 4)
        where abs(Int(pixels[index]) - target[0]) <= tolerance && abs(Int(pixels[index + 1]) - target[1]) <= tolerance
            && abs(Int(pixels[index + 2]) - target[2]) <= tolerance {
            matches += 1
        }
        return matches
    }

    private func distinctColors(_ canvas: RenderCanvas) -> Int {
        let pixels = canvas.rgbaPixels()
        var colors = Set<UInt32>()
        for index in stride(from: 0, to: pixels.count, by: 4) {
            colors.insert(UInt32(pixels[index]) << 16 | UInt32(pixels[index + 1]) << 8 | UInt32(pixels[index + 2]))
        }
        return colors.count
    }

    /// At street level the standard map shows water (the harbour), buildings, parks and a road
    /// network; the dark map has the same shapes in dark colours; the muted map is paler.
    func testStreetLevelShowsTheCity() throws {
        let standard = try render(.standard, zoom: 16)
        let total = 512 * 512
        XCTAssertGreaterThan(count(standard, near: "#9fd0f4"), total / 50, "harbour water")
        XCTAssertGreaterThan(count(standard, near: "#e7e2d9"), total / 20, "buildings")
        XCTAssertGreaterThan(count(standard, near: "#ffffff", tolerance: 2), total / 80, "streets")
        XCTAssertGreaterThan(distinctColors(standard), 200, "antialiased detail")

        let dark = try render(.dark, zoom: 16)
        XCTAssertGreaterThan(count(dark, near: "#1b3550"), total / 50, "dark water")
        XCTAssertLessThan(count(dark, near: "#ffffff", tolerance: 30), total / 100, "a dark map has no white streets")

        let muted = try render(.muted, zoom: 16)
        func meanSaturation(_ canvas: RenderCanvas) -> Double {
            let pixels = canvas.rgbaPixels()
            var sum = 0.0
            for index in stride(from: 0, to: pixels.count, by: 4) {
                let channels = [pixels[index], pixels[index + 1], pixels[index + 2]].map(Double.init)
                sum += (channels.max()! - channels.min()!) / 255
            }
            return sum / Double(pixels.count / 4)
        }
        XCTAssertLessThan(meanSaturation(muted), meanSaturation(standard) * 0.7, "muted is paler than standard")
    }

    /// Every zoom from the whole world to 18 draws without error and, where the bundle has data,
    /// shows more than the background.
    func testEveryZoomDraws() throws {
        for zoom in [0.0, 3, 6, 9, 11, 13, 14, 15, 17, 18] {
            let canvas = try render(.standard, zoom: zoom, center: CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), size: 256)
            if zoom >= 13 { XCTAssertGreaterThan(distinctColors(canvas), 20, "zoom \(zoom) shows only background") }
        }
    }

    /// The hybrid style draws the caller's imagery under translucent roads; without imagery the
    /// dark background shows and nothing fails.
    func testHybridDrawsRoadsOverImagery() throws {
        // A checkerboard of green imagery tiles stands in for aerial photographs.
        let tile = try RenderCanvas(width: 256, height: 256)
        tile.fill(RenderColor(red: 0.1, green: 0.45, blue: 0.15))
        let png = try tile.pngData()
        let hybrid = try render(.hybrid, zoom: 16, imagery: { _ in png })
        XCTAssertGreaterThan(count(hybrid, near: "#1a7326", tolerance: 4), 512 * 512 / 3, "imagery shows")
        XCTAssertGreaterThan(count(hybrid, near: "#c6dcc9", tolerance: 40), 500, "translucent white roads over the imagery")
        let bare = try render(.imagery, zoom: 16)
        XCTAssertGreaterThan(count(bare, near: "#1c2127"), 512 * 512 * 9 / 10)
    }

    /// Writes the README's pictures: Monaco at 2× in each style.
    func testWriteReadmeImages() throws {
        for style in [DefaultStyle.standard, .dark, .muted] {
            let canvas = try render(style, zoom: 15, center: CLLocationCoordinate2D(latitude: 43.7390, longitude: 7.4260), size: 400, scale: 2)
            try Data(canvas.pngData()).write(to: Self.output.appendingPathComponent("readme-\(style.rawValue).png"))
        }
    }
}
