import Foundation
import MapFormats
import MapGeometry

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
    /// Seconds per phase, in order.
    public var phaseSeconds: [String: Double] = [:]

    public init() {}
}

/// An import phase, for progress reporting.
public enum ImportPhase: String, Sendable, CaseIterable {
    case relations = "reading relations"
    case nodesAndWays = "reading nodes and ways"
    case areas = "assembling multipolygons"
    case tiles = "building tiles"
    case writing = "writing the bundle"
}

/// Stops an import early: set by the command line's interrupt handler, checked between blocks.
public final class ImportCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    public func cancel() { lock.withLock { cancelled = true } }
    public var isCancelled: Bool { lock.withLock { cancelled } }
}

/// Errors that stop an import.
public enum ImportError: Error, CustomStringConvertible {
    case cancelled
    case source(String)
    case destination(String)

    public var description: String {
        switch self {
        case .cancelled: "import cancelled; nothing was changed"
        case .source(let message): message
        case .destination(let message): message
        }
    }
}

/// Turns an OSM PBF extract into a map bundle: a folder holding `tiles.mbtiles` (OpenMapTiles-schema
/// vector tiles) and `manifest.json`.
///
/// The pipeline, like OSRM's extract step, is a few sequential passes over the file: relations first
/// (to learn which ways multipolygons need), then nodes and ways (node locations into a
/// ``NodeLocationStore``, tagged nodes and ways into features), then multipolygon assembly, then
/// tile cutting. The bundle is built in a hidden folder beside the destination and renamed into
/// place only when complete, so an interrupted or failed import leaves any earlier bundle untouched.
public final class BundleImporter {
    public var tileOptions = TileBuilder.Options()
    public var schema = OpenMapTilesSchema()
    /// Called at each phase's start and as it advances (fraction 0…1 where known).
    public var progress: (ImportPhase, Double?) -> Void = { _, _ in }
    public var cancellation = ImportCancellation()

    public init() {}

