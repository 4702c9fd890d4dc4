// Mapbox's MGLRasterStyleLayer: its class and initialiser; its properties are generated
// (MGLStyleLayer+Properties.generated.swift).

import Foundation

/// A layer that draws raster tiles or an image source (Mapbox's `MGLRasterStyleLayer`;
/// MapLibre's `raster` layers), with colour adjustments.
///
/// Differs from Mapbox: nothing fades in (`rasterFadeDuration` is stored, not drawn); invalid
/// values stop the program with the reason (see `MGLStyleLayer`).
public class MGLRasterStyleLayer: MGLForegroundStyleLayer {
    /// A raster layer named `identifier` drawing `source`'s data. Add it to a style with
    /// `MGLStyle.addLayer(_:)` or one of the `insertLayer` methods.
    public convenience init(identifier: String, source: MGLSource) {
        self.init(identifier: identifier, layerType: "raster", source: source)
    }
}
