// Mapbox's MGLLineStyleLayer: its class and initialiser; its properties are generated
// (MGLStyleLayer+Properties.generated.swift).

import Foundation

/// A layer that strokes lines and polygon outlines (Mapbox's `MGLLineStyleLayer`; MapLibre's
/// `line` layers).
///
/// Differs from Mapbox: see `MGLStyleLayer` (invalid values stop the program with the reason).
public class MGLLineStyleLayer: MGLVectorStyleLayer {
    /// A line layer named `identifier` drawing `source`'s data (set
    /// `sourceLayerIdentifier` for a vector tile source). Add it to a style with
    /// `MGLStyle.addLayer(_:)` or one of the `insertLayer` methods.
    public convenience init(identifier: String, source: MGLSource) {
        self.init(identifier: identifier, layerType: "line", source: source)
    }
}
