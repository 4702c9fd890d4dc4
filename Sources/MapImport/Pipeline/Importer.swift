import Foundation
import MapFormats
import MapBundle
import MapGeometry

/// An import phase, for progress reporting.
public enum ImportPhase: String, Sendable, CaseIterable {
    case relations = "reading relations"
    case nodesAndWays = "reading nodes and ways"
    case areas = "assembling multipolygons"
    case places = "building the place index"
    case streetScene = "writing the street scene"
    case elements = "keeping the OSM elements"
    case tiles = "cutting and writing tiles"
    case roadGraphs = "building the road graphs"
    case writing = "finishing the bundle"
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
    /// Whether to build the place index (`places.sqlite`) for search and geocoding.
    public var buildsPlaceIndex = true
    /// Whether to build the road graphs (one per travel mode) for directions and ETAs.
    public var buildsRoadGraphs = true
    /// Whether to build the street scene (`scene.sqlite`): buildings, roads and street furniture
    /// in 3D, for Look Around.
    public var buildsStreetScene = true
    /// Whether to keep the OSM elements (`osm.sqlite`, an ``OSMElementStore``) so the bundle can
    /// be updated from change files; off for a read-only bundle, which is then a little smaller.
    public var keepsElements = true
    /// Whether to cut the vector tiles; off only when the other parts are made again from a
    /// bundle's element store by an update (which keeps its tiles current itself).
    public var buildsTiles = true
    /// A bundle whose road graphs the new ones reuse the node order of (an update's, which makes
    /// the graphs again from the changed data): the nested dissection is skipped for the nodes
    /// that persist, and a graph whose roads only changed speeds is only re-customised.
    public var reusesRoadGraphsOf: URL?
    /// Whether the road graphs are built on a thread of their own beside the later phases (the
    /// place index, the street scene, the element store, the tiles), which mostly run on one core:
    /// faster on more than one core, at the cost of both phases' memory at once. On by default
    /// with more than one core. The phase report's road graph row is then the time the import
    /// waited for them at the end, and ``ImportReport/roadGraphSeconds`` their own build time.
    public var buildsRoadGraphsAside = ProcessInfo.processInfo.activeProcessorCount > 1

    public init() {}

    /// Imports `source` into the bundle folder `destination`, replacing an existing bundle there.
    public func importPBF(at source: URL, to destination: URL) throws -> ImportReport {
        let reader: OSMPBFReader
        do { reader = try OSMPBFReader(url: source) } catch { throw ImportError.source("\(source.path): \(error)") }
        return try importBlocks(from: reader, named: source.lastPathComponent, to: destination)
    }

