import Foundation
import MapFormats
import MapGeometry
@testable import MapRender
import MapStyle
import XCTest

/// Symbol layers drawn by the style renderer: placement, collisions, line labels, icons.
final class SymbolRenderTests: XCTestCase {
    /// A style of a white background and the given layers over one inline GeoJSON source "s".
    func style(_ geojson: String, _ layers: String, sprite: String? = nil) throws -> Style {
        let spriteMember = sprite.map { "\"sprite\": \"\($0)\"," } ?? ""
        return try Style(text: """
        {"version": 8, \(spriteMember) "glyphs": "local://{fontstack}/{range}", "sources": {"s": {"type": "geojson", "data": \(geojson)}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}, \(layers)]}
        """)
    }

    func point(_ lon: Double, _ lat: Double, _ properties: String = "{}") -> String {
        #"{"type": "Feature", "properties": \#(properties), "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
    }

    func collection(_ features: [String]) -> String { #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"# }

    func render(_ style: Style, zoom: Double = 4, width: Double = 256, height: Double = 256, margin: Double = 0,
                resources: [String: [UInt8]] = [:], pixelRatio: Double = 1) throws -> (StyleRenderer, RenderCanvas) {
        let renderer = try StyleRenderer(style: style, loader: StyleResourceLoader(tile: { _, _ in nil }, resource: { resources[$0] }))
        renderer.labelMargin = margin
        let canvas = try renderer.render(center: CLLocationCoordinate2D(latitude: 0, longitude: 0), zoom: zoom, width: width,
                                         height: height, pixelRatio: pixelRatio)
        return (renderer, canvas)
    }

    /// Pixels in a rectangle (in pixels) whose colour is near `color`.
    func count(_ canvas: RenderCanvas, near color: (Int, Int, Int), in rect: (x: Range<Int>, y: Range<Int>)? = nil, tolerance: Int = 60) -> Int {
        var n = 0
        for y in rect?.y ?? 0..<canvas.pixelHeight {
            for x in rect?.x ?? 0..<canvas.pixelWidth {
                let p = canvas.pixel(x: x, y: y)
                if abs(Int(p.red) - color.0) + abs(Int(p.green) - color.1) + abs(Int(p.blue) - color.2) < tolerance, p.alpha > 200 { n += 1 }
            }
        }
        return n
    }

    func textLayer(_ id: String, color: String = "#ff0000", extra: String = "") -> String {
        #"{"id": "\#(id)", "type": "symbol", "source": "s", "layout": {"text-field": ["get", "name"], "text-font": ["Open Sans Regular"], "text-size": 20\#(extra)}, "paint": {"text-color": "\#(color)"}}"#
    }

    // MARK: Point labels

    func testPointLabelIsDrawnAroundItsAnchor() throws {
        let (renderer, canvas) = try render(style(collection([point(0, 0, #"{"name": "Monaco"}"#)]), textLayer("t")))
        try Data(canvas.pngData()).write(to: URL(fileURLWithPath: NSTemporaryDirectory() + "openmapkit-point-label.png"))
        let placed = try XCTUnwrap(renderer.placedSymbols["t"])
        XCTAssertEqual(placed.count, 1)
        XCTAssertEqual(placed[0].anchor.x, 128, accuracy: 1e-6)
        let near = count(canvas, near: (255, 0, 0), in: (88..<168, 112..<144))
        XCTAssertGreaterThan(near, 40)
        XCTAssertEqual(count(canvas, near: (255, 0, 0)), near, "no text away from the anchor")
    }

    func testUpperLayersArePlacedFirst() throws {
        let data = collection([point(0, 0, #"{"name": "Overlapping"}"#)])
        // The blue layer is above the red one, so it wins the place even though it is drawn later.
        let layers = textLayer("red") + "," + textLayer("blue", color: "#0000ff")
        let (_, canvas) = try render(style(data, layers))
        XCTAssertGreaterThan(count(canvas, near: (0, 0, 255)), 40)
        XCTAssertEqual(count(canvas, near: (255, 0, 0)), 0)
        // With overlap allowed both are drawn, red first (below).
        let both = textLayer("red", extra: #", "text-allow-overlap": true"#) + "," + textLayer("blue", color: "#0000ff")
        let (renderer, _) = try render(style(data, both))
        XCTAssertEqual(renderer.placedSymbols["red"]?.count, 1)
        XCTAssertEqual(renderer.placedSymbols["blue"]?.count, 1)
    }

    func testSortKeyAndFeatureOrderDecidePriorityWithinALayer() throws {
        let data = collection([point(0, 0, #"{"name": "First", "rank": 2}"#), point(0.2, 0, #"{"name": "Second", "rank": 1}"#)])
        let (plain, _) = try render(style(data, textLayer("t")))
        XCTAssertEqual(plain.placedSymbols["t"]?.count, 1)
        XCTAssertEqual(plain.placedSymbols["t"]?.first?.anchor.x ?? 0, 128, accuracy: 0.01, "source order: the first feature wins")
        let (sorted, _) = try render(style(data, textLayer("t", extra: #", "symbol-sort-key": ["get", "rank"]"#)))
        XCTAssertEqual(sorted.placedSymbols["t"]?.count, 1)
        XCTAssertGreaterThan(sorted.placedSymbols["t"]?.first?.anchor.x ?? 0, 130, "the lower sort key wins")
    }

    func testPaddingKeepsLabelsApart() throws {
        // Two short labels 60 points apart (at zoom 4, 1° of longitude is about 22.8 points).
        let data = collection([point(-1.3, 0, #"{"name": "ab"}"#), point(1.3, 0, #"{"name": "cd"}"#)])
        let (loose, _) = try render(style(data, textLayer("t", extra: #", "text-padding": 0"#)))
        XCTAssertEqual(loose.placedSymbols["t"]?.count, 2)
        let (padded, _) = try render(style(data, textLayer("t", extra: #", "text-padding": 20"#)))
        XCTAssertEqual(padded.placedSymbols["t"]?.count, 1)
    }

    func testVariableAnchorsTryTheNextAnchorWhenOneCollides() throws {
        let data = collection([point(0, 0, #"{"name": "Blocker"}"#), point(0, -0.6, #"{"name": "Moved"}"#)])
        let layout = #", "text-variable-anchor": ["center", "top", "bottom"], "text-radial-offset": 0.5"#
        let (renderer, _) = try render(style(data, textLayer("t", extra: layout)))
        let placed = try XCTUnwrap(renderer.placedSymbols["t"])
        XCTAssertEqual(placed.count, 2)
        // The second label, just south of the first, went below its point ("top" anchor).
        let moved = placed[1]
        XCTAssertGreaterThan(moved.glyphs.map(\.y).min()!, moved.anchor.y + 10)
        // Without variable anchors it is dropped.
        let (fixed, _) = try render(style(data, textLayer("t")))
        XCTAssertEqual(fixed.placedSymbols["t"]?.count, 1)
    }

    func testLabelsMustFitInTheImageOrItsMargin() throws {
        // The anchor is 4 points inside the left edge: the centred text sticks out.
        let data = collection([point(-5.43, 0, #"{"name": "Edge label"}"#)])
        let (inside, _) = try render(style(data, textLayer("t")))
        XCTAssertEqual(inside.placedSymbols["t"]?.count, 0)
        let (margin, _) = try render(style(data, textLayer("t")), margin: 64)
        XCTAssertEqual(margin.placedSymbols["t"]?.count, 1)
    }

    func testHaloIsDrawnUnderTheText() throws {
        let data = collection([point(0, 0, #"{"name": "Halo"}"#)])
        let layer = ##"{"id": "t", "type": "symbol", "source": "s", "layout": {"text-field": ["get", "name"], "text-size": 24}, "paint": {"text-color": "#000000", "text-halo-color": "#00ff00", "text-halo-width": 3}}"##
        let (_, canvas) = try render(style(data, layer))
        XCTAssertGreaterThan(count(canvas, near: (0, 255, 0)), 100)
        XCTAssertGreaterThan(count(canvas, near: (0, 0, 0)), 40)
    }

    func testBadValuesDoNotCrashOrBlankTheRest() throws {
        let data = collection([point(0, 0, #"{"name": ""}"#), point(0, 2, #"{"name": "Fine"}"#), point(0, -2, #"{"name": 42}"#)])
        let layers = [
            textLayer("empty"),
            #"{"id": "huge", "type": "symbol", "source": "s", "layout": {"text-field": "Huge", "text-size": 10000, "text-max-width": 1e300}}"#,
            #"{"id": "nan", "type": "symbol", "source": "s", "layout": {"text-field": "x", "text-size": ["/", 0, 0], "text-letter-spacing": 1e9}}"#,
            ##"{"id": "nofont", "type": "symbol", "source": "s", "layout": {"text-field": ["to-string", ["get", "name"]], "text-font": ["No Such Font Bold"], "text-allow-overlap": true}, "paint": {"text-color": "#0000ff"}}"##,
        ].joined(separator: ",")
        let (renderer, canvas) = try render(style(data, layers))
        XCTAssertEqual(renderer.placedSymbols["huge"]?.count, 0, "a 10000-point label does not fit")
        // The missing font falls back: "Fine" and "42" are drawn (the empty name is not).
        XCTAssertEqual(renderer.placedSymbols["nofont"]?.count, 2)
        XCTAssertGreaterThan(count(canvas, near: (0, 0, 255)), 20)
    }

    // MARK: Line labels

    func line(_ coordinates: [(Double, Double)], name: String) -> String {
        let points = coordinates.map { "[\($0.0), \($0.1)]" }.joined(separator: ",")
        return #"{"type": "Feature", "properties": {"name": "\#(name)"}, "geometry": {"type": "LineString", "coordinates": [\#(points)]}}"#
    }

    func lineLayer(_ extra: String = "") -> String {
        ##"{"id": "t", "type": "symbol", "source": "s", "layout": {"text-field": ["get", "name"], "text-size": 14, "symbol-placement": "line"\##(extra)}, "paint": {"text-color": "#000000"}}"##
    }

    func testKeepUprightFlipsLabelsOnLinesDrawnLeftwards() throws {
        // Drawn from east to west: without keep-upright the glyphs would be upside down.
        let data = collection([line([(8, 1), (-8, 0)], name: "Westward Road")])
        let (upright, _) = try render(style(data, lineLayer()), width: 512)
        let glyphs = try XCTUnwrap(upright.placedSymbols["t"]?.first?.glyphs)
        XCTAssertTrue(glyphs.allSatisfy { cos($0.angle) > 0.9 }, "\(glyphs.map(\.angle))")
        // Left to right reading order: each glyph origin is right of the previous one.
        XCTAssertTrue(zip(glyphs, glyphs.dropFirst()).allSatisfy { $0.x < $1.x })
        let (flipped, _) = try render(style(data, lineLayer(#", "text-keep-upright": false"#)), width: 512)
        XCTAssertTrue(flipped.placedSymbols["t"]?.first?.glyphs.allSatisfy { cos($0.angle) < -0.9 } ?? false)
    }

    func testGlyphsFollowACurvedLine() throws {
        // A gentle arc: the glyph angles change along the label, each glyph on the line.
        let arc = (0...40).map { i -> (Double, Double) in
            let t = Double(i) / 40 * .pi
            return (-8 * cos(t), 4 * sin(t) - 2)
        }
        let data = collection([line(arc, name: "Curving Avenue of the Arc")])
        let (renderer, canvas) = try render(style(data, lineLayer(#", "text-max-angle": 90"#)), width: 512, height: 320)
        let placed = try XCTUnwrap(renderer.placedSymbols["t"])
        XCTAssertFalse(placed.isEmpty)
        let angles = placed[0].glyphs.map(\.angle)
        XCTAssertGreaterThan(angles.max()! - angles.min()!, 0.3, "\(angles)")
        // Angles change smoothly from glyph to glyph.
        XCTAssertTrue(zip(angles, angles.dropFirst()).allSatisfy { abs($0 - $1) < 0.3 })
        XCTAssertGreaterThan(count(canvas, near: (0, 0, 0)), 50)
        try? Data(canvas.pngData()).write(to: URL(fileURLWithPath: NSTemporaryDirectory() + "openmapkit-curved-label.png"))
    }

    func testMaxAngleRejectsLabelsOverSharpBends() throws {
        let zigzag = (0...16).map { i -> (Double, Double) in (-8 + Double(i), i % 2 == 0 ? 0 : 1) }
        let data = collection([line(zigzag, name: "Zigzag")])
        let (renderer, _) = try render(style(data, lineLayer()), width: 512)
        XCTAssertEqual(renderer.placedSymbols["t"]?.count, 0)
    }

    func testLineLabelsAreNotDuplicatedAcrossTiles() throws {
        // Two neighbouring z1 tiles, each holding its half of one road plus a 512-unit buffer
        // into the other, as tilers write them.
        func tile(_ from: Int32, _ to: Int32) -> [UInt8] {
            let feature = VectorTile.Feature(id: 7, properties: [.init("name", .string("Long Road"))],
                                             geometry: .lines([[.init(from, 2048), .init(to, 2048)]]))
            var encoder = VectorTileEncoder()
            encoder.append(VectorTile.Layer(name: "roads", extent: 4096, features: [feature]))
            return encoder.bytes
        }
        let west = tile(100, 4096 + 512), east = tile(-512, 3996)
        let style = try Style(text: """
        {"version": 8, "glyphs": "local://{fontstack}/{range}", "sources": {"v": {"type": "vector", "tiles": ["t/{z}/{x}/{y}"], "maxzoom": 1}},
         "layers": [{"id": "t", "type": "symbol", "source": "v", "source-layer": "roads",
                     "layout": {"text-field": ["get", "name"], "text-size": 12, "symbol-placement": "line", "symbol-spacing": 100,
                                "text-allow-overlap": true}}]}
        """)
        let renderer = try StyleRenderer(style: style, loader: StyleResourceLoader(tile: { _, id in
            guard id.z == 1, id.y == 0 else { return nil }
            return id.x == 0 ? west : id.x == 1 ? east : nil
        }))
        // The view straddles the seam between the tiles, at the middle of the top row.
        _ = try renderer.render(center: CLLocationCoordinate2D(latitude: 66.5, longitude: 0), zoom: 1, width: 1024, height: 200)
        let anchors = try XCTUnwrap(renderer.placedSymbols["t"]).map(\.anchor.x).sorted()
        XCTAssertGreaterThan(anchors.count, 4)
        // Evenly spread: no two labels nearly on top of each other where the buffers overlap.
        XCTAssertTrue(zip(anchors, anchors.dropFirst()).allSatisfy { $1 - $0 > 40 }, "\(anchors)")
    }

    // MARK: Icons

    /// A sprite of one 10×10 red square ("dot") and one 20×10 blue one ("bar").
    func spriteResources() throws -> [String: [UInt8]] {
        let sheet = try RenderCanvas(width: 30, height: 10)
        sheet.fill(rings: [[(0, 0), (10, 0), (10, 10), (0, 10)]], color: RenderColor(red: 1, green: 0, blue: 0))
        sheet.fill(rings: [[(10, 0), (30, 0), (30, 10), (10, 10)]], color: RenderColor(red: 0, green: 0, blue: 1))
        let json = #"{"dot": {"x": 0, "y": 0, "width": 10, "height": 10, "pixelRatio": 1}, "bar": {"x": 10, "y": 0, "width": 20, "height": 10, "pixelRatio": 1}}"#
        return ["test://sprite.json": Array(json.utf8), "test://sprite.png": try sheet.pngData()]
    }

    func testIconFromTheSpriteIsDrawnAtItsPlace() throws {
        let data = collection([point(0, 0)])
        let layer = #"{"id": "i", "type": "symbol", "source": "s", "layout": {"icon-image": "dot", "icon-size": 2}}"#
        let (renderer, canvas) = try render(style(data, layer, sprite: "test://sprite"), resources: spriteResources())
        XCTAssertEqual(renderer.warnings, [])
        // 20 × 20 points centred on (128, 128).
        XCTAssertEqual(count(canvas, near: (255, 0, 0), in: (118..<138, 118..<138)), 400)
        XCTAssertEqual(count(canvas, near: (255, 0, 0)), 400)
        // icon-anchor bottom puts the square above the point.
        let above = #"{"id": "i", "type": "symbol", "source": "s", "layout": {"icon-image": "dot", "icon-anchor": "bottom"}}"#
        let (_, moved) = try render(style(data, above, sprite: "test://sprite"), resources: spriteResources())
        XCTAssertEqual(count(moved, near: (255, 0, 0), in: (123..<133, 118..<128)), 100)
    }

    func testHighDensitySpriteFallsBackToTheOneTimesFiles() throws {
        let data = collection([point(0, 0)])
        let layer = #"{"id": "i", "type": "symbol", "source": "s", "layout": {"icon-image": "dot"}}"#
        let (renderer, canvas) = try render(style(data, layer, sprite: "test://sprite"), resources: spriteResources(), pixelRatio: 2)
        XCTAssertEqual(renderer.warnings, [])
        // 10 points are 20 device pixels.
        XCTAssertEqual(count(canvas, near: (255, 0, 0)), 400)
    }

    func testIconTextFitStretchesTheIconAroundTheText() throws {
        let data = collection([point(0, 0, #"{"name": "Shield text"}"#)])
        let layer = ##"{"id": "t", "type": "symbol", "source": "s", "layout": {"text-field": ["get", "name"], "text-size": 14, "icon-image": "bar", "icon-text-fit": "both", "icon-text-fit-padding": [2, 6, 2, 6]}, "paint": {"text-color": "#ffffff"}}"##
        let (renderer, canvas) = try render(style(data, layer, sprite: "test://sprite"), resources: spriteResources())
        let symbol = try XCTUnwrap(renderer.placedSymbols["t"]?.first)
        let icon = try XCTUnwrap(symbol.icon)
        let label = try XCTUnwrap(ShapedLabel.shape(TextShapeKey(text: "Shield text", stack: ["Open Sans Regular", "Arial Unicode MS Regular"],
                                                                  size: 14, maxWidth: 10, letterSpacing: 0),
                                                    catalog: FontCatalog(entries: FontCatalog.installed.entries)))
        XCTAssertEqual(icon.width, label.maxLineWidth + 12, accuracy: 0.01)
        XCTAssertEqual(icon.height, 14 * 1.2 + 4, accuracy: 0.01)
        XCTAssertEqual(icon.center.x, 128, accuracy: 0.01)
        // The blue box is drawn under white text.
        XCTAssertGreaterThan(count(canvas, near: (0, 0, 255)), Int(icon.width * icon.height * 0.5))
        XCTAssertGreaterThan(count(canvas, near: (255, 255, 255), in: (Int(128 - icon.width / 2)..<Int(128 + icon.width / 2), 120..<136)), 20)
    }

    func testMissingImageOrSpriteStillDrawsTheText() throws {
        let data = collection([point(0, 0, #"{"name": "Text"}"#)])
        let layer = ##"{"id": "t", "type": "symbol", "source": "s", "layout": {"text-field": ["get", "name"], "icon-image": "nope"}, "paint": {"text-color": "#ff0000"}}"##
        let (renderer, canvas) = try render(style(data, layer, sprite: "test://sprite"), resources: spriteResources())
        XCTAssertTrue(renderer.warnings.contains { $0.contains("\"nope\"") }, "\(renderer.warnings)")
        XCTAssertGreaterThan(count(canvas, near: (255, 0, 0)), 20)
        // No sprite at all at that URL.
        let (lost, lostCanvas) = try render(style(data, layer, sprite: "test://missing"), resources: spriteResources())
        XCTAssertTrue(lost.warnings.contains { $0.contains("test://missing") }, "\(lost.warnings)")
        XCTAssertGreaterThan(count(lostCanvas, near: (255, 0, 0)), 20)
    }

    // MARK: Text fields, rotation, SDF icons, sprite lists

    func testTextFieldsFromNumbersFormatsTokensAndTransforms() throws {
        let data = collection([point(0, 0, #"{"name": "Elm", "n": 42}"#)])
        func glyphs(_ layout: String) throws -> [CanvasGlyph] {
            let layer = #"{"id": "t", "type": "symbol", "source": "s", "layout": {"text-allow-overlap": true, "#  + layout + "}}"
            let (renderer, _) = try render(style(data, layer))
            return try XCTUnwrap(renderer.placedSymbols["t"]?.first?.glyphs, layout)
        }
        XCTAssertEqual(try glyphs(#""text-field": "{name} road""#).count, 8)
        XCTAssertEqual(try glyphs(#""text-field": ["get", "n"]"#).count, 2)
        XCTAssertEqual(try glyphs(#""text-field": ["format", "A", {}, ["get", "name"], {"font-scale": 0.8}]"#).count, 4)
        let upper = try glyphs(#""text-field": ["get", "name"], "text-transform": "uppercase""#)
        let literal = try glyphs(#""text-field": "ELM""#)
        XCTAssertEqual(upper.map(\.id), literal.map(\.id))
        // text-rotate turns the label clockwise about its anchor.
        let rotated = try glyphs(#""text-field": "Elm", "text-rotate": 90"#)
        XCTAssertTrue(rotated.allSatisfy { abs($0.angle - .pi / 2) < 1e-9 })
        XCTAssertTrue(zip(rotated, rotated.dropFirst()).allSatisfy { $0.y < $1.y }, "the text now runs downwards")
    }

    func testSignedDistanceFieldIconsAreTintedWithIconColor() throws {
        // A 20-pixel SDF image: opaque (far inside) in its middle 10 × 10, empty outside.
        let sheet = try RenderCanvas(width: 20, height: 20)
        sheet.fill(rings: [[(5, 5), (15, 5), (15, 15), (5, 15)]], color: .black)
        let json = #"{"shape": {"x": 0, "y": 0, "width": 20, "height": 20, "pixelRatio": 1, "sdf": true}}"#
        let resources = ["test://sdf.json": Array(json.utf8), "test://sdf.png": try sheet.pngData()]
        let layer = ##"{"id": "i", "type": "symbol", "source": "s", "layout": {"icon-image": "shape"}, "paint": {"icon-color": "#00ff00"}}"##
        let (_, canvas) = try render(style(collection([point(0, 0)]), layer, sprite: "test://sdf"), resources: resources)
        XCTAssertGreaterThan(count(canvas, near: (0, 255, 0), in: (120..<136, 120..<136)), 60)
        XCTAssertEqual(count(canvas, near: (0, 0, 0)), 0, "the image's own colour is not drawn")
    }

    func testSpriteListsNameImagesWithTheirID() throws {
        let style = try Style(text: """
        {"version": 8, "sprite": [{"id": "extra", "url": "test://sprite"}],
         "sources": {"s": {"type": "geojson", "data": \(collection([point(0, 0)]))}},
         "layers": [{"id": "i", "type": "symbol", "source": "s", "layout": {"icon-image": "extra:dot"}}]}
        """)
        let (renderer, canvas) = try render(style, resources: spriteResources())
        XCTAssertEqual(renderer.warnings, [])
        XCTAssertEqual(count(canvas, near: (255, 0, 0)), 100)
    }

    func testLabelsInOtherScriptsAreDrawn() throws {
        let names = ["القاهرة", "תל אביב", "नई दिल्ली", "กรุงเทพ", "東京"]
        let data = collection(names.enumerated().map { point(0, 4 - 2 * Double($0.offset), #"{"name": "\#($0.element)"}"#) })
        let (renderer, canvas) = try render(style(data, textLayer("t", color: "#000000")), height: 300)
        try Data(canvas.pngData()).write(to: URL(fileURLWithPath: NSTemporaryDirectory() + "openmapkit-scripts.png"))
        let placed = try XCTUnwrap(renderer.placedSymbols["t"])
        XCTAssertEqual(placed.count, names.count)
        for symbol in placed {
            // Every label is centred on its point and drawn left to right in visual order.
            let xs = symbol.glyphs.map(\.x)
            XCTAssertEqual((xs.min()! + xs.max()!) / 2, 128, accuracy: 20)
            XCTAssertEqual(xs, xs.sorted())
        }
        XCTAssertGreaterThan(count(canvas, near: (0, 0, 0)), 200)
    }
}
