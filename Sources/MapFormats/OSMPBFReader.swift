import Foundation

/// Reads OpenStreetMap PBF files (`.osm.pbf`) block by block, decoding blobs on all cores and
/// handing blocks to the caller in file order.
///
/// ```swift
/// let reader = try OSMPBFReader(url: URL(fileURLWithPath: "monaco.osm.pbf"))
/// print(reader.header.writingProgram ?? "?")
/// try reader.forEachBlock(options: OSMPBFReadOptions(kinds: [.ways, .relations])) { block in
///     for i in 0..<block.ways.count { _ = block.ways.refs[block.ways.refRange(of: i)] }
/// }
/// try reader.read(ways: { way in print(way.id, way.tags.value(for: "highway") ?? "") })
/// ```
///
/// Memory stays bounded: the file is read sequentially with `pread`, never whole, and at most
/// `2 × concurrency` blobs are in flight (each ≤ 32 MiB compressed and ≤ 32 MiB decompressed, the
/// format's limits, checked before allocating). Every fault is an ``OSMPBFError`` naming the blob
/// by its byte offset. Blobs of unknown type are skipped, as the format asks, and counted in the
/// ``OSMPBFScanSummary``. Coordinates outside ±90°/±180° are refused as corruption.
public final class OSMPBFReader: @unchecked Sendable {
    public let url: URL
    /// The file's HeaderBlock.
    public let header: OSMPBFHeader
    /// The file's size in bytes.
    public var fileSize: Int { file.size }

    private let file: OSMPBFFile
    /// Where the first blob after the header starts.
    private let dataStart: Int

    /// Opens `url` and reads its header block. Throws if the file is not OSM PBF or needs a
    /// feature this reader lacks (see ``OSMPBFHeader/supportedRequiredFeatures``).
    public init(url: URL) throws(OSMPBFError) {
        self.url = url
        file = try OSMPBFFile(path: url.path)
        guard let frame = try OSMPBFFrame.read(from: file, at: 0, index: 0) else {
            throw OSMPBFError(.emptyFile, blobOffset: 0, blobIndex: 0)
        }
        guard frame.type == "OSMHeader" else {
            throw OSMPBFError(.missingHeaderBlock(foundType: frame.type), blobOffset: 0, blobIndex: 0)
        }
        let data = try frame.decompressed()
        let decoded: Result<OSMPBFHeader, ProtobufError> = data.withUnsafeBytes { raw in
            Result { () throws(ProtobufError) -> OSMPBFHeader in try OSMPBFHeader.decode(raw) }
        }
        switch decoded {
        case .failure(let error):
            throw OSMPBFError(.malformedBlock("header block: \(error)"), blobOffset: 0, blobIndex: 0, dataOffset: error.offset)
        case .success(let header):
            for feature in header.requiredFeatures where !OSMPBFHeader.supportedRequiredFeatures.contains(feature) {
                throw OSMPBFError(.unsupportedFeature(feature), blobOffset: 0, blobIndex: 0)
            }
            self.header = header
        }
        dataStart = frame.nextOffset
    }

