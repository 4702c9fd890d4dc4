// Mapbox's MGLCircleStyleLayer: its class and initialiser; its properties are generated
// (MGLStyleLayer+Properties.generated.swift).

import Foundation

/// A layer that draws points as circles (Mapbox's `MGLCircleStyleLayer`; MapLibre's `circle`
/// layers), with radii in points.
///
/// Differs from Mapbox: see `MGLStyleLayer` (invalid values stop the program with the reason).
public class MGLCircleStyleLayer: MGLVectorStyleLayer {
    /// A circle layer named `identifier` drawing `source`'s data (set
    /// `sourceLayerIdentifier` for a vector tile source). Add it to a style with
    /// `MGLStyle.addLayer(_:)` or one of the `insertLayer` methods.
    public convenience init(identifier: String, source: MGLSource) {
        self.init(identifier: identifier, layerType: "circle", source: source)
    }
}
