// Mapbox's MGLFillExtrusionStyleLayer: its class and initialiser; its properties are generated
// (MGLStyleLayer+Properties.generated.swift).

import Foundation

/// A layer that extrudes polygons into 3D shapes (Mapbox's `MGLFillExtrusionStyleLayer`;
/// MapLibre's `fill-extrusion` layers).
///
/// Differs from Mapbox: OpenMapKit's renderer draws the roofs as seen from above (a pitched map
/// is drawn flat and warped) and no extrusion patterns; invalid values stop the program with the
/// reason (see `MGLStyleLayer`).
public class MGLFillExtrusionStyleLayer: MGLVectorStyleLayer {
    /// A fill-extrusion layer named `identifier` drawing `source`'s data (set
    /// `sourceLayerIdentifier` for a vector tile source). Add it to a style with
    /// `MGLStyle.addLayer(_:)` or one of the `insertLayer` methods.
    public convenience init(identifier: String, source: MGLSource) {
        self.init(identifier: identifier, layerType: "fill-extrusion", source: source)
    }
}
