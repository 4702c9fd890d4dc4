// Mapbox's MGLFillStyleLayer: its class and initialiser; its properties are generated
// (MGLStyleLayer+Properties.generated.swift).

import Foundation

/// A layer that fills polygons (Mapbox's `MGLFillStyleLayer`; MapLibre's `fill` layers), with an
/// optional outline and pattern.
///
/// Differs from Mapbox: see `MGLStyleLayer` (invalid values stop the program with the reason).
public class MGLFillStyleLayer: MGLVectorStyleLayer {
    /// A fill layer named `identifier` drawing `source`'s data (set
    /// `sourceLayerIdentifier` for a vector tile source). Add it to a style with
    /// `MGLStyle.addLayer(_:)` or one of the `insertLayer` methods.
    public convenience init(identifier: String, source: MGLSource) {
        self.init(identifier: identifier, layerType: "fill", source: source)
    }
}
