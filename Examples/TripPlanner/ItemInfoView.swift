// The talk's info view for the selected result: its name and the drive time from the parking.
// Linux: lines of the window's panel; the Look Around preview waits for Look Around (issue 24).

import Foundation
import OpenMapKit

struct ItemInfoView {
    var selectedResult: MKMapItem
    var route: MKRoute?

    private var travelTime: String? {
        guard let route else { return nil }
        // The talk formats with DateComponentsFormatter, which Foundation on Linux does not
        // have; Duration's formatter writes the same hours and minutes.
        return Duration.seconds(route.expectedTravelTime).formatted(.units(allowed: [.hours, .minutes], width: .abbreviated))
    }

    var lines: [String] {
        var line = "\(selectedResult.name ?? "")"
        if let travelTime { line += "  ·  \(travelTime) by car" }
        return [line]
    }
}
