// Mapbox's MGLHillshadeStyleLayer: its class and initialiser; its properties are generated
// (MGLStyleLayer+Properties.generated.swift).

import Foundation

/// A layer that shades terrain from raster elevation tiles (Mapbox's `MGLHillshadeStyleLayer`;
/// MapLibre's `hillshade` layers), from an `MGLRasterDEMSource`.
///
/// Differs from Mapbox: only the `standard` hillshade method is drawn; invalid values stop the
/// program with the reason (see `MGLStyleLayer`).
public class MGLHillshadeStyleLayer: MGLForegroundStyleLayer {
    /// A hillshade layer named `identifier` drawing `source`'s data. Add it to a style with
    /// `MGLStyle.addLayer(_:)` or one of the `insertLayer` methods.
    public convenience init(identifier: String, source: MGLSource) {
        self.init(identifier: identifier, layerType: "hillshade", source: source)
    }
}
