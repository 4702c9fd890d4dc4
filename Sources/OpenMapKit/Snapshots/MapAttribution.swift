// The credit a map owes its data. OpenStreetMap's licence (ODbL) asks for "© OpenStreetMap
// contributors" wherever a map made from its data is shown, as MapKit shows its "Legal" label and
// Mapbox its attribution on every map: so snapshots, map view frames (and with them the window
// and the server's static maps) draw it unless the caller says it shows the credit itself.

import Foundation
import MapRender
import MapStyle

/// The attribution of a drawn style and how it is drawn.
enum MapAttribution {
    /// The credit OpenStreetMap's licence asks for.
    static let openStreetMap = "© OpenStreetMap contributors"

    /// The credits of the sources a style draws from (those its visible layers use), each once,
    /// in source order: their `attribution` strings, and OpenStreetMap's for the bundle's vector
    /// tiles (imported from OpenStreetMap).
    static func lines(of style: Style) -> [String] {
        let used = Set(style.layers.filter(\.isVisible).compactMap(\.source))
        var seen: [String] = []
        for (id, source) in style.sources where used.contains(id) {
            var texts: [String] = []
            if let text = source.attribution, !text.isEmpty { texts.append(text) }
            if source.tiles.contains(where: { $0.hasPrefix("bundle://") }) { texts.append(openStreetMap) }
            for text in texts where !seen.contains(text) { seen.append(text) }
        }
        return seen
    }

    /// Where the attribution of `lines` sits in a view of `size`: its label at `placement`; nil
    /// when there is nothing to credit.
    static func frame(of lines: [String], at placement: MapViewOrnamentLayout.Placement, in size: CGSize) -> CGRect? {
        guard !lines.isEmpty else { return nil }
        return MapViewOrnaments.frame(of: MapViewOrnaments.labelSize(text(lines), size: MapViewOrnaments.attributionTextSize),
                                      at: placement, in: size)
    }

    /// Draws the label of `lines` at `placement` on a canvas of `size` points.
    static func draw(_ lines: [String], at placement: MapViewOrnamentLayout.Placement, in size: CGSize, on canvas: RenderCanvas) {
        guard let frame = frame(of: lines, at: placement, in: size) else { return }
        MapViewOrnaments.drawLabel(text(lines), size: MapViewOrnaments.attributionTextSize, bold: false, in: frame, on: canvas)
    }

    /// The lines as one label.
    static func text(_ lines: [String]) -> String { lines.joined(separator: " ") }

    /// Where MapKit's face and snapshots put it: the bottom-right corner, 8 points in (where
    /// MapKit puts its "Legal" label and Mapbox its attribution).
    static let placement = MapViewOrnamentLayout.Placement(corner: .bottomRight, margins: CGPoint(x: 8, y: 8))
}
