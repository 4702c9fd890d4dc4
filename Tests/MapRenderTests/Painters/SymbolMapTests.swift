import Foundation
import MapFormats
import MapGeometry
import MapBundle
@testable import MapRender
import MapStyle
import TestSupport
import XCTest

/// Labels on a real map: the Monaco extract imported into a bundle and drawn with place, street
/// and point-of-interest labels.
final class SymbolMapTests: XCTestCase {
    static let style = """
    {"version": 8, "glyphs": "local://{fontstack}/{range}",
     "sources": {"omt": {"type": "vector", "tiles": ["bundle://{z}/{x}/{y}"], "maxzoom": 14}},
     "layers": [
      {"id": "bg", "type": "background", "paint": {"background-color": "#f4f1ea"}},
      {"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-color": "#a8cce8"}},
      {"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation",
       "paint": {"line-color": "#ffffff", "line-width": ["interpolate", ["linear"], ["zoom"], 12, 1, 16, 6]}},
      {"id": "road-labels", "type": "symbol", "source": "omt", "source-layer": "transportation_name",
       "layout": {"text-field": ["get", "name"], "text-font": ["Noto Sans Regular"], "text-size": 12, "symbol-placement": "line"},
       "paint": {"text-color": "#444444", "text-halo-color": "#ffffff", "text-halo-width": 1.5}},
      {"id": "pois", "type": "symbol", "source": "omt", "source-layer": "poi",
       "layout": {"text-field": "{name}", "text-size": 11, "text-max-width": 8, "text-variable-anchor": ["top", "bottom", "left", "right"],
                  "text-radial-offset": 0.6, "symbol-sort-key": ["get", "rank"]},
       "paint": {"text-color": "#8a4b08", "text-halo-color": "#ffffff", "text-halo-width": 1}},
      {"id": "places", "type": "symbol", "source": "omt", "source-layer": "place",
       "layout": {"text-field": ["get", "name"], "text-font": ["Noto Sans Bold"], "text-size": 16, "text-transform": "uppercase",
                  "text-letter-spacing": 0.1},
       "paint": {"text-color": "#222222", "text-halo-color": "#ffffff", "text-halo-width": 2}}
     ]}
    """

    func testMonacoWithLabels() throws {
        let archive = try MonacoTiles.archive()
        let renderer = try StyleRenderer(style: Style(text: Self.style), loader: StyleResourceLoader(tile: { _, id in
            (try? archive.tile(id)).map { [UInt8]($0) }
        }))
        let canvas = try renderer.render(center: CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), zoom: 15.5,
                                         width: 800, height: 600, pixelRatio: 1)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-monaco-labels.png")
        try Data(canvas.pngData()).write(to: output)
        print("Monaco with labels: \(output.path)")

        let pois = renderer.placedSymbols["pois"] ?? []
        XCTAssertGreaterThan(pois.count, 5)
        XCTAssertGreaterThan(renderer.placedSymbols["places"]?.count ?? 0, 0)

        // Street names alone (above, the denser points of interest take most of the room first).
        var streets = try Style(text: Self.style)
        streets.layers.removeAll { $0.id == "pois" || $0.id == "places" }
        let streetRenderer = try StyleRenderer(style: streets, loader: StyleResourceLoader(tile: { _, id in
            (try? archive.tile(id)).map { [UInt8]($0) }
        }))
        let streetCanvas = try streetRenderer.render(center: CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), zoom: 15.5,
                                                     width: 800, height: 600, pixelRatio: 1)
        try Data(streetCanvas.pngData()).write(to: FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-monaco-streets.png"))
        let roads = streetRenderer.placedSymbols["road-labels"] ?? []
        XCTAssertGreaterThan(roads.count, 10, "street names along the streets")
        XCTAssertTrue(roads.allSatisfy { $0.glyphs.count > 1 })
        // Collisions: glyphs of two different placed labels are never on top of each other.
        func stacked(_ symbols: [PlacedSymbol]) -> Int {
            var origins: [(label: Int, x: Double, y: Double)] = []
            for (index, symbol) in symbols.enumerated() { for g in symbol.glyphs { origins.append((index, g.x, g.y)) } }
            var close = 0
            for a in origins {
                for b in origins where b.label > a.label && abs(a.x - b.x) < 2 && abs(a.y - b.y) < 2 { close += 1 }
            }
            return close
        }
        XCTAssertEqual(stacked(renderer.placedSymbols.values.flatMap { $0 }), 0)
        XCTAssertEqual(stacked(roads), 0)
        // No street name twice in the same place (tile buffers, neighbouring tiles).
        var duplicates = 0
        for (i, a) in roads.enumerated() {
            for b in roads[(i + 1)...] where LineLabelPlacement.distance(a.anchor, b.anchor) < 10 { duplicates += 1 }
        }
        XCTAssertEqual(duplicates, 0)

        // Areas the caller reserves (markers drawn over the map) keep every label out: with the
        // left half reserved, no glyph lands there, and labels still fill the right half.
        XCTAssertTrue(renderer.placedSymbols.values.joined().contains { $0.glyphs.contains { $0.x < 390 } })
        renderer.reservedLabelAreas = [(x: 0, y: 0, width: 400, height: 600)]
        _ = try renderer.render(center: CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), zoom: 15.5,
                                width: 800, height: 600, pixelRatio: 1)
        let reserved = renderer.placedSymbols.values.joined()
        XCTAssertGreaterThan(reserved.count, 3)
        XCTAssertFalse(reserved.contains { $0.glyphs.contains { $0.x < 390 } }, "a label in the reserved half")
    }
}
