import ArgumentParser
import Foundation
import OpenMapKit

/// `openmapkit region`: everything MapKit derives from a region — span, map rect, the view that
/// shows it, its tiles and a Maps URL.
struct RegionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "region",
        abstract: "Show a region's span, map rect, zoom, camera, tile range and Maps URL."
    )

    @Option(parsing: .unconditional, help: "The region's centre, LAT,LON (may start with a minus sign).")
    var center: CLLocationCoordinate2D

    @Option(help: "Full north–south and east–west extent in metres.")
    var meters: Double?

    @Option(help: "Span in degrees, LATDELTA,LONDELTA with 0 < LATDELTA ≤ 180 and 0 < LONDELTA ≤ 360 (instead of --meters).")
    var span: MKCoordinateSpan?

    @Option(help: "The view that shows the region, WIDTHxHEIGHT in points.")
    var size: ViewSize = ViewSize(argument: "1024x768")!

    @OptionGroup var format: JSONOption

    func validate() throws {
        if (meters == nil) == (span == nil) { throw ValidationError("Give exactly one of --meters or --span.") }
        if let meters, !(meters > 0 && meters <= 40_075_017) { throw ValidationError("--meters must be between 0 and 40 075 017.") }
    }

    func run() throws {
        let region = span.map { MKCoordinateRegion(center: center, span: $0) }
            ?? MKCoordinateRegion(center: center, latitudinalMeters: meters ?? 0, longitudinalMeters: meters ?? 0)
        let report = RegionReport(region: region, viewSize: size.cgSize)
        if format.json { try printJSON(report) } else { print(report.text) }
    }
}

/// What `openmapkit region` prints, computed once for both the text and the JSON forms.
struct RegionReport: Encodable {
    struct Tiles: Encodable {
        var zoom: Int
        var columns: [Int]
        var minY: Int
        var maxY: Int
        var count: Int
    }

    var region: MKCoordinateRegion
    var mapRect: MKMapRect
    var spans180thMeridian: Bool
    var viewSize: String
    var zoomLevel: Double
    var centerCoordinateDistance: Double
    var visibleRegion: MKCoordinateRegion
    var tiles: Tiles?
    var mapsURL: String

    init(region: MKCoordinateRegion, viewSize: CGSize) {
        self.region = region
        mapRect = MKMapRect(region)
        spans180thMeridian = mapRect.spans180thMeridian
        self.viewSize = "\(Int(viewSize.width))x\(Int(viewSize.height))"
        let viewport = MapViewport(size: viewSize, region: region)
        zoomLevel = viewport.zoomLevel
        centerCoordinateDistance = viewport.centerCoordinateDistance
        visibleRegion = viewport.region
        // 512-point tiles: the tile zoom is the view's zoom rounded down.
        let tileZoom = min(max(Int(viewport.zoomLevel.rounded(.down)), 0), 22)
        tiles = TileRange(covering: mapRect, zoom: tileZoom).map {
            Tiles(zoom: $0.z, columns: $0.columns, minY: $0.minY, maxY: $0.maxY, count: $0.count)
        }
        mapsURL = MapsURL.frame(MapsURL.Frame(center: region.center, span: region.span)).url.absoluteString
    }

    var text: String {
        func f(_ v: Double, _ digits: Int = 6) -> String { String(format: "%.\(digits)f", v) }
        let (latMeters, lonMeters) = WGS84.metersPerDegree(atLatitude: region.center.latitude)
        var lines = [
            "Region      center \(f(region.center.latitude)),\(f(region.center.longitude))  span \(f(region.span.latitudeDelta))° × \(f(region.span.longitudeDelta))°"
                + "  (\(f(region.span.latitudeDelta * latMeters, 0)) m × \(f(region.span.longitudeDelta * lonMeters, 0)) m)",
            "Map rect    origin (\(f(mapRect.minX, 1)), \(f(mapRect.minY, 1)))  size \(f(mapRect.width, 1)) × \(f(mapRect.height, 1)) map points"
                + (spans180thMeridian ? "  (crosses the 180th meridian)" : ""),
            "View        \(viewSize) points: zoom \(f(zoomLevel, 2)), camera distance \(f(centerCoordinateDistance, 0)) m",
            "            shows \(f(visibleRegion.span.latitudeDelta))° × \(f(visibleRegion.span.longitudeDelta))° (fitted to the view's aspect ratio)",
        ]
        if let tiles {
            let columns = tiles.columns.count > 1 ? "\(tiles.columns.first!)–\(tiles.columns.last!)" : "\(tiles.columns[0])"
            lines.append("Tiles       z\(tiles.zoom): x \(columns), y \(tiles.minY)–\(tiles.maxY)  (\(tiles.count) tiles)")
        }
        lines.append("Maps URL    \(mapsURL)")
        return lines.joined(separator: "\n")
    }
}
