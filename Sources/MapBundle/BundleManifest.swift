import Foundation
import MapGeometry

// The bundle's manifest: `manifest.json`, written last by `openmapkit import`, says what the bundle
// holds (which files, which zooms, which travel modes) and what the import did. Every reader starts
// here; a bundle without one is not a bundle.

/// `manifest.json` of a bundle: what it holds and where it came from.
public struct BundleManifest: Codable, Sendable {
    /// The layout version this code writes. Readers accept this version and older ones (fields
    /// added since are optional).
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    public var source: String
    public var created: Date
    /// "minLon,minLat,maxLon,maxLat": the extract's header box, else the box around its nodes
    /// (bundles made before that have none when the header had none). See ``geographicBounds``.
    public var bounds: String?
    /// Boxes around the separate parts of the data, as ``bounds`` is written, when an extract
    /// without a header box joins regions far apart (its ``bounds`` then hold them all), the part
    /// with the most nodes first; nil for one part. See ``geographicCoverage``.
    public var coverage: [String]? = nil
    public var minimumZoom: Int
    public var maximumZoom: Int
    /// The tile archive's file name inside the bundle.
    public var tiles: String
    public var report: ImportReport
    /// Travel mode (`TravelMode.rawValue`) → road graph file name; nil in bundles made before
    /// directions existed.
    public var roads: [String: String]? = nil
    /// The place index's file name (search and geocoding); nil in bundles made before search
    /// existed, or imported without it.
    public var places: String? = nil
    /// The street scene's file name (3D objects for Look Around); nil in bundles made before
    /// scenes existed, or imported without one.
    public var scene: String? = nil
    /// The OSM element store's file name (what an update from change files needs); nil in bundles
    /// made before stores existed, or imported without one (`--no-update-data`).
    public var elements: String? = nil
    /// The tile feature store's file name (the features an update re-cuts tiles from); kept with
    /// the element store.
    public var features: String? = nil
    /// Where the bundle's data stands in its replication feed, and how many updates it has had:
    /// from the extract's header at import (when it names a feed), then from each update; nil
    /// when neither said anything.
    public var updates: UpdateState? = nil

    /// Where a bundle's data stands.
    public struct UpdateState: Codable, Sendable, Equatable {
        /// Change files applied since the import.
        public var count: Int
        /// The replication sequence number the data reflects (nil when unknown, as for changes
        /// applied from files to an extract that named no feed).
        public var sequence: Int?
        /// The OSM data's time at that sequence.
        public var timestamp: Date?
        /// The feed the extract came from (its header's `osmosis_replication_base_url`).
        public var feed: String?
        /// When the last update was applied (the import's time until then).
        public var applied: Date

        public init(count: Int, sequence: Int? = nil, timestamp: Date? = nil, feed: String? = nil, applied: Date) {
            (self.count, self.sequence, self.timestamp, self.feed, self.applied) = (count, sequence, timestamp, feed, applied)
        }
    }

    public init(formatVersion: Int = BundleManifest.currentFormatVersion, source: String, created: Date, bounds: String?,
                minimumZoom: Int, maximumZoom: Int, tiles: String, report: ImportReport,
                roads: [String: String]? = nil, places: String? = nil, scene: String? = nil, elements: String? = nil,
                features: String? = nil) {
        (self.formatVersion, self.source, self.created, self.bounds) = (formatVersion, source, created, bounds)
        (self.minimumZoom, self.maximumZoom, self.tiles, self.report) = (minimumZoom, maximumZoom, tiles, report)
        (self.roads, self.places, self.scene, self.elements, self.features) = (roads, places, scene, elements, features)
    }

    /// ``bounds`` read and checked; nil when missing or not a box on the globe.
    public var geographicBounds: GeographicBounds? { bounds.flatMap(GeographicBounds.init(text:)) }

