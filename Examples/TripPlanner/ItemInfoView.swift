// The talk's info view for the selected result: its name, the drive time from the parking and
// the Look Around scene. Linux: lines of the window's panel; until scenes are drawn (issue 24),
// the preview is the street the scene stands on.

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

    var lines: [String] {
        var line = "\(selectedResult.name ?? "")"
        if let travelTime { line += "  ·  \(travelTime) by car" }
        if let lookAroundScene {
            line += "  ·  Look Around from \(lookAroundScene.streetName ?? "the street")"
        }
        return [line]
    }
}
