import ArgumentParser

/// The `openmapkit` command line: one executable, one verb per job.
struct OpenMapKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openmapkit",
        abstract: "MapKit for Linux, from OpenStreetMap data you import yourself.",
        discussion: """
            Import an extract into a bundle (vector tiles, a place index, road graphs), then draw it \
            (snapshot, tiles render, render, view), search it (search, geocode, reverse), route over it \
            (route, eta) or serve all of that over HTTP with a web map and the Apple Maps Server API (serve). \
            Verbs that read a bundle take --bundle PATH (default: $OPENMAPKIT_BUNDLE); most print JSON with --json.

            Start: openmapkit import region.osm.pbf && openmapkit serve region.omk
            """,
        subcommands: [ImportCommand.self, UpdateCommand.self, ServeCommand.self, ViewCommand.self, TilesCommand.self, SnapshotCommand.self, LookAroundCommand.self, RenderCommand.self, SearchCommand.self, GeocodeCommand.self, ReverseCommand.self, RouteCommand.self, ETACommand.self, OSMCommand.self, RegionCommand.self, GeodesicCommand.self, MapPointCommand.self]
    )
}

OpenMapKitCommand.main()
