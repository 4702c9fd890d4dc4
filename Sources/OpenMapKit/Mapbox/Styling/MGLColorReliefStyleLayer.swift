// Mapbox's MGLColorReliefStyleLayer: its class and initialiser; its properties are generated
// (MGLStyleLayer+Properties.generated.swift).

import Foundation

/// A layer that colours terrain by elevation from raster elevation tiles (MapLibre's
/// `color-relief` layers; `MLNColorReliefStyleLayer` in MapLibre's SDK), from an
/// `MGLRasterDEMSource`.
///
/// Differs from Mapbox: an addition, Mapbox's SDK has no such layer; invalid values stop the
/// program with the reason (see `MGLStyleLayer`).
public class MGLColorReliefStyleLayer: MGLForegroundStyleLayer {
    /// A color-relief layer named `identifier` drawing `source`'s data. Add it to a style with
    /// `MGLStyle.addLayer(_:)` or one of the `insertLayer` methods.
    public convenience init(identifier: String, source: MGLSource) {
        self.init(identifier: identifier, layerType: "color-relief", source: source)
    }
}