    /// Imports `source` into the bundle folder `destination`, replacing an existing bundle there.
    public func importPBF(at source: URL, to destination: URL) throws -> ImportReport {
        var report = ImportReport()
        report.source = source.lastPathComponent
        let reader: OSMPBFReader
        do { reader = try OSMPBFReader(url: source) } catch { throw ImportError.source("\(source.path): \(error)") }
        let fileSize = Double(max(reader.fileSize, 1))
        var clock = ContinuousClock.now
        func finishPhase(_ phase: ImportPhase) {
            let now = ContinuousClock.now
            let d = now - clock
            report.phaseSeconds[phase.rawValue] = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            clock = now
        }
        let builder = TileBuilder(options: tileOptions)
        func add(_ features: [SchemaFeature], _ geometry: SourceGeometry, polygon: [[MKMapPoint]]? = nil) {
            for feature in features {
                var placed = geometry
                if feature.placement == .labelPoint {
                    guard let rings = polygon, let point = labelPoint(polygon: rings, precision: labelPrecision(rings)) else { continue }
                    placed = .point(point)
                }
                builder.add(layer: feature.layer, minimumZoom: feature.minimumZoom, attributes: feature.attributes, geometry: placed)
                report.featuresPerLayer[feature.layer.rawValue, default: 0] += 1
            }
        }

        /// An assembled area's polygons as features, or a count of what went wrong.
        func addArea(_ assembly: AreaAssembly, _ features: [SchemaFeature]) {
            report.missingWayReferences += assembly.report.missingWayCount
            report.missingNodeReferences += assembly.report.missingNodeCount
            guard assembly.isValid else {
                report.invalidAreas += 1
                return
            }
            for polygon in assembly.polygons {
                let rings = polygon.map { $0.map(mapPoint) }
                add(features, .polygon(rings), polygon: rings)
            }
        }

        // 1. Relations: which are areas or boundaries, and which ways they need.
        progress(.relations, nil)
        var areaRelations: [OSMRelation] = []
        var boundaryRelations: [OSMRelation] = []
        var neededWays = Set<Int64>()
        try scan(reader, kinds: .relations, fileSize: fileSize, phase: .relations) { block in
            try block.forEachRelation { relation in
                report.relations += 1
                let type = relation.tags.value(for: "type")
                if type == "multipolygon" || (type == "boundary" && relation.tags.value(for: "boundary") != "administrative") {
                    areaRelations.append(relation)
                } else if type == "boundary" {
                    boundaryRelations.append(relation)
                } else {
                    return
                }
                for member in relation.members where member.type == .way { neededWays.insert(member.ref) }
            }
        }
        finishPhase(.relations)

        // 2. Nodes and ways.
        progress(.nodesAndWays, 0)
        var nodes = NodeLocationStore()
        var memberWays: [Int64: OSMWay] = [:]
        let assembler = MultipolygonAssembler()
        var lookupsReady = false
        try scan(reader, kinds: [.nodes, .ways], fileSize: fileSize, phase: .nodesAndWays) { block in
            // Nodes straight from the block's columns: most have no tags, and need no Strings.
            let columns = block.nodes
            report.nodes += columns.count
            for i in 0..<columns.count {
                nodes.append(id: columns.ids[i], location: columns.locations[i])
                let tagRange = columns.tags.range(of: i)
                guard !tagRange.isEmpty else { continue }
                let tags: OSMTags = tagRange.map { (key: block.strings[columns.tags.keys[$0]], value: block.strings[columns.tags.values[$0]]) }
                let features = schema.features(for: tags, kind: .point)
                if !features.isEmpty { add(features, .point(mapPoint(columns.locations[i]))) }
            }
            try block.forEachWay { way in
                report.ways += 1
                if !lookupsReady {
                    nodes.prepareForLookups()
                    lookupsReady = true
                }
                if neededWays.contains(way.id) { memberWays[way.id] = way }
                guard !way.tags.isEmpty else { return }
                let closed = way.nodeRefs.count >= 4 && way.nodeRefs.first == way.nodeRefs.last
                if closed && schema.isArea(way.tags) {
                    let features = schema.features(for: way.tags, kind: .area)
                    guard !features.isEmpty else { return }
                    addArea(assembler.assemble(closedWay: way, location: nodes.location(of:)), features)
                } else {
                    let features = schema.features(for: way.tags, kind: .line)
                    guard !features.isEmpty else { return }
                    var points: [MKMapPoint] = []
                    points.reserveCapacity(way.nodeRefs.count)
                    for ref in way.nodeRefs {
                        if let location = nodes.location(of: ref) { points.append(mapPoint(location)) } else { report.missingNodeReferences += 1 }
                    }
                    if points.count >= 2 { add(features, .line(points)) }
                }
            }
        }
        finishPhase(.nodesAndWays)

        // 3. Multipolygons and boundaries.
        progress(.areas, nil)
        for relation in areaRelations {
            try checkCancelled()
            let features = schema.features(for: relation.tags, kind: .area)
            guard !features.isEmpty else { continue }
            addArea(assembler.assemble(relation: relation, way: { memberWays[$0] }, location: nodes.location(of:)), features)
        }
        // A way shared by several boundaries is drawn once, with the most important admin level.
        var boundaryWays: [Int64: (SchemaFeature, OSMWay)] = [:]
        for relation in boundaryRelations {
            for member in relation.members where member.type == .way {
                guard let way = memberWays[member.ref] else {
                    report.missingWayReferences += 1
                    continue
                }
                let maritime = way.tags.value(for: "maritime") == "yes" || way.tags.value(for: "natural") == "coastline"
                guard let feature = schema.boundaryFeature(relationTags: relation.tags, maritime: maritime) else { break }
                if let existing = boundaryWays[way.id], existing.0.minimumZoom <= feature.minimumZoom { continue }
                boundaryWays[way.id] = (feature, way)
            }
        }
        for (_, (feature, way)) in boundaryWays.sorted(by: { $0.key < $1.key }) {
            let points = way.nodeRefs.compactMap { nodes.location(of: $0) }.map(mapPoint)
            if points.count >= 2 { add([feature], .line(points)) }
        }
        finishPhase(.areas)

        // 4. Tiles, into an archive inside a bundle folder built aside.
        progress(.tiles, nil)
        try checkCancelled()
        let fileManager = FileManager.default
        let parent = destination.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(destination.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)")
        try? fileManager.removeItem(at: staging)
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw ImportError.destination("cannot create \(staging.path): \(error)")
        }
        var succeeded = false
        defer { if !succeeded { try? fileManager.removeItem(at: staging) } }

