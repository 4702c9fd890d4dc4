import ArgumentParser

/// The `openmapkit` command line: one executable, one verb per job.
struct OpenMapKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openmapkit",
        abstract: "MapKit for Linux: map geometry, and (as they land) import, tiles, search and directions.",
        subcommands: [ImportCommand.self, ServeCommand.self, ViewCommand.self, TilesCommand.self, SnapshotCommand.self, RenderCommand.self, SearchCommand.self, GeocodeCommand.self, ReverseCommand.self, RouteCommand.self, ETACommand.self, OSMCommand.self, RegionCommand.self, GeodesicCommand.self, MapPointCommand.self]
    )
}

OpenMapKitCommand.main()
