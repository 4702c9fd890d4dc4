import Foundation
import MapRender
@testable import OpenMapKit
import XCTest

/// The SwiftUI modifiers annotation content is styled with (issue 23): drawn on a canvas and read
/// back pixel by pixel.
final class AnnotationContentModifierTests: XCTestCase {
    /// Draws `content` at its ideal size on a transparent canvas (2 pixels a point).
    func draw(_ content: some AnnotationContent) throws -> (RenderCanvas, CGSize) {
        let size = try XCTUnwrap(content.idealSize)
        let canvas = try RenderCanvas(width: Double(size.width), height: Double(size.height), scale: 2)
        content.draw(on: canvas, in: CGRect(origin: .zero, size: size))
        return (canvas, size)
    }

    func rgba(_ canvas: RenderCanvas, _ x: Double, _ y: Double) -> [Int] {
        let p = canvas.pixel(x: Int(x * 2), y: Int(y * 2))
        return [Int(p.red), Int(p.green), Int(p.blue), Int(p.alpha)]
    }

    func testTheTalksSignInAnnotation() throws {
        // Image(systemName: "figure.wave").padding(4).foregroundStyle(.white).background(Color.indigo).cornerRadius(4)
        let content = Image(systemName: "figure.wave").padding(4).foregroundStyle(.white).background(Color.indigo).cornerRadius(4)
        let (canvas, size) = try draw(content)
        XCTAssertEqual(size, CGSize(width: 28, height: 28), "20-point symbol, 4 points of padding all round")
        XCTAssertEqual(rgba(canvas, 0.2, 0.2)[3], 0, "the corner is cut away")
        let indigo = Color.indigo.renderColor
        let edge = rgba(canvas, 14, 1)
        XCTAssertEqual(Double(edge[0]), indigo.red * 255, accuracy: 3, "the padding shows the background")
        XCTAssertEqual(Double(edge[2]), indigo.blue * 255, accuracy: 3)
        // The symbol is white: some pixel in the middle is near white.
        var white = 0
        for y in stride(from: 6.0, to: 22, by: 0.5) { for x in stride(from: 6.0, to: 22, by: 0.5) where rgba(canvas, x, y)[0...2].allSatisfy({ $0 > 235 }) { white += 1 } }
        XCTAssertGreaterThan(white, 20)
    }

    func testStylesReachOnlyWhatHasNoneOfItsOwn() throws {
        let content = ZStack {
            Rectangle()
            Text("Hi").foregroundStyle(Color(red: 1, green: 0, blue: 0))
        }
        .frame(width: 40, height: 24)
        .foregroundStyle(Color(red: 0, green: 0, blue: 1))
        .font(.caption)
        let (canvas, _) = try draw(content)
        XCTAssertEqual(rgba(canvas, 2, 2), [0, 0, 255, 255], "the bare shape takes the inherited colour")
        var red = 0
        for y in stride(from: 4.0, to: 20, by: 0.5) { for x in stride(from: 4.0, to: 36, by: 0.5) {
            let p = rgba(canvas, x, y)
            if p[0] > 150, p[2] < 100 { red += 1 }
        } }
        XCTAssertGreaterThan(red, 5, "the text keeps its own colour")
        let caption = Text("Casino").font(.caption)
        XCTAssertEqual(caption.fontSize, 12)
        XCTAssertEqual((AnnotationStyle(font: .headline).apply(to: Text("A")) as? Text)?.bold, true)
    }

    func testOverlayOpacityAndShadow() throws {
        let base = Rectangle().fill(Color(red: 0, green: 1, blue: 0)).frame(width: 30, height: 30)
        let overlaid = base.overlay(alignment: .topLeading) {
            Rectangle().fill(Color(red: 1, green: 0, blue: 0)).frame(width: 10, height: 10)
        }
        var (canvas, _) = try draw(overlaid)
        XCTAssertEqual(rgba(canvas, 2, 2), [255, 0, 0, 255], "the overlay sits at the top leading corner")
        XCTAssertEqual(rgba(canvas, 20, 20), [0, 255, 0, 255])
        (canvas, _) = try draw(base.opacity(0.5))
        XCTAssertEqual(Double(rgba(canvas, 15, 15)[3]), 127.5, accuracy: 2, "half opaque")
        // A shadow falls outside the content's outline, offset down.
        let shadowed = Rectangle().fill(Color.white).frame(width: 20, height: 20).padding(6).shadow(radius: 2, y: 3)
        (canvas, _) = try draw(shadowed)
        XCTAssertGreaterThan(rgba(canvas, 16, 28.5)[3], 10, "the shadow shows below")
        XCTAssertEqual(rgba(canvas, 16, 1)[3], 0, "and not above")
    }

    func testRoutePolylineAndResourceImages() async throws {
        let request = MKDirections.Request()
        request.source = MKMapItem(placemark: MKPlacemark(coordinate: .parking))
        request.destination = MKMapItem(placemark: MKPlacemark(coordinate: .casino))
        let directions = MKDirections(request: request, dataSource: try MonacoBundle.dataSource())
        let response = try await directions.calculate()
        let route = try XCTUnwrap(response.routes.first)
        let line = MapPolyline(route).stroke(Color(red: 1, green: 0, blue: 1), lineWidth: 5)
        var scene = MapScene()
        collect(line, into: &scene, MapContentEnvironment())
        XCTAssertTrue(scene.overlays.first?.renderer.overlay === route.polyline)

        // Marker(image:) reads a PNG from a bundle's resources.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marker-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let picture = try RenderCanvas(width: 8, height: 8)
        picture.fill(RenderColor(red: 1, green: 0.5, blue: 0))
        try Data(picture.pngData()).write(to: folder.appendingPathComponent("DucklingAsset.png"))
        let bundle = try XCTUnwrap(Bundle(path: folder.path))
        let marker = Marker("Ducklings", image: "DucklingAsset", bundle: bundle, coordinate: .palace)
        guard case .image(let image) = marker.glyph else { return XCTFail("the image was not found") }
        XCTAssertEqual(image.size, CGSize(width: 8, height: 8))
        guard case .pin = Marker("Missing", image: "NoSuchAsset", coordinate: .palace).glyph else { return XCTFail("a missing image shows the pin") }
    }
}