    /// The boxes the data covers: ``coverage`` read and checked, else ``geographicBounds`` alone;
    /// empty when neither says. The first is the main part, where a map of the bundle opens.
    public var geographicCoverage: [GeographicBounds] {
        let parts = (coverage ?? []).compactMap(GeographicBounds.init(text:))
        return parts.isEmpty ? (geographicBounds.map { [$0] } ?? []) : parts
    }

    /// Reads a manifest (dates in ISO 8601, as ``encoded()`` writes them).
    public static func decode(_ data: Data) throws -> BundleManifest {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(BundleManifest.self, from: data)
    }

    /// The manifest as `manifest.json` holds it: pretty, key-sorted JSON with ISO 8601 dates.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self)
    }
}

/// The area a bundle's data covers, in degrees: west < east (no box across the antimeridian),
/// south < north, every side on the globe.
public struct GeographicBounds: Hashable, Sendable, CustomStringConvertible {
    public let west: Double, south: Double, east: Double, north: Double

    /// Nil unless the sides are finite, on the globe and in order.
    public init?(west: Double, south: Double, east: Double, north: Double) {
        guard [west, south, east, north].allSatisfy(\.isFinite), west >= -180, east <= 180, south >= -90, north <= 90,
              west < east, south < north else { return nil }
        (self.west, self.south, self.east, self.north) = (west, south, east, north)
    }

    /// From the manifest's text, "minLon,minLat,maxLon,maxLat".
    public init?(text: String) {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2], let north = numbers[3] else { return nil }
        self.init(west: west, south: south, east: east, north: north)
    }

    /// The manifest's text, "minLon,minLat,maxLon,maxLat".
    public var text: String { "\(west),\(south),\(east),\(north)" }
    public var description: String { text }

    /// The box on MapKit's flat map.
    public var mapRect: MKMapRect {
        let northWest = MKMapPoint(CLLocationCoordinate2D(latitude: north, longitude: west))
        let southEast = MKMapPoint(CLLocationCoordinate2D(latitude: south, longitude: east))
        return MKMapRect(x: northWest.x, y: northWest.y, width: southEast.x - northWest.x, height: southEast.y - northWest.y)
    }

    /// The smallest box holding both.
    public func union(_ other: GeographicBounds) -> GeographicBounds {
        GeographicBounds(west: min(west, other.west), south: min(south, other.south), east: max(east, other.east),
                         north: max(north, other.north))!
    }

    /// The smallest box holding them all; nil for none.
    public static func union(_ boxes: [GeographicBounds]) -> GeographicBounds? {
        boxes.dropFirst().reduce(boxes.first) { $0?.union($1) }
    }
}

/// What an import did: entities read, features per layer, tiles per zoom, bytes, and what was
/// skipped. `openmapkit import` prints it, and `--json` prints it as JSON.
public struct ImportReport: Codable, Sendable {
    public var source = ""
    public var nodes = 0
    public var ways = 0
    public var relations = 0
    /// Way node references that the extract does not contain (cut off at its edge).
    public var missingNodeReferences = 0
    /// Relation member ways that the extract does not contain.
    public var missingWayReferences = 0
    /// Areas (closed ways and multipolygons) that could not be assembled into valid polygons.
    public var invalidAreas = 0
    public var featuresPerLayer: [String: Int] = [:]
    public var tilesPerZoom: [Int: Int] = [:]
    /// Size of the tile archive in bytes.
    public var tileBytes = 0
    /// Time, memory and disk per phase, in order.
    public var phases: [PhaseCost] = []
    /// What was repaired or went wrong building the sea from the extract's `natural=coastline`
    /// ways: gaps bridged, coast ends carried out to the extract's bounds, islands drawn the wrong
    /// way round, and chains that could not be closed (then no sea is made). Empty when all was well.
    public var coastlineWarnings: [String] = []
    /// Places in the search index (`places.sqlite`).
    public var places = 0
    /// Size of the place index in bytes.
    public var placeIndexBytes = 0
    /// Buildings and building parts in the street scene (`scene.sqlite`).
    public var sceneBuildings = 0
    /// Roads, paths and railway lines in the street scene.
    public var sceneRoads = 0
    /// Areas of ground cover in the street scene.
    public var sceneAreas = 0
    /// Trees, street furniture, signs and house numbers in the street scene.
    public var scenePoints = 0
    /// Size of the street scene file in bytes.
    public var sceneBytes = 0
    /// Size of the OSM element store (`osm.sqlite`) in bytes; 0 when the import kept none.
    public var elementStoreBytes = 0
    /// Seconds the road graphs took to build, on their own thread beside the later phases when
    /// the import runs them so (then the phases' road graph row is only the wait at the end); 0
    /// when the import built none.
    public var roadGraphSeconds = 0.0

