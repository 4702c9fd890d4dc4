// The talk's info view for the selected result: its Look Around preview with the name and the
// drive time from the parking. Linux: the preview and a line of the window's panel (the talk
// overlays the text on the preview's bottom-trailing corner).

import Foundation
import OpenMapKit

struct ItemInfoView {
    var selectedResult: MKMapItem
    var route: MKRoute?
    var lookAroundScene: MKLookAroundScene?

    private var travelTime: String? {
        guard let route else { return nil }
        // The talk formats with DateComponentsFormatter, which Foundation on Linux does not
        // have; Duration's formatter writes the same hours and minutes.
        return Duration.seconds(route.expectedTravelTime).formatted(.units(allowed: [.hours, .minutes], width: .abbreviated))
    }

    /// The talk's `LookAroundPreview(initialScene: lookAroundScene)`.
    var preview: LookAroundPreview {
        LookAroundPreview(initialScene: lookAroundScene)
    }

    var lines: [String] {
        var line = "\(selectedResult.name ?? "")"
        if let travelTime { line += "  ·  \(travelTime) by car" }
        return [line]
    }
}