        let archiveURL = staging.appendingPathComponent("tiles.mbtiles")
        let writer = try MBTilesWriter(destination: archiveURL)
        let tiles = try builder.tiles { try Compression.deflate($0, container: .gzip) }
        finishPhase(.tiles)
        progress(.writing, 0)
        for (index, (id, compressed)) in tiles.enumerated() {
            if index % 256 == 0 {
                try checkCancelled()
                progress(.writing, Double(index) / Double(max(tiles.count, 1)))
            }
            try writer.add(id, data: Data(compressed))
            report.tilesPerZoom[id.z, default: 0] += 1
        }
        let bounds = reader.header.boundingBox.map { "\($0.minLongitude),\($0.minLatitude),\($0.maxLongitude),\($0.maxLatitude)" }
        let vectorLayers = try JSONSerialization.data(withJSONObject: ["vector_layers": TileLayer.vectorLayers(maximumZoom: tileOptions.maximumZoom)],
                                                      options: [.sortedKeys])
        var metadata: [String: String] = [
            "name": destination.deletingPathExtension().lastPathComponent,
            "format": "pbf",
            "type": "baselayer",
            "version": "1",
            "minzoom": String(tileOptions.minimumZoom),
            "maxzoom": String(tileOptions.maximumZoom),
            "description": "OpenMapTiles-schema vector tiles made by OpenMapKit from \(source.lastPathComponent)",
            "attribution": "© OpenStreetMap contributors",
            "json": String(decoding: vectorLayers, as: UTF8.self),
        ]
        if let bounds {
            metadata["bounds"] = bounds
            if let box = reader.header.boundingBox {
                let center = ((box.minLongitude + box.maxLongitude) / 2, (box.minLatitude + box.maxLatitude) / 2)
                metadata["center"] = "\(center.0),\(center.1),\(min(12, tileOptions.maximumZoom))"
            }
        }
        try writer.setMetadata(metadata)
        try writer.finish()
        report.tileBytes = (try? fileManager.attributesOfItem(atPath: archiveURL.path)[.size] as? Int) ?? 0

        let manifest = BundleManifest(formatVersion: 1, source: source.lastPathComponent, created: Date(),
                                      bounds: bounds, minimumZoom: tileOptions.minimumZoom, maximumZoom: tileOptions.maximumZoom,
                                      tiles: "tiles.mbtiles", report: report)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(manifest).write(to: staging.appendingPathComponent("manifest.json"))
        try replace(destination, with: staging)
        succeeded = true
        finishPhase(.writing)
        return report
    }

    /// Scans blocks of the given kinds, reporting progress by file position and honouring cancellation.
    private func scan(_ reader: OSMPBFReader, kinds: OSMEntityKinds, fileSize: Double, phase: ImportPhase,
                      _ body: (OSMPrimitiveBlock) throws -> Void) throws {
        var last = 0.0
        try reader.forEachBlock(options: OSMPBFReadOptions(kinds: kinds)) { block in
            try checkCancelled()
            try body(block)
            let fraction = Double(block.blobOffset) / fileSize
            if fraction - last >= 0.01 {
                last = fraction
                progress(phase, fraction)
            }
        }
        progress(phase, 1)
    }

    private func checkCancelled() throws {
        if cancellation.isCancelled { throw ImportError.cancelled }
    }

    /// Moves the finished bundle over the destination: the old bundle is moved aside first and
    /// removed only once the new one is in place.
    private func replace(_ destination: URL, with staging: URL) throws {
        let fileManager = FileManager.default
        let old = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).old-\(ProcessInfo.processInfo.processIdentifier)")
        let hadOld = fileManager.fileExists(atPath: destination.path)
        if hadOld {
            guard rename(destination.path, old.path) == 0 else {
                throw ImportError.destination("cannot move the old bundle aside: \(String(cString: strerror(errno)))")
            }
        }
        guard rename(staging.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            if hadOld { _ = rename(old.path, destination.path) }
            throw ImportError.destination("cannot move the new bundle into place: \(reason)")
        }
        if hadOld { try? fileManager.removeItem(at: old) }
    }

    private func labelPrecision(_ rings: [[MKMapPoint]]) -> Double {
        guard let outer = rings.first, !outer.isEmpty else { return 1 }
        return max(MKMapRect(boundingPoints: outer).width / 100, 1)
    }
}

/// `manifest.json` of a bundle: what it holds and where it came from.
public struct BundleManifest: Codable, Sendable {
    public var formatVersion: Int
    public var source: String
    public var created: Date
    /// "minLon,minLat,maxLon,maxLat" from the extract's header.
    public var bounds: String?
    public var minimumZoom: Int
    public var maximumZoom: Int
    /// The tile archive's file name inside the bundle.
    public var tiles: String
    public var report: ImportReport
}

@inline(__always) func mapPoint(_ location: OSMLocation) -> MKMapPoint {
    MKMapPoint(CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude))
}