    /// Imports the blocks of `reader` (a PBF file, or a bundle's element store) into the bundle
    /// folder `destination`, replacing an existing bundle there; `name` is the source's name, for
    /// the report and the manifest.
    public func importBlocks(from reader: some OSMBlockSource, named name: String, to destination: URL) throws -> ImportReport {
        var report = ImportReport()
        report.source = name
        let fileSize = Double(max(reader.fileSize, 1))

        // Everything is built in a hidden folder beside the destination, on the same disk, and
        // renamed into place at the end. Scratch files live there too (unlinked, so a killed
        // import leaves only this folder, which the next import clears).
        // (MapBundle's BundleStaging: write aside, then rename.)
        let fileManager = FileManager.default
        let bundle: BundleStaging
        do { bundle = try BundleStaging(destination: destination) } catch { throw ImportError.destination(error.message) }
        let staging = bundle.folder
        let archiveURL = bundle.url(for: MapBundle.tilesFileName)

        let builder: TileBuilder
        let store: NodeLocationStore
        do {
            builder = try TileBuilder(options: tileOptions, scratchDirectory: staging.path)
            store = try NodeLocationStore(directory: staging.path)
        } catch {
            throw ImportError.destination("\(error)")
        }
        let meter = PhaseMeter()
        defer { meter.stop() }
        func finishPhase(_ phase: ImportPhase) {
            // The unlinked scratch files, and whatever the staging folder holds (the archive being written).
            let staged = bundle.bytesWritten
            report.phases.append(meter.finish(phase.rawValue, diskBytes: store.diskBytes + builder.scratchBytes + staged))
        }

        func add(_ output: ElementFeatures) throws {
            report.missingWayReferences += output.missingWays
            report.missingNodeReferences += output.missingNodes
            if !output.isValid { report.invalidAreas += 1 }
            for (feature, geometry) in output.features where buildsTiles {
                try builder.add(layer: feature.layer, minimumZoom: feature.minimumZoom, attributes: feature.attributes, geometry: geometry,
                                source: output.source)
                report.featuresPerLayer[feature.layer.rawValue, default: 0] += 1
            }
        }

        // Places for search (nil when disabled): gathered during the passes, written at the end.
        let places = buildsPlaceIndex ? try PlaceCollector(url: bundle.url(for: MapBundle.placesFileName)) : nil
        places?.extractBox = reader.header.boundingBox.map { ($0.minLongitude, $0.minLatitude, $0.maxLongitude, $0.maxLatitude) }
        // The street scene (nil when disabled): written as blocks are read, finished at the end.
        let scene = buildsStreetScene ? try SceneCollector(url: bundle.url(for: MapBundle.sceneFileName)) : nil
        // The elements as read, for updates (nil when not kept).
        let elements = keepsElements ? try OSMElementStoreWriter(url: bundle.url(for: MapBundle.elementsFileName)) : nil
        // The extract's box, which updates close the sea and cut boundaries along, as this import does.
        if let box = reader.header.boundingBox { try elements?.setMetadata("bounds", "\(box.left),\(box.right),\(box.top),\(box.bottom)") }
        // A failed or cancelled import stops its writing queue before the staging folder goes.
        // The tile features by source, for updates (nil when the elements are not kept).
        let features = keepsElements && buildsTiles ? try TileFeatureStoreWriter(url: bundle.url(for: MapBundle.featuresFileName)) : nil
        builder.featureStore = features
        var elementsFinished = false, featuresFinished = false
        defer {
            if !elementsFinished { elements?.abandon() }
            if !featuresFinished { features?.abandon() }
        }

        // 1. Relations: which are areas or boundaries, and which ways they need.
        progress(.relations, nil)
        var areaRelations: [OSMRelation] = []
        var boundaryRelations: [OSMRelation] = []
        var neededWays = Set<Int64>()
        // The road network for the graphs (nil when disabled), gathered during the same passes.
        let roads = buildsRoadGraphs ? RoadNetworkCollector() : nil
        try scan(reader, kinds: .relations, fileSize: fileSize, phase: .relations) { block in
            try elements?.add(block)
            block.forEachRelation { relation in
                report.relations += 1
                roads?.add(relation: relation)
                switch ElementFeatureMaker.role(ofRelationTagged: relation.tags) {
                case .area: areaRelations.append(relation)
                case .boundary: boundaryRelations.append(relation)
                case nil: return
                }
                for member in relation.members where member.type == .way { neededWays.insert(member.ref) }
            }
        }
        finishPhase(.relations)

        // 2. Nodes and ways. Node locations go to the store in file order, on this thread; tagged
        // nodes and ways become features a batch of blocks at a time on all cores (ways only read
        // the store, which is complete once ways begin in a sorted extract).
        progress(.nodesAndWays, 0)
        var memberWays: [Int64: OSMWay] = [:]
        var coastlines: [CoastlineWay] = []
        // The extract's bounds, for closing the sea: the header's box, else the nodes' own.
        let headerBounds = reader.header.boundingBox
        var nodeCoverage = headerBounds == nil ? NodeCoverage() : nil
        var batch: [OSMPrimitiveBlock] = []
        let batchSize = 4 * ProcessInfo.processInfo.activeProcessorCount
        let maker = ElementFeatureMaker(schema: schema)
        var waysBegan = false
        func processBatch() throws {
            guard !batch.isEmpty else { return }
            if waysBegan { try store.prepareForLookups() }
            let blocks = batch
            batch = []
            nonisolated(unsafe) let outputs = UnsafeMutableBufferPointer<BlockFeatures>.allocate(capacity: blocks.count)
            defer { outputs.deinitialize().deallocate() }
            outputs.initialize(repeating: BlockFeatures())
            nonisolated(unsafe) let placeOutputs = UnsafeMutableBufferPointer<BlockPlaces>.allocate(capacity: places == nil ? 0 : blocks.count)
            defer { placeOutputs.deinitialize().deallocate() }
            placeOutputs.initialize(repeating: BlockPlaces())
            nonisolated(unsafe) let sceneOutputs = UnsafeMutableBufferPointer<BlockScene>.allocate(capacity: scene == nil ? 0 : blocks.count)
            defer { sceneOutputs.deinitialize().deallocate() }
            sceneOutputs.initialize(repeating: BlockScene())
            let neededWays = neededWays
            DispatchQueue.concurrentPerform(iterations: blocks.count) { index in
                outputs[index] = BlockFeatures(blocks[index], maker: maker, nodes: store, neededWays: neededWays)
                if !placeOutputs.isEmpty { placeOutputs[index] = BlockPlaces(blocks[index], nodes: store) }
                if !sceneOutputs.isEmpty { sceneOutputs[index] = BlockScene(blocks[index], nodes: store) }
            }
            for output in placeOutputs { try places?.add(output) }
            for output in sceneOutputs { try scene?.add(output) }
            for output in outputs {
                for element in output.elements { try add(element) }
                for way in output.memberWays { memberWays[way.id] = way }
                coastlines += output.coastlines
                for way in output.coastlines { features?.addCoastline(way.id) }
            }
        }
        try scan(reader, kinds: [.nodes, .ways], fileSize: fileSize, phase: .nodesAndWays) { block in
            try elements?.add(block)
            if block.nodes.count > 0 {
                roads?.addNodes(of: block)
                // Ways must see every node: a node after the first way means an unsorted extract.
                guard !waysBegan else {
                    throw ImportError.source("\(name): nodes after ways (block at byte \(block.blobOffset)); "
                                             + "the import needs an extract sorted by type and id, as `osmium sort` makes")
                }
                report.nodes += block.nodes.count
                for i in 0..<block.nodes.count { try store.append(id: block.nodes.ids[i], location: block.nodes.locations[i]) }
                if nodeCoverage != nil {
                    for location in block.nodes.locations { nodeCoverage?.add(location) }
                }
            }
            if block.ways.count > 0 {
                roads?.addWays(of: block)
                if !waysBegan { try processBatch() }  // the tagged nodes before the store is sealed
                waysBegan = true
                report.ways += block.ways.count
            }
            guard block.ways.count > 0 || block.nodes.tags.count > 0 else { return }
            batch.append(block)
            if batch.count >= batchSize { try processBatch() }
        }
        try processBatch()
        try store.prepareForLookups()
        roads?.resolveLocations(store.location(of:))
        finishPhase(.nodesAndWays)

        // The road network is complete: its graphs can be built beside what follows.
        var roadJob: RoadGraphJob?
        if let roads, buildsRoadGraphsAside {
            roadJob = RoadGraphJob(roads, into: staging, reusingGraphsIn: reusesRoadGraphsOf, cancellation: cancellation)
        }
        // An import that fails or is cancelled before the end waits for the graphs' thread (which
        // stops at its next mode) before the staging folder goes.
        defer { roadJob?.cancelAndWait() }

        // 3. Multipolygons and boundaries.
        progress(.areas, nil)
        let assembler = MultipolygonAssembler()
        for relation in areaRelations {
            try checkCancelled()
            let features = schema.features(for: relation.tags, kind: .area)
            let inScene = scene != nil && BlockScene.wants(relationTags: relation.tags)
            guard !features.isEmpty || inScene else { continue }
            let assembly = assembler.assemble(relation: relation, way: { memberWays[$0] }, location: store.location(of:))
            if inScene { try scene?.add(relation: relation, assembly: assembly) }
            guard !features.isEmpty else { continue }
            try places?.add(relation: relation, assembly: assembly)
            try add(ElementFeatures(source: FeatureSource(kind: .relation, id: relation.id), assembly, features))
        }
        // The extract's bounds: the header's box, else the box around the nodes. The sea is
        // closed within them (kept for updates too, which may bring the first coastline). The
        // manifest records them, and the parts of the data when the nodes fall apart in several
        // (see NodeCoverage): readers draw what lies outside as having no data.
        let dataBounds: GeographicBounds?
        var dataParts: [GeographicBounds] = []
        if let box = headerBounds {
            dataBounds = GeographicBounds(west: box.minLongitude, south: box.minLatitude, east: box.maxLongitude, north: box.maxLatitude)
        } else {
            dataParts = nodeCoverage?.parts() ?? []
            dataBounds = GeographicBounds.union(dataParts)
            nodeCoverage = nil
        }
        let seaBounds = dataBounds?.mapRect ?? .null
        // The sea, from the coastline ways (none in a landlocked extract, which costs nothing here).
        if !coastlines.isEmpty {
            let sea = maker.sea(coastlines, bounds: seaBounds)
            report.coastlineWarnings = sea.warnings
            for features in sea.features { try add(features) }
            coastlines = []
        }
        // A way shared by several boundaries is drawn once, with the most important admin level.
        var boundaryRelationsOfWay: [Int64: [OSMRelation]] = [:]
        for relation in boundaryRelations {
            for member in relation.members where member.type == .way {
                guard memberWays[member.ref] != nil else {
                    report.missingWayReferences += 1
                    continue
                }
                if boundaryRelationsOfWay[member.ref]?.last?.id != relation.id { boundaryRelationsOfWay[member.ref, default: []].append(relation) }
            }
        }
        for (id, relations) in boundaryRelationsOfWay.sorted(by: { $0.key < $1.key }) {
            if let line = maker.boundaryLine(way: memberWays[id]!, relations: relations, location: store.location(of:)) { try add(line) }
        }
        try places?.add(boundaries: boundaryRelations, way: { memberWays[$0] }, location: store.location(of:))
        // Way geometry is all in the tile builder now: the node store, the relations and their
        // member ways can go, and the allocator can hand their pages back before tiles are cut.
        memberWays = [:]
        boundaryRelationsOfWay = [:]
        areaRelations = []
        boundaryRelations = []
        neededWays = []
        store.close()
        #if os(Linux)
        _ = glibcMallocTrim(0)
        #endif
        finishPhase(.areas)

        // The place index: streets merged, addresses given their towns, full-text index built.
        if let places {
            progress(.places, 0)
            try places.finish { progress(.places, $0) }
            report.places = places.count
            report.placeIndexBytes = (try? fileManager.attributesOfItem(atPath: places.url.path)[.size] as? Int) ?? 0
            finishPhase(.places)
        }

        // The street scene: outlines with parts marked, counts recorded.
        if let scene {
            progress(.streetScene, nil)
            try checkCancelled()
            try scene.finish()
            report.sceneBuildings = scene.buildingCount
            report.sceneRoads = scene.roadCount
            report.sceneAreas = scene.areaCount
            report.scenePoints = scene.pointCount
            report.sceneBytes = (try? fileManager.attributesOfItem(atPath: scene.url.path)[.size] as? Int) ?? 0
            finishPhase(.streetScene)
        }

        // The OSM elements: the backward references sorted into their tables.
        if let elements {
            progress(.elements, nil)
            try checkCancelled()
            try elements.finish()
            elementsFinished = true
            report.elementStoreBytes = (try? fileManager.attributesOfItem(atPath: elements.url.path)[.size] as? Int) ?? 0
            finishPhase(.elements)
        }

        // 4. Tiles: cut bucket by bucket on all cores, written as they come.
        var writer: MBTilesWriter?
        if buildsTiles {
            progress(.tiles, 0)
            try checkCancelled()
            let archive: MBTilesWriter
            do { archive = try MBTilesWriter(destination: archiveURL) } catch { throw ImportError.destination("\(error)") }
            var written = 0
            try builder.writeTiles(transform: { try Compression.deflate($0, container: .gzip) },
                                   progress: { progress(.tiles, $0) }) { id, compressed in
                written += 1
                if written % 256 == 0 { try checkCancelled() }
                try archive.add(id, data: Data(compressed))
                report.tilesPerZoom[id.z, default: 0] += 1
            }
            try features?.finish(plan: TileCutPlan(options: tileOptions, levels: builder.cutLevels, seaBounds: seaBounds.isNull ? nil : seaBounds))
            featuresFinished = true
            writer = archive
            finishPhase(.tiles)
        }

        // 5. The road graphs, one file per travel mode (MapRouting builds and contracts them).
        var roadFiles: [String: String] = [:]
        if let roads {
            try checkCancelled()
            if let job = roadJob {
                progress(.roadGraphs, nil)
                let built = try job.wait()
                roadFiles = built.files
                report.roadGraphSeconds = built.seconds
            } else {
                progress(.roadGraphs, 0)
                let started = ContinuousClock.now
                do { roadFiles = try roads.build(into: staging, reusingGraphsIn: reusesRoadGraphsOf, progress: { progress(.roadGraphs, $0) }) } catch { throw ImportError.destination("road graph: \(error)") }
                report.roadGraphSeconds = (ContinuousClock.now - started).seconds
            }
            roads.release()
            finishPhase(.roadGraphs)
        }

        // 6. Metadata, manifest, and the rename into place.
        progress(.writing, nil)
        let bounds = dataBounds?.text
        let vectorLayers = try JSONSerialization.data(withJSONObject: ["vector_layers": TileLayer.vectorLayers(maximumZoom: tileOptions.maximumZoom)],
                                                      options: [.sortedKeys])
        var metadata: [String: String] = [
            "name": destination.deletingPathExtension().lastPathComponent,
            "format": "pbf",
            "type": "baselayer",
            "version": "1",
            "minzoom": String(tileOptions.minimumZoom),
            "maxzoom": String(tileOptions.maximumZoom),
            "description": "OpenMapTiles-schema vector tiles made by OpenMapKit from \(name)",
            "attribution": "© OpenStreetMap contributors",
            "json": String(decoding: vectorLayers, as: UTF8.self),
        ]
        if let box = dataBounds {
            metadata["bounds"] = box.text
            metadata["center"] = "\((box.west + box.east) / 2),\((box.south + box.north) / 2),\(min(12, tileOptions.maximumZoom))"
        }
        try writer?.setMetadata(metadata)
        try writer?.finish()
        report.tileBytes = (try? fileManager.attributesOfItem(atPath: archiveURL.path)[.size] as? Int) ?? 0
        finishPhase(.writing)

        var manifest = BundleManifest(source: name, created: Date(),
                                      bounds: bounds, minimumZoom: tileOptions.minimumZoom, maximumZoom: tileOptions.maximumZoom,
                                      tiles: MapBundle.tilesFileName, report: report, roads: roads == nil ? nil : roadFiles,
                                      places: places == nil ? nil : MapBundle.placesFileName,
                                      scene: scene == nil ? nil : MapBundle.sceneFileName,
                                      elements: elements == nil ? nil : MapBundle.elementsFileName,
                                      features: features == nil ? nil : MapBundle.featuresFileName)
        if dataParts.count > 1 { manifest.coverage = dataParts.map(\.text) }
        if elements != nil, let sequence = reader.header.replicationSequenceNumber {
            // Updates from the extract's feed resume here.
            manifest.updates = BundleManifest.UpdateState(count: 0, sequence: Int(sequence),
                                                          timestamp: reader.header.replicationTimestamp.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                                                          feed: reader.header.replicationBaseURL, applied: manifest.created)
        }
        do { try bundle.commit(manifest) } catch { throw ImportError.destination(error.message) }
        return report
    }