    /// Decodes every data block and calls `body` with each, in file order, on the calling thread.
    ///
    /// - Parameters:
    ///   - options: which element kinds (and whether tags) to decode.
    ///   - concurrency: how many threads decode blocks; 1 decodes on the calling thread.
    ///   - body: receives the blocks; throwing from it stops the scan and rethrows.
    /// - Returns: counts over the whole scan.
    @discardableResult
    public func forEachBlock(options: OSMPBFReadOptions = OSMPBFReadOptions(),
                             concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
                             _ body: (OSMPrimitiveBlock) throws -> Void) throws -> OSMPBFScanSummary {
        var summary = OSMPBFScanSummary()
        func deliver(_ block: OSMPrimitiveBlock) throws {
            summary.blocks += 1
            summary.nodes += block.nodes.count
            summary.ways += block.ways.count
            summary.relations += block.relations.count
            try body(block)
        }
        if concurrency <= 1 {
            let decompressor = OSMPBFDecompressor()
            var offset = dataStart, index = 1
            while let frame = try OSMPBFFrame.read(from: file, at: offset, index: index) {
                offset = frame.nextOffset
                index += 1
                guard frame.type == "OSMData" else {
                    summary.skippedBlobs += 1
                    continue
                }
                try deliver(try Self.decode(frame, sequenceNumber: summary.blocks, options: options, decompressor: decompressor).get())
            }
            return summary
        }

        let pipeline = OSMPBFPipeline()
        defer { pipeline.cancel() }
        let concurrency = min(concurrency, 64)
        // Dedicated threads rather than a shared dispatch pool: the consumer blocks while it waits,
        // which must not starve the decoders when forEachBlock itself runs on a pool thread.
        for _ in 0..<concurrency {
            let thread = Thread {
                let decompressor = OSMPBFDecompressor()
                while let (sequence, frame) = pipeline.nextJob() {
                    pipeline.put(sequence, Self.decode(frame, sequenceNumber: sequence, options: options, decompressor: decompressor))
                }
            }
            thread.name = "OSMPBFReader"
            thread.start()
        }
        let window = 2 * concurrency
        var offset = dataStart, index = 1
        var submitted = 0, delivered = 0
        var readFailure: OSMPBFError?
        var readingDone = false
        while true {
            // Keep the window full: reading is sequential and cheap next to decoding.
            while !readingDone && submitted - delivered < window {
                let frame: OSMPBFFrame
                do {
                    guard let next = try OSMPBFFrame.read(from: file, at: offset, index: index) else {
                        readingDone = true
                        break
                    }
                    frame = next
                } catch {
                    readFailure = error
                    readingDone = true
                    break
                }
                offset = frame.nextOffset
                index += 1
                guard frame.type == "OSMData" else {
                    summary.skippedBlobs += 1
                    continue
                }
                pipeline.submit(submitted, frame)
                submitted += 1
            }
            if readingDone { pipeline.finish() }
            if delivered == submitted {
                if let readFailure { throw readFailure }
                return summary
            }
            let result = pipeline.take(delivered)
            delivered += 1
            try deliver(try result.get())
        }
    }

    /// Reads every element as ``OSMNode``, ``OSMWay`` and ``OSMRelation`` values, in file order,
    /// on the calling thread. Kinds whose closure is nil are skipped without being decoded.
    @discardableResult
    public func read(nodes: ((OSMNode) throws -> Void)? = nil,
                     ways: ((OSMWay) throws -> Void)? = nil,
                     relations: ((OSMRelation) throws -> Void)? = nil) throws -> OSMPBFScanSummary {
        var kinds: OSMEntityKinds = []
        if nodes != nil { kinds.insert(.nodes) }
        if ways != nil { kinds.insert(.ways) }
        if relations != nil { kinds.insert(.relations) }
        return try forEachBlock(options: OSMPBFReadOptions(kinds: kinds)) { block in
            if let nodes { try block.forEachNode(nodes) }
            if let ways { try block.forEachWay(ways) }
            if let relations { try block.forEachRelation(relations) }
        }
    }

    private static func decode(_ frame: OSMPBFFrame, sequenceNumber: Int, options: OSMPBFReadOptions,
                               decompressor: OSMPBFDecompressor) -> Result<OSMPrimitiveBlock, OSMPBFError> {
        do throws(OSMPBFError) {
            var block = try decompressor.withPayload(of: frame) { raw throws(OSMPBFError) -> OSMPrimitiveBlock in
                do throws(OSMPBFBlockFault) {
                    return try OSMPrimitiveBlockDecoder.decode(raw, options: options)
                } catch {
                    throw error.located(blobOffset: frame.offset, blobIndex: frame.index)
                }
            }
            block.sequenceNumber = sequenceNumber
            block.blobIndex = frame.index
            block.blobOffset = frame.offset
            return .success(block)
        } catch {
            return .failure(error)
        }
    }
}

/// Counts from one pass over a file.
public struct OSMPBFScanSummary: Hashable, Sendable {
    /// Data blocks delivered.
    public var blocks = 0
    /// Blobs of a type other than `OSMData` after the header, skipped as the format asks.
    public var skippedBlobs = 0
    public var nodes = 0
    public var ways = 0
    public var relations = 0

    public init() {}
}

