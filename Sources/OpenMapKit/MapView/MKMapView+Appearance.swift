// MKMapView's appearance: light or dark, as UIKit's trait collection says. The dark appearance
// draws the dark map style (as snapshots do for a dark trait collection), the dark callout,
// controls, scale bar and titles.

import Foundation

extension MKMapView {
    /// The appearance the view uses whatever its environment's (UIKit's
    /// `overrideUserInterfaceStyle`): `.dark` draws the dark map, `.light` and `.unspecified`
    /// the light one (there is no system appearance to follow here).
    public var overrideUserInterfaceStyle: UIUserInterfaceStyle {
        get { configurationState.userInterfaceStyle }
        set { configurationState.userInterfaceStyle = newValue }
    }

    /// The traits the view is drawn for (UIKit's `traitCollection`): its
    /// ``overrideUserInterfaceStyle`` (`.light` when that is unspecified) and its
    /// ``contentScaleFactor`` as the display scale.
    public var traitCollection: UITraitCollection {
        var traits = UITraitCollection(userInterfaceStyle: overrideUserInterfaceStyle == .unspecified ? .light : overrideUserInterfaceStyle)
        traits.displayScale = contentScaleFactor
        return traits
    }
}