    /// Scans blocks of the given kinds, reporting progress by file position and honouring cancellation.
    private func scan(_ reader: some OSMBlockSource, kinds: OSMEntityKinds, fileSize: Double, phase: ImportPhase,
                      _ body: (OSMPrimitiveBlock) throws -> Void) throws {
        var last = 0.0
        try reader.scanBlocks(options: OSMPBFReadOptions(kinds: kinds)) { block in
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
}

/// The road graphs built on a thread of their own (see ``BundleImporter/buildsRoadGraphsAside``):
/// the road network is only read while they are built, and nothing else touches it until ``wait()``.
private final class RoadGraphJob: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let stop = ImportCancellation()
    private var result: Result<(files: [String: String], seconds: Double), ImportError>?
    private var waited = false

    init(_ roads: RoadNetworkCollector, into folder: URL, reusingGraphsIn previous: URL?, cancellation: ImportCancellation) {
        let stop = self.stop
        // The network goes to the thread and comes back at `wait()`: nothing else uses it meanwhile.
        nonisolated(unsafe) let roads = roads
        let thread = Thread { [self] in
            let started = ContinuousClock.now
            do {
                let files = try roads.build(into: folder, reusingGraphsIn: previous, isCancelled: { stop.isCancelled || cancellation.isCancelled })
                result = .success((files, (ContinuousClock.now - started).seconds))
            } catch RoadNetworkCollector.BuildError.cancelled {
                result = .failure(.cancelled)
            } catch {
                result = .failure(.destination("road graph: \(error)"))
            }
            done.signal()
        }
        thread.name = "road graphs"
        thread.start()
    }

    /// The graphs' files by mode and the build's own seconds, once built.
    func wait() throws(ImportError) -> (files: [String: String], seconds: Double) {
        done.wait()
        waited = true
        return try result!.get()
    }

    /// Stops the build at its next mode and waits for the thread, unless already waited for.
    func cancelAndWait() {
        guard !waited else { return }
        stop.cancel()
        done.wait()
        waited = true
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Measures each phase: wall time, and peak resident memory sampled from /proc/self/statm every
/// 20 ms by a background thread (Linux; nil elsewhere). Sampling rather than resetting the
/// kernel's high-water mark keeps the process's own peak (what `time` and benchmarks see) intact.
final class PhaseMeter: @unchecked Sendable {
    private let lock = NSLock()
    private var peakPages = 0
    private var running = true
    private var start = ContinuousClock.now
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    init() {
        peakPages = Self.residentPages() ?? 0
        let thread = Thread { [weak self] in
            while let self, self.sample() { Thread.sleep(forTimeInterval: 0.02) }
        }
        thread.name = "PhaseMeter"
        thread.start()
    }

    /// Stops the sampling thread.
    func stop() { lock.withLock { running = false } }

    /// Records one sample; false once stopped.
    private func sample() -> Bool {
        let pages = Self.residentPages()
        return lock.withLock {
            if let pages { peakPages = max(peakPages, pages) }
            return running
        }
    }

    func finish(_ phase: String, diskBytes: Int) -> ImportReport.PhaseCost {
        _ = sample()
        let now = ContinuousClock.now
        let elapsed = now - start
        start = now
        let current = Self.residentPages()
        let peak: Int? = lock.withLock {
            defer { peakPages = current ?? 0 }
            return current == nil ? nil : peakPages * Self.pageSize
        }
        return ImportReport.PhaseCost(phase: phase, seconds: elapsed.seconds,
                                      peakMemoryBytes: peak, diskBytes: diskBytes)
    }

    /// Resident pages now: the second field of /proc/self/statm.
    private static func residentPages() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return nil }
        let fields = buffer[..<n].split(separator: UInt8(ascii: " "))
        guard fields.count > 1 else { return nil }
        return Int(String(decoding: fields[1], as: UTF8.self))
    }
}

#if os(Linux)
/// glibc's `malloc_trim` (declared in malloc.h, which the Glibc module does not bring in): returns
/// freed heap pages to the system, so resident memory drops once a phase's data is gone.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
#endif

@inline(__always) func mapPoint(_ location: OSMLocation) -> MKMapPoint {
    MKMapPoint(CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude))
}
