// The talk's buttons view: searches near the parking (or in the visible region) and camera
// positions. Linux: a row of `MapWindowButton`s instead of SwiftUI `Button`s with labels.

import Foundation
import MapWindow
import OpenMapKit

@MainActor
struct BeantownButtons {
    @Binding var position: MapCameraPosition
    @Binding var searchResults: [MKMapItem]
    var visibleRegion: MKCoordinateRegion?

    var buttons: [MapWindowButton] {
        [
            MapWindowButton("Playgrounds") { search(for: "playground") },
            MapWindowButton("Beaches") { search(for: "beach") },
            MapWindowButton("Monaco") { position = .region(.monaco) },
            MapWindowButton("Larvotto") { position = .region(.larvotto) },
        ]
    }

    func search(for query: String) {
        let request = MKLocalSearch.Request()
        request.naturalLanguageQuery = query
        request.resultTypes = .pointOfInterest
        request.region = visibleRegion ?? MKCoordinateRegion(
            center: .parking,
            span: MKCoordinateSpan(latitudeDelta: 0.0125, longitudeDelta: 0.0125))

        Task {
            let search = MKLocalSearch(request: request)
            let response = try? await search.start()
            searchResults = response?.mapItems ?? []
        }
    }
}