    public init() {}

    /// Reads a report written by any version: fields a manifest does not have (bundles made before
    /// they existed) keep their defaults, so an older bundle stays usable.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        source = try container.decodeIfPresent(String.self, forKey: .source) ?? ""
        nodes = try container.decodeIfPresent(Int.self, forKey: .nodes) ?? 0
        ways = try container.decodeIfPresent(Int.self, forKey: .ways) ?? 0
        relations = try container.decodeIfPresent(Int.self, forKey: .relations) ?? 0
        missingNodeReferences = try container.decodeIfPresent(Int.self, forKey: .missingNodeReferences) ?? 0
        missingWayReferences = try container.decodeIfPresent(Int.self, forKey: .missingWayReferences) ?? 0
        invalidAreas = try container.decodeIfPresent(Int.self, forKey: .invalidAreas) ?? 0
        featuresPerLayer = try container.decodeIfPresent([String: Int].self, forKey: .featuresPerLayer) ?? [:]
        tilesPerZoom = try container.decodeIfPresent([Int: Int].self, forKey: .tilesPerZoom) ?? [:]
        tileBytes = try container.decodeIfPresent(Int.self, forKey: .tileBytes) ?? 0
        phases = try container.decodeIfPresent([PhaseCost].self, forKey: .phases) ?? []
        coastlineWarnings = try container.decodeIfPresent([String].self, forKey: .coastlineWarnings) ?? []
        places = try container.decodeIfPresent(Int.self, forKey: .places) ?? 0
        placeIndexBytes = try container.decodeIfPresent(Int.self, forKey: .placeIndexBytes) ?? 0
        sceneBuildings = try container.decodeIfPresent(Int.self, forKey: .sceneBuildings) ?? 0
        sceneRoads = try container.decodeIfPresent(Int.self, forKey: .sceneRoads) ?? 0
        sceneAreas = try container.decodeIfPresent(Int.self, forKey: .sceneAreas) ?? 0
        scenePoints = try container.decodeIfPresent(Int.self, forKey: .scenePoints) ?? 0
        sceneBytes = try container.decodeIfPresent(Int.self, forKey: .sceneBytes) ?? 0
        elementStoreBytes = try container.decodeIfPresent(Int.self, forKey: .elementStoreBytes) ?? 0
        roadGraphSeconds = try container.decodeIfPresent(Double.self, forKey: .roadGraphSeconds) ?? 0
    }

    /// What one phase of an import cost.
    public struct PhaseCost: Codable, Sendable {
        /// The phase's name (MapImport's `ImportPhase`).
        public var phase: String
        public var seconds: Double
        /// The process's peak resident memory during the phase (heap and mapped scratch files
        /// alike), where the system can tell (Linux); nil elsewhere.
        public var peakMemoryBytes: Int?
        /// Scratch files and output on disk at the end of the phase.
        public var diskBytes: Int

        public init(phase: String, seconds: Double, peakMemoryBytes: Int?, diskBytes: Int) {
            (self.phase, self.seconds, self.peakMemoryBytes, self.diskBytes) = (phase, seconds, peakMemoryBytes, diskBytes)
        }
    }
}

