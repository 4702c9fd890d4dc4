// Mapbox's MGLHeatmapStyleLayer: its class and initialiser; its properties are generated
// (MGLStyleLayer+Properties.generated.swift).

import Foundation

/// A layer that draws the density of points as a heatmap (Mapbox's `MGLHeatmapStyleLayer`;
/// MapLibre's `heatmap` layers).
///
/// Differs from Mapbox: see `MGLStyleLayer` (invalid values stop the program with the reason).
public class MGLHeatmapStyleLayer: MGLVectorStyleLayer {
    /// A heatmap layer named `identifier` drawing `source`'s data (set
    /// `sourceLayerIdentifier` for a vector tile source). Add it to a style with
    /// `MGLStyle.addLayer(_:)` or one of the `insertLayer` methods.
    public convenience init(identifier: String, source: MGLSource) {
        self.init(identifier: identifier, layerType: "heatmap", source: source)
    }
}