/// Blobs waiting to be decoded and decoded blocks waiting for the consumer, keyed by sequence
/// number. One condition serves both sides; there are only a few threads.
private final class OSMPBFPipeline: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [(Int, OSMPBFFrame)] = []
    private var ready: [Int: Result<OSMPrimitiveBlock, OSMPBFError>] = [:]
    /// No more jobs will come: workers exit once the queue is empty.
    private var finished = false
    private var cancelled = false

    func submit(_ sequence: Int, _ frame: OSMPBFFrame) {
        condition.lock()
        jobs.append((sequence, frame))
        condition.broadcast()
        condition.unlock()
    }

    /// The next blob to decode, waiting for one; nil when the scan is over.
    func nextJob() -> (Int, OSMPBFFrame)? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !finished { condition.wait() }
        if cancelled || jobs.isEmpty { return nil }
        return jobs.removeFirst()
    }

    func put(_ sequence: Int, _ result: Result<OSMPrimitiveBlock, OSMPBFError>) {
        condition.lock()
        if !cancelled { ready[sequence] = result }
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the block with this sequence number.
    func take(_ sequence: Int) -> Result<OSMPrimitiveBlock, OSMPBFError> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = ready.removeValue(forKey: sequence) { return result }
            condition.wait()
        }
    }

    /// Every blob has been submitted.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the workers; blocks being decoded finish and are dropped.
    func cancel() {
        condition.lock()
        finished = true
        cancelled = true
        jobs.removeAll()
        ready.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

// MARK: - Entities

extension OSMPrimitiveBlock {
    /// Strings made once per block and shared by the entities that use them.
    private struct StringCache {
        let table: OSMStringTable
        var strings: [String?]

        init(_ table: OSMStringTable) {
            self.table = table
            strings = Array(repeating: nil, count: table.count)
        }

        mutating func string(_ index: Int32) -> String {
            if let s = strings[Int(index)] { return s }
            let s = table[index]
            strings[Int(index)] = s
            return s
        }

        mutating func tags(_ columns: OSMTagColumns, _ element: Int) -> OSMTags {
            let range = columns.range(of: element)
            guard !range.isEmpty else { return [] }
            var tags: OSMTags = []
            tags.reserveCapacity(range.count)
            for i in range { tags.append((key: string(columns.keys[i]), value: string(columns.values[i]))) }
            return tags
        }
    }

    /// Calls `body` with each node as an ``OSMNode``.
    public func forEachNode(_ body: (OSMNode) throws -> Void) rethrows {
        var cache = StringCache(strings)
        for i in 0..<nodes.count {
            try body(OSMNode(id: nodes.ids[i], location: nodes.locations[i], tags: cache.tags(nodes.tags, i)))
        }
    }

    /// Calls `body` with each way as an ``OSMWay``.
    public func forEachWay(_ body: (OSMWay) throws -> Void) rethrows {
        var cache = StringCache(strings)
        for i in 0..<ways.count {
            try body(OSMWay(id: ways.ids[i], nodeRefs: Array(ways.refs[ways.refRange(of: i)]), tags: cache.tags(ways.tags, i)))
        }
    }

    /// Calls `body` with each relation as an ``OSMRelation``.
    public func forEachRelation(_ body: (OSMRelation) throws -> Void) rethrows {
        var cache = StringCache(strings)
        for i in 0..<relations.count {
            let members = relations.memberRange(of: i).map { m in
                OSMRelation.Member(type: relations.memberTypes[m], ref: relations.memberRefs[m],
                                   role: cache.string(relations.memberRoles[m]))
            }
            try body(OSMRelation(id: relations.ids[i], members: members, tags: cache.tags(relations.tags, i)))
        }
    }

    /// The block's nodes as entities.
    public func makeNodes() -> [OSMNode] {
        var result: [OSMNode] = []
        result.reserveCapacity(nodes.count)
        forEachNode { result.append($0) }
        return result
    }

    /// The block's ways as entities.
    public func makeWays() -> [OSMWay] {
        var result: [OSMWay] = []
        result.reserveCapacity(ways.count)
        forEachWay { result.append($0) }
        return result
    }

    /// The block's relations as entities.
    public func makeRelations() -> [OSMRelation] {
        var result: [OSMRelation] = []
        result.reserveCapacity(relations.count)
        forEachRelation { result.append($0) }
        return result
    }
}
