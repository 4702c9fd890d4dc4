import ArgumentParser
import Foundation
import MapWindow
@_spi(MapWindow) import OpenMapKit

/// `openmapkit view BUNDLE`: the bundle's map in a desktop window (SDL2, the MapWindow module),
/// driven through the headless `MKMapView` model, so the window is a thin shell that turns mouse,
/// wheel and keys into the model's gestures and shows its `render()`. This command parses the
/// arguments, makes the map view and places its camera; the window does the rest.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Show the bundle's map in a window (SDL2): pan, zoom, rotate, select places, search and route.",
        discussion: """
            Mouse: drag to pan, wheel to zoom at the cursor, right-drag to rotate (sideways) and tilt \
            (up and down), double-click to zoom in, click to select the place under the cursor, \
            right-click twice to route between two points. Keys: + and - zoom, arrows pan, / opens \
            the search field (Enter searches the visible region), Escape clears, Ctrl+Q quits.
            """)

    @Argument(help: "The bundle folder (default: --bundle, then $OPENMAPKIT_BUNDLE).")
    var bundlePath: String?

    @OptionGroup var data: BundleOptions

    @Option(help: "The window size in points, WIDTHxHEIGHT.")
    var size = ViewSize(argument: "1280x800")!

    @Option(help: "The centre to start at, LAT,LON (default: the middle of the bundle).")
    var center: CLLocationCoordinate2D?

    @Option(help: "The zoom level to start at (default: the whole bundle in view).")
    var zoom: Double?

    @Flag(help: "Print one JSON line per settled camera change, handled input event and drawn frame to standard output.")
    var report = false

    @Option(help: "Which face drives the window: mapkit (MKMapView) or mapbox (MGLMapView, its style, logo and attribution).")
    var api: ViewAPI = .mapkit

    @Option(help: "With --api mapbox, the style to show: a Mapbox style URL (mapbox://styles/mapbox/streets-v11 …), a MapLibre style file or an http(s) URL.")
    var styleURL: String?

    @Option(help: "A Maps URL to open: /look-around?coordinate=LAT,LON opens Look Around there (press L or Esc for the map).")
    var url: String?

    func validate() throws {
        if let zoom, !(0...22).contains(zoom) { throw ValidationError("--zoom must be between 0 and 22") }
        if size.width > 8192 || size.height > 8192 { throw ValidationError("--size must be at most 8192x8192") }
        if bundlePath != nil, data.bundle != nil, bundlePath != data.bundle { throw ValidationError("give the bundle once: as an argument or with --bundle") }
        if styleURL != nil, api != .mapbox { throw ValidationError("--style-url needs --api mapbox") }
    }

    func run() throws {
        let source = try BundleOptions.dataSource(path: bundlePath ?? data.bundle)
        let name = source.bundles.map { $0.url.deletingPathExtension().lastPathComponent }.joined(separator: " + ")
        let frame = CGRect(origin: .zero, size: size.cgSize)
        let mapView: MKMapView
        var mapbox: MGLMapView?
        switch api {
        case .mapkit:
            mapView = MKMapView(frame: frame)
            mapView.dataSource = source
            // MapKit's ornaments: the compass while the map is turned, the scale bar always, and
            // the controls a desktop map has: zoom (+/−) and the 3D button.
            mapView.showsCompass = true
            mapView.showsScale = true
            mapView.showsZoomControls = true
            mapView.showsPitchControl = true
        case .mapbox:
            let url = styleURL.map { $0.contains("://") ? URL(string: $0) : URL(fileURLWithPath: $0) } ?? nil
            if styleURL != nil, url == nil { throw CommandFailure("--style-url \(styleURL!) is not a URL") }
            let face = MGLMapView(frame: frame, styleURL: url)
            face.dataSource = source
            face.showsScale = true
            mapbox = face
            mapView = face.windowEngine
        }
        do {
            let window = try mapbox.map { try MapWindow(mapboxMapView: $0, title: "OpenMapKit (Mapbox) — \(name)") }
                ?? MapWindow(mapView: mapView, title: "OpenMapKit — \(name)")
            if report { window.onReport = Self.printReport }
            // The window opens on the data and keeps to it: the centre stays over the data's
            // bounds and the camera no farther than four times the distance that shows its main part whole,
            // so the hatched no-data area around them frames the map instead of filling the window.
            if let area = source.dataMapRect {
                mapView.setVisibleMapRect(area, animated: false)
                let whole = mapView.camera.centerCoordinateDistance
                mapView.cameraZoomRange = MKMapView.CameraZoomRange(maxCenterCoordinateDistance: 4 * whole)
                mapView.cameraBoundary = MKMapView.CameraBoundary(mapRect: source.dataBounds.reduce(area) { $0.union($1) })
            }
            if let center {
                mapView.setCenter(center, animated: false)
                mapView.setZoomLevel(zoom ?? 15, animated: false)
            } else if let zoom {
                mapView.setZoomLevel(zoom, animated: false)
            }
            if let url {
                let coordinate = try LookAroundCommand.coordinate(url)
                mapView.setCenter(coordinate, animated: false)
                mapView.setZoomLevel(zoom ?? 17, animated: false)
                if !window.enterLookAround(at: coordinate) {
                    throw CommandFailure("no Look Around at \(coordinate.latitude),\(coordinate.longitude): no street within \(Int(MKLookAroundSceneRequest.maximumDistance)) m")
                }
            }
            try window.run()
        } catch let error as MapWindowError {
            throw CommandFailure(error.description)
        }
    }

    /// One JSON line on standard output (`--report`), flushed at once so a reader follows live.
    static func printReport(_ report: MapWindow.Report) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(report) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}

/// The face `openmapkit view --api` drives.
enum ViewAPI: String, ExpressibleByArgument, CaseIterable {
    case mapkit, mapbox
}
