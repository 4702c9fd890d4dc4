import ArgumentParser
import Foundation
import MapRender
import OpenMapKit

/// `openmapkit snapshot`: a thin shell over `MKMapSnapshotter`. It frames the map by centre and
/// zoom, by a bounding box or, given neither, on the data's bounds, picks a built-in style or a MapLibre style file, and draws markers
/// and polylines into the image with OpenMapKit's marker and `MKPolylineRenderer` drawing.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Render a PNG of the bundle's map, with markers and polylines (MKMapSnapshotter).")

    @OptionGroup var data: BundleOptions
    @OptionGroup var camera: CameraOptions

    @Option(help: "The area to frame instead of --center/--zoom: SOUTH,WEST,NORTH,EAST in degrees. Without either, the data's bounds.")
    var bbox: String?

    @Option(help: "Degrees the camera tilts from looking straight down, 0 to 60 (the map in perspective).")
    var pitch = 0.0

    @OptionGroup var image: ImageOptions

    @Option(help: "standard, dark, muted, hybrid, imagery, or a MapLibre style file (FILE.json).")
    var style = "standard"

    @Option(help: "Imagery tiles for hybrid/imagery: a URL template with {z}/{x}/{y} (file:// or a path), or a folder of z/x/y.png.")
    var imagery: String?

    @Option(help: "A marker, LAT,LON or LAT,LON,title (repeatable).")
    var marker: [String] = []

    @Option(help: "A line to draw: LAT,LON;LAT,LON;... or a GeoJSON file (repeatable).")
    var polyline: [String] = []

    @Option(help: "The polylines' colour, #RRGGBB.")
    var lineColor = "#007AFF"

    @Option(help: "The polylines' width in points.")
    var lineWidth = 5.0

    @Option(name: .shortAndLong, help: "Where to write the PNG.")
    var output: String

    @OptionGroup var format: JSONOption

    func run() throws {
        // 800×600 points unless --size says otherwise.
        let size = image.size ?? ViewSize(argument: "800x600")!, scale = image.scale, bearing = camera.bearing
        guard pitch.isFinite, (0...MapViewport.maximumPitch).contains(pitch) else {
            throw ValidationError("--pitch must be between 0 and \(Int(MapViewport.maximumPitch)) degrees")
        }
        let source = try data.dataSource(imagery: imagery.map { MKTileOverlay(urlTemplate: $0) })
        let options = MKMapSnapshotter.Options()
        options.size = CGSize(width: size.width, height: size.height)
        options.scale = CGFloat(scale)
        if let bbox {
            let parts = bbox.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let south = parts[0], let west = parts[1], let north = parts[2], let east = parts[3],
                  (-90...90).contains(south), (-90...90).contains(north), south < north,
                  (-180...180).contains(west), (-180...180).contains(east), west < east else {
                throw ValidationError("--bbox must be SOUTH,WEST,NORTH,EAST with south < north and west < east")
            }
            let corners = [MKMapPoint(CLLocationCoordinate2D(latitude: north, longitude: west)),
                           MKMapPoint(CLLocationCoordinate2D(latitude: south, longitude: east))]
            options.mapRect = MKMapRect(x: corners[0].x, y: corners[0].y, width: corners[1].x - corners[0].x, height: corners[1].y - corners[0].y)
            if bearing != 0 || pitch != 0 {
                let camera = options.camera
                camera.heading = bearing
                camera.pitch = pitch
                options.camera = camera
            }
        } else if camera.center != nil || camera.zoom != nil {
            guard let center = camera.center, let zoom = camera.zoom else { throw ValidationError("give --center and --zoom, or --bbox") }
            let viewport = MapViewport(size: options.size, centerCoordinate: center, zoomLevel: zoom, heading: bearing, pitch: pitch)
            options.camera = viewport.camera
        } else {
            // Neither: the data's bounds, as the web map and the window open.
            guard let area = source.dataMapRect else {
                throw ValidationError("the bundle does not record its bounds: give --center and --zoom, or --bbox")
            }
            options.mapRect = area
            if bearing != 0 || pitch != 0 {
                let camera = options.camera
                camera.heading = bearing
                camera.pitch = pitch
                options.camera = camera
            }
        }

        switch style {
        case "standard": options.preferredConfiguration = MKStandardMapConfiguration()
        case "muted": options.preferredConfiguration = MKStandardMapConfiguration(emphasisStyle: .muted)
        case "dark": options.traitCollection = UITraitCollection(traitsFrom: [options.traitCollection, UITraitCollection(userInterfaceStyle: .dark)])
        case "hybrid": options.preferredConfiguration = MKHybridMapConfiguration()
        case "imagery", "satellite": options.preferredConfiguration = MKImageryMapConfiguration()
        default:
            guard FileManager.default.fileExists(atPath: style) else {
                throw ValidationError("--style must be standard, dark, muted, hybrid, imagery or an existing style file")
            }
            options.styleURL = URL(fileURLWithPath: style)
        }

        for value in marker {
            let parts = value.split(separator: ",", maxSplits: 2).map(String.init)
            guard parts.count >= 2, let coordinate = CLLocationCoordinate2D(argument: parts[0] + "," + parts[1]) else {
                throw ValidationError("--marker must be LAT,LON or LAT,LON,title: \(value)")
            }
            let annotation = MKPointAnnotation(coordinate: coordinate)
            annotation.title = parts.count == 3 ? parts[2] : nil
            options.addAnnotation(annotation)
        }

        guard let color = Self.color(hex: lineColor) else { throw ValidationError("--line-color must be #RRGGBB") }
        guard lineWidth.isFinite, lineWidth > 0, lineWidth <= 100 else { throw ValidationError("--line-width must be between 0 and 100") }
        for value in polyline {
            for line in try Self.polylines(value) {
                let renderer = MKPolylineRenderer(polyline: line)
                renderer.strokeColor = color
                renderer.lineWidth = CGFloat(lineWidth)
                options.addOverlay(renderer, level: .aboveRoads)
            }
        }

        let snapshot: MKMapSnapshotter.Snapshot
        do {
            snapshot = try MKMapSnapshotter(options: options, dataSource: source).snapshot()
        } catch {
            throw CommandFailure(error)
        }
        guard let png = snapshot.image.pngData() else { throw CommandFailure("cannot encode the PNG") }
        do { try png.write(to: URL(fileURLWithPath: output)) } catch { throw CommandFailure("cannot write \(output): \(error.localizedDescription)") }
        let pixels = snapshot.image.pixelSize
        try WrittenFile(output: output, bytes: png.count, width: Int(pixels.width), height: Int(pixels.height))
            .report(json: format.json, text: "wrote \(output) (\(pixels.width)×\(pixels.height) pixels)")
    }

    static func color(hex: String) -> UIColor? {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        return UIColor(red: CGFloat(value >> 16 & 0xFF) / 255, green: CGFloat(value >> 8 & 0xFF) / 255, blue: CGFloat(value & 0xFF) / 255, alpha: 1)
    }

    /// The lines of a --polyline value: coordinates inline, or every LineString (and polygon ring)
    /// in a GeoJSON file.
    static func polylines(_ value: String) throws -> [MKPolyline] {
        if FileManager.default.fileExists(atPath: value) {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: value)) } catch { throw CommandFailure("cannot read \(value): \(error.localizedDescription)") }
            let objects: [any MKGeoJSONObject]
            do { objects = try MKGeoJSONDecoder().decode(data) } catch let error as MKError {
                throw CommandFailure("\(value): \(error.reason ?? error.localizedDescription)")
            }
            var lines: [MKPolyline] = []
            func add(_ object: Any) {
                switch object {
                case let feature as MKGeoJSONFeature: feature.geometry.forEach(add)
                case let line as MKPolyline: lines.append(line)
                case let many as MKMultiPolyline: lines += many.polylines
                case let polygon as MKPolygon:
                    // Drawn as its outline: closed back to the first point unless the ring already ends there.
                    let ring = polygon.points()
                    lines.append(MKPolyline(points: ring.last == ring.first ? ring : ring + ring.prefix(1)))
                case let polygons as MKMultiPolygon: polygons.polygons.forEach(add)
                default: break
                }
            }
            objects.forEach(add)
            guard !lines.isEmpty else { throw CommandFailure("\(value): no LineString or Polygon to draw") }
            return lines
        }
        var coordinates: [CLLocationCoordinate2D] = []
        for pair in value.split(separator: ";") {
            guard let coordinate = CLLocationCoordinate2D(argument: String(pair)) else {
                throw ValidationError("--polyline must be LAT,LON;LAT,LON;... or a GeoJSON file: \(pair)")
            }
            coordinates.append(coordinate)
        }
        guard coordinates.count >= 2 else { throw ValidationError("--polyline needs at least two points") }
        return [MKPolyline(coordinates: coordinates)]
    }
}
