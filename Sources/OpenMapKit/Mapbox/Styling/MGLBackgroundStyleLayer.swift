// Mapbox's MGLBackgroundStyleLayer: its class and initialiser; its properties are generated
// (MGLStyleLayer+Properties.generated.swift).

import Foundation

/// A layer that covers the whole map with a colour or pattern (Mapbox's
/// `MGLBackgroundStyleLayer`; MapLibre's `background` layers); usually the bottom layer.
///
/// Differs from Mapbox: see ``MGLStyleLayer`` (invalid values stop the program with the reason).
public class MGLBackgroundStyleLayer: MGLStyleLayer {
    /// A background layer named `identifier`. Add it to a style with `MGLStyle.addLayer(_:)` or
    /// one of the `insertLayer` methods.
    public convenience init(identifier: String) {
        self.init(identifier: identifier, layerType: "background", source: nil)
    }
}
