// The WWDC23 trip planner's map ("Meet MapKit for SwiftUI"), moved from Boston to the Monaco
// sample. The code is the talk's, line for line where Linux allows; the differences are marked.
// There is no SwiftUI here: `MapHost` evaluates `body` before each frame, and the SwiftUI views
// around the map (the buttons, the info view) are a `MapWindowPanel` the window draws.

import Foundation
import MapWindow
import OpenMapKit

extension CLLocationCoordinate2D {
    /// The car park under the Casino gardens (the talk's Boston Common garage).
    static let parking = CLLocationCoordinate2D(latitude: 43.73895, longitude: 7.42630)
}

extension MKCoordinateRegion {
    /// The city (the talk's `.boston`).
    static let monaco = MKCoordinateRegion(
        center: CLLocationCoordinate2D(latitude: 43.7375, longitude: 7.4215),
        span: MKCoordinateSpan(latitudeDelta: 0.025, longitudeDelta: 0.025)
    )

    /// The Larvotto seafront (the talk's `.northShore`).
    static let larvotto = MKCoordinateRegion(
        center: CLLocationCoordinate2D(latitude: 43.7455, longitude: 7.4335),
        span: MKCoordinateSpan(latitudeDelta: 0.008, longitudeDelta: 0.008)
    )
}

@MainActor
struct ContentView {
    @State var position: MapCameraPosition = .automatic
    @State var visibleRegion: MKCoordinateRegion?
    @State var searchResults: [MKMapItem] = []
    @State var selectedResult: MKMapItem?
    @State var route: MKRoute?
    /// The talk keeps this in ItemInfoView's own @State; a panel made afresh each frame cannot
    /// keep state, so it lives here.
    @State var lookAroundScene: MKLookAroundScene?

    var body: Map {
        Map(position: $position, selection: $selectedResult) {
            Annotation("Parking", coordinate: .parking) {
                ZStack {
                    RoundedRectangle(cornerRadius: 5)
                        .fill(.background)
                    RoundedRectangle(cornerRadius: 5)
                        .stroke(.secondary, lineWidth: 5)
                    Image(systemName: "car")
                        .padding(5)
                }
            }
            .annotationTitles(.hidden)

            ForEach(searchResults, id: \.self) { result in
                Marker(item: result)
            }
            .annotationTitles(.hidden)

            if let route {
                MapPolyline(route)
                    .stroke(.blue, lineWidth: 5)
            }

            UserAnnotation()
        }
        .mapStyle(.standard(elevation: .realistic))
        .onChange(of: searchResults) {
            position = .automatic
        }
        .onChange(of: selectedResult) {
            getDirections()
            getLookAroundScene()
        }
        .onMapCameraChange { context in
            visibleRegion = context.region
        }
        .mapControls {
            MapUserLocationButton()
            MapCompass()
            MapScaleView()
        }
    }

    /// The talk's `VStack` under the map: the info view while a result is selected, then the
    /// buttons (Linux: a panel the window draws; see the note at the top).
    var panel: MapWindowPanel {
        var lines: [String] = []
        var preview: LookAroundPreview?
        if let selectedResult {
            let info = ItemInfoView(selectedResult: selectedResult, route: route, lookAroundScene: lookAroundScene)
            lines = info.lines
            preview = info.preview
        }
        let buttons = BeantownButtons(position: $position, searchResults: $searchResults, visibleRegion: visibleRegion)
        return MapWindowPanel(lines: lines, buttons: buttons.buttons, preview: preview)
    }

    func getLookAroundScene() {
        lookAroundScene = nil
        guard let selectedResult else { return }
        Task {
            let request = MKLookAroundSceneRequest(mapItem: selectedResult)
            lookAroundScene = try? await request.scene
        }
    }

    func getDirections() {
        route = nil
        guard let selectedResult else { return }
        let request = MKDirections.Request()
        request.source = MKMapItem(placemark: MKPlacemark(coordinate: .parking))
        request.destination = selectedResult

        Task {
            let directions = MKDirections(request: request)
            let response = try? await directions.calculate()
            route = response?.routes.first
        }
    }
}
