import ArgumentParser
import Foundation
import MapBundle
import OpenMapKit

// The options several verbs share, declared once: each verb includes the groups it takes with
// `@OptionGroup`, so the same option is spelled, documented and checked the same way everywhere.

/// `--bundle PATH`: which map data a verb reads.
struct BundleOptions: ParsableArguments {
    @Option(help: "The bundle folder, several separated by ':', or a folder of bundles (default: $OPENMAPKIT_BUNDLE).")
    var bundle: String?

    /// The bundles as MapKit's calls read them, with `imagery` for the hybrid and imagery maps.
    /// Errors become one-line failures naming the folder or the environment variable.
    func dataSource(imagery: MKTileOverlay? = nil) throws -> MapDataSource {
        try Self.dataSource(path: bundle, imagery: imagery)
    }

    /// The same for a path given some other way (`view`'s positional argument).
    static func dataSource(path: String?, imagery: MKTileOverlay? = nil) throws -> MapDataSource {
        do {
            if let path { return try MapDataSource(path: path, imagery: imagery) }
            return try MapDataSource.resolved().withImagery(imagery)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// The first bundle named, for the verbs that read one bundle's files (its tiles).
    func firstBundle() throws -> MapBundle {
        do { return try MapBundle.resolve(bundle) } catch { throw CommandFailure(error.message) }
    }
}

/// `--json`: print JSON for programs instead of text for people.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print JSON instead of text.")
    var json = false
}

/// `--center`, `--zoom`, `--bearing`: where a drawn map looks.
struct CameraOptions: ParsableArguments {
    @Option(help: "The centre, LAT,LON.")
    var center: CLLocationCoordinate2D?

    @Option(help: "The zoom level (MapLibre's: the world is 512 points wide at zoom 0).")
    var zoom: Double?

    @Option(help: "Degrees the map is turned: with 90, east is up.")
    var bearing = 0.0

    func validate() throws {
        guard bearing.isFinite else { throw ValidationError("--bearing must be a finite number of degrees") }
        if let zoom, !(0...24).contains(zoom) { throw ValidationError("--zoom must be between 0 and 24") }
    }
}

/// `--size`, `--scale`: how big a drawn image is.
struct ImageOptions: ParsableArguments {
    @Option(help: "The image size in points, WIDTHxHEIGHT (default: the verb's, see its overview).")
    var size: ViewSize?

    @Option(help: "Device pixels per point (more than 0, at most 4).")
    var scale = 1.0

    func validate() throws {
        guard scale.isFinite, scale > 0, scale <= 4 else { throw ValidationError("--scale must be more than 0 and at most 4") }
    }
}
