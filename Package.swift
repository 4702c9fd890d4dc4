// swift-tools-version:6.0
import PackageDescription

// Module layout follows DESIGN.md: data flows down the dependency list, never up.
let package = Package(
    name: "OpenMapKit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "OpenMapKit", targets: ["OpenMapKit"]),
        .library(name: "MapWindow", targets: ["MapWindow"]),
        .executable(name: "openmapkit", targets: ["openmapkit"]),
        .executable(name: "trip-planner", targets: ["trip-planner"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        // Graceful shutdown of the test servers (Hummingbird runs on it already).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    ],
    targets: [
        // Coordinates, WGS84 geodesics, spherical Mercator, regions, camera and tile math.
        .target(name: "MapGeometry"),
        // Debian's compression libraries (zlib1g-dev, liblz4-dev, libzstd-dev, libbz2-dev; the Makefile installs them).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // bzip2, for `.osc.bz2` change files.
        .systemLibrary(name: "CBZip2", path: "Sources/CBZip2", providers: [.apt(["libbz2-dev"])]),
        .systemLibrary(name: "CLZ4", path: "Sources/CLZ4", providers: [.apt(["liblz4-dev"])]),
        .systemLibrary(name: "CZstd", path: "Sources/CZstd", providers: [.apt(["libzstd-dev"])]),
        // libdeflate (libdeflate-dev): whole-buffer deflate, several times zlib's speed at low levels, for PNG encoding.
        .systemLibrary(name: "CLibDeflate", path: "Sources/CLibDeflate", providers: [.apt(["libdeflate-dev"])]),
        // Wire formats: protobuf, compression, GeoJSON, Mapbox Vector Tiles, OSM PBF, XML, osmChange and replication
        // directories, MBTiles (SQLite via GRDB), PMTiles.
        .target(name: "MapFormats", dependencies: ["MapGeometry", "CZlib", "CBZip2", "CLZ4", "CZstd", "CLibDeflate",
                                                   .product(name: "GRDB", package: "GRDB.swift")]),
        // The place index file (SQLite via GRDB: FTS5 + R*Tree), its writer and every query over it.
        .target(name: "MapSearch", dependencies: ["MapGeometry", "MapFormats", .product(name: "GRDB", package: "GRDB.swift")]),
        // The road graph file (memory-mapped, contracted), travel profiles' numbers and route queries.
        .target(name: "MapRouting", dependencies: ["MapGeometry"]),
        // Street scenes: what OpenStreetMap says stands along a street in 3D (buildings with
        // heights, roofs and colours; roads with widths; trees, lamps, shop signs), the scene file
        // that holds it in a bundle (SQLite via GRDB, R*Tree by area), its writer and reader.
        .target(name: "StreetScene", dependencies: ["MapGeometry", "MapFormats", .product(name: "GRDB", package: "GRDB.swift")]),
        // The map bundle: its layout and manifest, how bundles are found, opening its parts (tile
        // archive, place index, road graphs), writing one (write aside, then rename), and putting
        // right one an update left half done (its journal; GRDB reads the element store's commit).
        .target(name: "MapBundle", dependencies: ["MapGeometry", "MapFormats", "MapSearch", "MapRouting", "StreetScene",
                                                  .product(name: "GRDB", package: "GRDB.swift")]),
        // MapLibre style spec v8: the style document, its validation and the expression language.
        .target(name: "MapStyle", dependencies: ["MapGeometry"]),
        // OSM → map bundle: geometry assembly (multipolygons), tag schema, tile building, and the
        // places, roads and street scene handed to MapSearch's, MapRouting's and StreetScene's
        // writers (MapStyle's CSS colour parser reads colour tags), and the OSM elements kept for
        // updates (an SQLite file via GRDB).
        .target(name: "MapImport", dependencies: ["MapGeometry", "MapFormats", "MapSearch", "MapRouting", "StreetScene", "MapBundle",
                                                  "MapStyle", .product(name: "GRDB", package: "GRDB.swift")]),
        // Keeping a bundle current from OpenStreetMap's replication feeds: read over HTTP
        // (AsyncHTTPClient, with NIO's types) or from a folder, applied with MapImport's updater.
        .target(name: "MapUpdate", dependencies: ["MapFormats", "MapBundle", "MapImport",
                                                  .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                  .product(name: "NIOCore", package: "swift-nio"),
                                                  .product(name: "NIOHTTP1", package: "swift-nio")]),
        // Debian's drawing and text libraries (libcairo2-dev, libharfbuzz-dev with FreeType; the Makefile installs them).
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        // Style + tiles + camera → pixels: one painter per layer type on a Cairo canvas, FreeType
        // fonts and HarfBuzz shaping, symbol placement, the default styles.
        .target(name: "MapRender", dependencies: ["MapGeometry", "MapStyle", "MapFormats", "CCairo", "CHarfBuzz"]),
        // Mesa (libegl-dev, libgles-dev): OpenGL ES 3 off-screen on the CPU; GLU's tessellator (libglu1-mesa-dev).
        .systemLibrary(name: "CEGL", path: "Sources/CEGL", providers: [.apt(["libegl-dev", "libgles-dev", "libegl-mesa0", "libgl1-mesa-dri"])]),
        .systemLibrary(name: "CGLU", path: "Sources/CGLU", providers: [.apt(["libglu1-mesa-dev"])]),
        // Street scene + camera → pixels: the scene's meshes (Meshes/: extruded buildings and
        // roofs, road surfaces, trees, signs) drawn by Mesa off-screen (GL/), signs' text by MapRender.
        .target(name: "StreetSceneRender", dependencies: ["MapGeometry", "StreetScene", "MapRender", "CEGL", "CGLU"]),
        // The public MapKit-shaped API; re-exports MapGeometry. AsyncHTTPClient (with NIO's types)
        // fetches remote tiles, TileJSON and styles (Engine/TileFetching); Look Around pictures
        // come from StreetSceneRender.
        .target(name: "OpenMapKit", dependencies: ["MapGeometry", "MapFormats", "MapBundle", "MapStyle", "MapRender",
                                                   "MapSearch", "MapRouting", "StreetScene", "StreetSceneRender",
                                                   .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                   .product(name: "NIOCore", package: "swift-nio"),
                                                   .product(name: "NIOHTTP1", package: "swift-nio")]),
        // SDL2 (libsdl2-dev): MapWindow's window (the window of `openmapkit view`).
        .systemLibrary(name: "CSDL2", path: "Sources/CSDL2", providers: [.apt(["libsdl2-dev"])]),
        // A desktop window (SDL2) that shows an MKMapView and turns mouse, wheel and keys into its gestures.
        .target(name: "MapWindow", dependencies: ["OpenMapKit", "MapRender", "CSDL2"]),
        // The HTTP server (Hummingbird): tiles, styles, glyphs, snapshots, the Apple Maps Server API
        // shapes under /v1, operations endpoints and the web map page.
        // Debian's libcrypto (libssl-dev): SHA-256 and HMAC for the server's access and page tokens.
        .systemLibrary(name: "CLibCrypto", path: "Sources/CLibCrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "MapServer", dependencies: ["MapGeometry", "MapFormats", "MapBundle", "MapStyle", "MapRender", "OpenMapKit",
                                                  "CLibCrypto",
                                                  .product(name: "Hummingbird", package: "hummingbird"),
                                                  .product(name: "HummingbirdCore", package: "hummingbird"),
                                                  .product(name: "HTTPTypes", package: "swift-http-types"),
                                                  .product(name: "NIOCore", package: "swift-nio"),
                                                  .product(name: "NIOHTTP1", package: "swift-nio"),
                                                  .product(name: "Logging", package: "swift-log")],
                resources: [.copy("Resources/WebMap"), .copy("Resources/MapKitJS")]),
        // The command line.
        .executableTarget(
            name: "openmapkit",
            dependencies: [
                "MapFormats",
                "MapSearch",
                "MapBundle",
                "MapImport",
                "MapStyle",
                "MapRender",
                "OpenMapKit",
                "MapServer",
                "MapWindow",
                "MapUpdate",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The WWDC23 trip planner's map, running on Linux in a MapWindow over the Monaco sample.
        .executableTarget(name: "trip-planner", dependencies: ["OpenMapKit", "MapWindow"], path: "Examples/TripPlanner"),
        // Helpers shared by the tests and benchmarks: the shared test data, the sample bundles
        // imported once per process, a seeded random number generator, the relevance suite.
        .target(name: "TestSupport", dependencies: ["MapGeometry", "MapFormats", "MapSearch", "MapImport"]),
        // `make bench`: throughput figures, run in release mode.
        .executableTarget(name: "OpenMapKitBenchmarks", dependencies: ["MapGeometry", "MapFormats", "MapSearch", "MapRouting",
                                                                       "MapBundle", "MapImport", "MapStyle", "MapRender",
                                                                       "OpenMapKit", "TestSupport"]),

        .testTarget(name: "MapGeometryTests", dependencies: ["MapGeometry", "TestSupport"]),
        .testTarget(name: "MapFormatsTests", dependencies: ["MapGeometry", "CLZ4", "CZstd", "MapFormats", "TestSupport",
                                                          .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "MapBundleTests", dependencies: ["MapBundle", "MapFormats", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "MapUpdateTests", dependencies: ["MapGeometry", "MapFormats", "MapBundle", "MapImport", "MapUpdate", "TestSupport"]),
        .testTarget(name: "MapImportTests", dependencies: ["MapGeometry", "MapFormats", "MapSearch", "MapRouting", "MapBundle", "MapImport", "TestSupport",
                                                          .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "MapSearchTests", dependencies: ["MapGeometry", "MapSearch", "MapBundle", "MapImport", "TestSupport"],
                    exclude: ["Relevance"]),
        .testTarget(name: "MapRoutingTests", dependencies: ["MapGeometry", "MapFormats", "MapRouting", "MapBundle", "MapImport", "OpenMapKit",
                                                          "TestSupport"],
                    exclude: ["OSRMFeatures-skipped.md", "OSRMFeatures-known-failures.md"]),
        .testTarget(name: "MapStyleTests", dependencies: ["MapStyle", "TestSupport"]),
        // MapLibreRenderSuite is test data (MapLibre's render tests with their assets), read from the
        // source tree by MapLibreRenderSuiteTests, not compiled or bundled.
        .testTarget(name: "MapRenderTests", dependencies: ["MapGeometry", "MapFormats", "MapStyle", "MapRender", "MapBundle", "TestSupport"],
                    exclude: ["MapLibreRenderSuite"]),
        .testTarget(name: "OpenMapKitTests", dependencies: ["MapFormats", "MapSearch", "MapRouting", "MapBundle", "MapStyle", "MapRender",
                                                          "OpenMapKit", "TestSupport"]),
        .testTarget(name: "MapServerTests", dependencies: ["MapGeometry", "MapFormats", "MapStyle", "MapRender", "OpenMapKit",
                                                          "MapServer", "TestSupport",
                                                          .product(name: "NIOCore", package: "swift-nio"),
                                                          .product(name: "Hummingbird", package: "hummingbird"),
                                                          .product(name: "NIOEmbedded", package: "swift-nio"),
                                                          .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                                                          .product(name: "Logging", package: "swift-log"),
                                                          .product(name: "HTTPTypes", package: "swift-http-types"),
                                                          .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
                    exclude: ["WebMapPage/Browser"]),
        // Runs the built `openmapkit` binary as a user would.
        .testTarget(name: "CommandLineTests", dependencies: ["openmapkit", "trip-planner", "MapRender", "TestSupport"]),
        .testTarget(name: "StreetSceneTests", dependencies: ["MapGeometry", "MapFormats", "StreetScene", "MapBundle", "MapImport", "TestSupport",
                                                          .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "StreetSceneRenderTests", dependencies: ["MapGeometry", "StreetScene", "StreetSceneRender", "MapRender"]),
        // Opens a MapWindow from Swift on a virtual X server (Xvfb).
        .testTarget(name: "MapWindowTests", dependencies: ["MapWindow", "OpenMapKit", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
