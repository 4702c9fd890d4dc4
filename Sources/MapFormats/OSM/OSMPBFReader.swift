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
    /// Reading relations alone from a file whose header promises `Sort.Type_then_ID` decodes only
    /// the file's tail: relations come after every node and way there, so once a block holds a
    /// node or a way, no earlier block can hold a relation. The scan walks the frame headers,
    /// seeking past the blobs, then decodes from the last blob backwards until it meets a block
    /// with nodes or ways, and delivers the blocks that hold relations; the others are not
    /// delivered (``OSMPrimitiveBlock/sequenceNumber`` still counts them). A blob before that tail
    /// is never read, so a fault inside it goes unnoticed, while a fault in any frame header is
    /// thrown before the first block is delivered. A file that is not sorted is read in full.
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
        if options.kinds == .relations && header.isSortedByTypeThenID {
            let tail = try relationTail(options: options, concurrency: concurrency)
            summary.skippedBlobs = tail.skippedBlobs
            for block in tail.blocks { try deliver(block) }
            return summary
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
                try deliver(try Self.decode(frame, sequenceNumber: summary.blocks, options: options, decompressor: decompressor).get().block)
            }
            return summary
        }

        let concurrency = min(concurrency, 64)
        let pipeline = OSMPBFPipeline(threads: concurrency) { sequence, frame, decompressor in
            Self.decode(frame, sequenceNumber: sequence, options: options, decompressor: decompressor).map { $0.block }
        }
        defer { pipeline.cancel() }
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

    /// The data blocks that hold relations in a file sorted by type then id, in file order; how
    /// many blobs were skipped as not `OSMData`; and how many were handed to the decoders (with
    /// several threads, up to `concurrency - 1` more than the tail needed).
    func relationTail(options: OSMPBFReadOptions, concurrency: Int) throws(OSMPBFError)
        -> (blocks: [OSMPrimitiveBlock], skippedBlobs: Int, decodedBlobs: Int) {
        var frames: [OSMPBFFrameHeader] = []
        var skipped = 0
        var offset = dataStart, index = 1
        while let frame = try OSMPBFFrameHeader.read(from: file, at: offset, index: index) {
            offset = frame.nextOffset
            index += 1
            if frame.type == "OSMData" { frames.append(frame) } else { skipped += 1 }
        }
        let file = self.file
        let decode = { @Sendable (sequence: Int, frame: OSMPBFFrameHeader, decompressor: OSMPBFDecompressor) in
            Result { () throws(OSMPBFError) in try OSMPBFFrame.read(from: file, frame) }.flatMap { frame in
                Self.decode(frame, sequenceNumber: sequence, options: options, decompressor: decompressor, probe: true)
            }
        }
        let threads = min(concurrency, 64)
        let pipeline = threads > 1 ? OSMPBFPipeline(threads: threads, decode) : nil
        defer { pipeline?.cancel() }
        let decompressor = OSMPBFDecompressor()
        var blocks: [OSMPrimitiveBlock] = []
        var next = frames.count   // frames[next...] are decoded or being decoded
        for sequence in frames.indices.reversed() {
            let result: Result<(block: OSMPrimitiveBlock, holdsNodesOrWays: Bool), OSMPBFError>
            if let pipeline {
                // Only `threads` ahead: blobs past the last node or way block are wasted work.
                while next > max(0, sequence + 1 - threads) {
                    next -= 1
                    pipeline.submit(next, frames[next])
                }
                result = pipeline.take(sequence)
            } else {
                next = sequence
                result = decode(sequence, frames[sequence], decompressor)
            }
            let (block, holdsNodesOrWays) = try result.get()
            if block.relations.count > 0 { blocks.append(block) }
            if holdsNodesOrWays { break }
        }
        return (blocks.reversed(), skipped, frames.count - next)
    }

    /// Decodes a data blob. With `probe`, also tells whether it holds nodes or ways, which
    /// `options` may leave undecoded.
    private static func decode(_ frame: OSMPBFFrame, sequenceNumber: Int, options: OSMPBFReadOptions,
                               decompressor: OSMPBFDecompressor, probe: Bool = false)
        -> Result<(block: OSMPrimitiveBlock, holdsNodesOrWays: Bool), OSMPBFError> {
        do throws(OSMPBFError) {
            var (block, found) = try decompressor.withPayload(of: frame) { raw throws(OSMPBFError) -> (OSMPrimitiveBlock, Bool) in
                do throws(OSMPBFBlockFault) {
                    let block = try OSMPrimitiveBlockDecoder.decode(raw, options: options)
                    // The decoder has just parsed every group, so the probe cannot fail.
                    return (block, probe && (try? Self.holdsNodesOrWays(raw)) == true)
                } catch {
                    throw error.located(blobOffset: frame.offset, blobIndex: frame.index)
                }
            }
            block.sequenceNumber = sequenceNumber
            block.blobIndex = frame.index
            block.blobOffset = frame.offset
            return .success((block, found))
        } catch {
            return .failure(error)
        }
    }

    /// Whether a PrimitiveBlock has a non-empty Node, DenseNodes or Way message in a group, read
    /// from the groups' field headers without decoding any element. An empty message holds no
    /// element, so sorting says nothing about where it may stand.
    private static func holdsNodesOrWays(_ raw: UnsafeRawBufferPointer) throws(ProtobufError) -> Bool {
        var block = ProtobufReader(raw)
        while let (field, wireType) = try block.nextField() {
            guard field == 2, wireType == .lengthDelimited else {
                try block.skip(wireType)
                continue
            }
            var group = try block.readMessage()
            while let (member, memberWireType) = try group.nextField() {
                guard (1...3).contains(member), memberWireType == .lengthDelimited else {
                    try group.skip(memberWireType)
                    continue
                }
                if !(try group.readLengthDelimitedRange()).isEmpty { return true }
            }
        }
        return false
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
private final class OSMPBFPipeline<Job: Sendable, Output: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [(Int, Job)] = []
    private var ready: [Int: Result<Output, OSMPBFError>] = [:]
    /// No more jobs will come: workers exit once the queue is empty.
    private var finished = false
    private var cancelled = false

    /// Starts `threads` workers that run `work` on each job, each with its own decompressor.
    init(threads: Int, _ work: @escaping @Sendable (Int, Job, OSMPBFDecompressor) -> Result<Output, OSMPBFError>) {
        // Dedicated threads rather than a shared dispatch pool: the consumer blocks while it waits,
        // which must not starve the decoders when the scan itself runs on a pool thread.
        for _ in 0..<threads {
            let thread = Thread { [self] in
                let decompressor = OSMPBFDecompressor()
                while let (sequence, job) = nextJob() { put(sequence, work(sequence, job, decompressor)) }
            }
            thread.name = "OSMPBFReader"
            thread.start()
        }
    }

    func submit(_ sequence: Int, _ job: Job) {
        condition.lock()
        jobs.append((sequence, job))
        condition.broadcast()
        condition.unlock()
    }

    /// The next blob to decode, waiting for one; nil when the scan is over.
    func nextJob() -> (Int, Job)? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !finished { condition.wait() }
        if cancelled || jobs.isEmpty { return nil }
        return jobs.removeFirst()
    }

    func put(_ sequence: Int, _ result: Result<Output, OSMPBFError>) {
        condition.lock()
        if !cancelled { ready[sequence] = result }
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the block with this sequence number.
    func take(_ sequence: Int) -> Result<Output, OSMPBFError> {
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
