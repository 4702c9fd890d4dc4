import Foundation
import MapRender
import MapStyle
import XCTest

/// The default styles' sprite and the POI icons drawn for it and for markers.
final class DefaultStyleSpriteTests: XCTestCase {
    static let output = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-default-styles")

    func testSpriteServesEveryIconTheStylesName() throws {
        for suffix in ["", "@2x"] {
            let json = try XCTUnwrap(DefaultStyle.resource("openmapkit://sprites/default\(suffix).json"))
            let png = try XCTUnwrap(DefaultStyle.resource("openmapkit://sprites/default\(suffix).png"))
            let sheet = try SpriteSheet(json: json, png: png)
            XCTAssertEqual(sheet.rejected, [:])
            for name in PointOfInterestIcon.openMapTilesClassNames {
                let entry = try XCTUnwrap(sheet.entries["poi-\(name)"], name)
                XCTAssertEqual(entry.pointWidth, 17, accuracy: 0.5, name)
            }
            for name in ["poi", "peak", "dot", "dot-capital", "shield", "shield-motorway", "airport"] {
                XCTAssertNotNil(sheet.entries[name], name)
            }
            XCTAssertEqual(sheet.entries["poi-cafe"]?.pixelRatio, suffix.isEmpty ? 1 : 2)
        }
        XCTAssertNil(DefaultStyle.resource("openmapkit://sprites/default@3x.png"))
        XCTAssertNil(DefaultStyle.resource("https://example.com/sprite.json"))
        // Every icon name a style can produce has an entry.
        let sheet = try SpriteSheet(json: DefaultStyle.resource("openmapkit://sprites/default.json")!,
                                    png: DefaultStyle.resource("openmapkit://sprites/default.png")!)
        for style in DefaultStyle.allCases {
            for literal in style.json.matches(of: /"(poi-[a-z_]+|shield[a-z-]*|dot[a-z-]*|peak)"/) {
                let name = String(literal.output.1)
                if name.hasPrefix("poi-") { continue }  // built with concat; covered above
                XCTAssertNotNil(sheet.entries[name], "\(style): \(name)")
            }
        }
    }

    /// Each icon draws something inside its box and nothing outside, and no two icons are the
    /// same picture (a copy-paste slip would make two categories look alike).
    func testIconsAreDistinctAndStayInTheirBox() throws {
        var seen: [[UInt8]: PointOfInterestIcon] = [:]
        for icon in PointOfInterestIcon.allCases {
            let canvas = try RenderCanvas(width: 40, height: 40)
            icon.draw(on: canvas, centerX: 20, centerY: 20, size: 24, color: .black)
            let pixels = canvas.rgbaPixels()
            var inside = 0, outside = 0
            for y in 0..<40 {
                for x in 0..<40 where pixels[(y * 40 + x) * 4 + 3] > 0 {
                    if (7..<33).contains(x) && (7..<33).contains(y) { inside += 1 } else { outside += 1 }
                }
            }
            XCTAssertGreaterThan(inside, 20, "\(icon) draws almost nothing")
            XCTAssertEqual(outside, 0, "\(icon) spills out of its box")
            if let twin = seen[pixels], !(Set([twin, icon]) == [.attraction, .star]) && !(Set([twin, icon]) == [.museum, .townHall]) {
                XCTFail("\(icon) looks exactly like \(twin)")
            }
            seen[pixels] = icon
        }
    }

    /// A hole an icon cuts shows what is under it (the badge colour), not transparency.
    func testIconHolesKeepTheBadgeBelow() throws {
        let canvas = try RenderCanvas(width: 40, height: 40, scale: 2)
        PointOfInterestIcon.post.drawBadge(on: canvas, centerX: 20, centerY: 20, size: 36)
        for y in 0..<80 { for x in 0..<80 where hypot(Double(x) - 40, Double(y) - 40) < 30 {
            XCTAssertEqual(canvas.pixel(x: x, y: y).alpha, 255, "(\(x), \(y)) is see-through")
        } }
    }

    func testSystemImageNames() {
        XCTAssertEqual(PointOfInterestIcon(systemImageName: "fork.knife"), .restaurant)
        XCTAssertEqual(PointOfInterestIcon(systemImageName: "cup.and.saucer.fill"), .cafe)
        XCTAssertEqual(PointOfInterestIcon(systemImageName: "bed.double.fill"), .lodging)
        XCTAssertEqual(PointOfInterestIcon(systemImageName: "airplane.circle.fill"), .airport)
        XCTAssertNil(PointOfInterestIcon(systemImageName: "no.such.symbol"))
        XCTAssertEqual(PointOfInterestIcon(openMapTilesClass: "ferry_terminal"), .ferry)
        XCTAssertNil(PointOfInterestIcon(openMapTilesClass: "unheard_of"))
    }

    /// Writes every icon as a badge and as a glyph at 2×, for looking at.
    func testWriteIconSheet() throws {
        let icons = PointOfInterestIcon.allCases
        let canvas = try RenderCanvas(width: Double(icons.count) * 26 + 4, height: 60, scale: 2)
        canvas.fill(.white)
        for (index, icon) in icons.enumerated() {
            let x = 15 + Double(index) * 26
            icon.drawBadge(on: canvas, centerX: x, centerY: 16, size: 22)
            icon.draw(on: canvas, centerX: x, centerY: 44, size: 22, color: RenderColor(red: 0.2, green: 0.2, blue: 0.25))
        }
        try FileManager.default.createDirectory(at: Self.output, withIntermediateDirectories: true)
        let path = Self.output.appendingPathComponent("icons.png")
        try Data(canvas.pngData()).write(to: path)
        XCTAssertGreaterThan(try Data(contentsOf: path).count, 1000)
    }
}
