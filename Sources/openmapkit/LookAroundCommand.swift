import ArgumentParser
import Foundation
import OpenMapKit

/// `openmapkit lookaround`: a thin shell over `MKLookAroundSceneRequest` and
/// `MKLookAroundSnapshotter`: the street-level picture of the scene nearest a point (or a Maps
/// URL's `/look-around`), rendered from the bundle's OpenStreetMap data.
struct LookAroundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookaround",
        abstract: "Render a street-level PNG of the Look Around scene nearest a point (MKLookAroundSnapshotter).",
        discussion: "The picture is drawn from OpenStreetMap (buildings, roads, trees, signs), not photographed. "
            + "Exits 1 with a one-line reason where there is no street to stand on.")

    @OptionGroup var data: BundleOptions

    @Argument(help: "Where to look from: LAT,LON, or a Maps URL such as https://maps.apple.com/look-around?coordinate=LAT,LON.")
    var location: String

    @Option(help: "Degrees clockwise from north to look toward (default: along the street, or at the point off it).")
    var heading: Double?

    @Option(help: "Degrees above the horizon, -60 to 60.")
    var pitch = 0.0

    @Option(help: "The horizontal field of view in degrees, 10 to 120.")
    var fov = 75.0

    @OptionGroup var image: ImageOptions

    @Option(help: "The time of day the sun is placed for, ISO 8601 (default: now).")
    var time: String?

    @Flag(help: "Draw the scene at night (a dark appearance).")
    var dark = false

    @Option(name: .shortAndLong, help: "Where to write the PNG.")
    var output: String

    @OptionGroup var format: JSONOption

    func run() throws {
        let coordinate = try Self.coordinate(location)
        let size = image.size ?? ViewSize(argument: "640x480")!
        var date: Date?
        if let time {
            guard let parsed = ISO8601DateFormatter().date(from: time) else { throw ValidationError("--time must be an ISO 8601 date, as 2026-06-21T12:00:00Z") }
            date = parsed
        }
        let source = try data.dataSource()
        do {
            let request = MKLookAroundSceneRequest(coordinate: coordinate)
            request.dataSource = source
            guard let scene = try request.sceneHere() else {
                throw CommandFailure("no Look Around at \(coordinate.latitude),\(coordinate.longitude): no street, path or square within \(Int(MKLookAroundSceneRequest.maximumDistance)) m")
            }
            let options = MKLookAroundSnapshotter.Options()
            options.size = CGSize(width: size.width, height: size.height)
            options.traitCollection = UITraitCollection(traitsFrom: [UITraitCollection(displayScale: CGFloat(image.scale)),
                                                                    UITraitCollection(userInterfaceStyle: dark ? .dark : .light)])
            options.heading = heading
            options.pitch = pitch
            options.fieldOfView = fov
            options.date = date
            let snapshotter = MKLookAroundSnapshotter(scene: scene, options: options)
            snapshotter.dataSource = source
            let snapshot = try snapshotter.snapshotHere()
            guard let png = snapshot.image.pngData() else { throw CommandFailure("cannot encode the PNG") }
            do { try png.write(to: URL(fileURLWithPath: output)) } catch { throw CommandFailure("cannot write \(output): \(error.localizedDescription)") }
            let pixels = snapshot.image.pixelSize
            let street = scene.streetName.map { " on \($0)" } ?? ""
            try WrittenFile(output: output, bytes: png.count, width: pixels.width, height: pixels.height)
                .report(json: format.json, text: "wrote \(output) (\(pixels.width)×\(pixels.height) pixels, standing\(street) at "
                        + "\(String(format: "%.6f,%.6f", scene.coordinate.latitude, scene.coordinate.longitude)), looking \(Int((heading ?? scene.heading).rounded()))°)")
        } catch {
            throw CommandFailure(error)
        }
    }

    /// LAT,LON, or the coordinate of a Maps URL's `/look-around` (or `/place`).
    static func coordinate(_ text: String) throws -> CLLocationCoordinate2D {
        if let coordinate = CLLocationCoordinate2D(argument: text) { return coordinate }
        guard text.contains("://"), let url = URL(string: text) else {
            throw ValidationError("the location must be LAT,LON with latitude -90…90 and longitude -180…180, or a Maps URL: \(text)")
        }
        let parsed: MapsURL
        do { parsed = try MapsURL(url: url) } catch { throw ValidationError("\(text): \(error)") }
        switch parsed {
        case .lookAround(let place):
            guard let coordinate = place.coordinate else {
                throw ValidationError("\(text): Look Around by address or Place ID needs a search; give coordinate=LAT,LON")
            }
            return coordinate
        case .place(let place):
            guard let coordinate = place.coordinate else { throw ValidationError("\(text): the place has no coordinate") }
            return coordinate
        default:
            throw ValidationError("\(text) is not a Maps URL that names a place to look around")
        }
    }
}
