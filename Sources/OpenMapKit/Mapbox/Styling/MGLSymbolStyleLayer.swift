// Mapbox's MGLSymbolStyleLayer: its class and initialiser; its properties are generated
// (MGLStyleLayer+Properties.generated.swift).

import Foundation

/// A layer that places icons and text labels at points and along lines (Mapbox's
/// `MGLSymbolStyleLayer`; MapLibre's `symbol` layers). Icons name images of the style's sprite
/// or added with `MGLStyle.setImage(_:forName:)`.
///
/// Differs from Mapbox: labels are drawn with the installed fonts (`textFontNames` picks among
/// them) and a pitched map's labels lie on the map; invalid values stop the program with the
/// reason (see `MGLStyleLayer`).
public class MGLSymbolStyleLayer: MGLVectorStyleLayer {
    /// A symbol layer named `identifier` drawing `source`'s data (set
    /// `sourceLayerIdentifier` for a vector tile source). Add it to a style with
    /// `MGLStyle.addLayer(_:)` or one of the `insertLayer` methods.
    public convenience init(identifier: String, source: MGLSource) {
        self.init(identifier: identifier, layerType: "symbol", source: source)
    }
}
