import MapFormats

/// Node locations for way geometry, kept in a memory-mapped scratch file so that a country's
/// tens of millions of nodes cost page cache, not heap: 16 bytes a node (id, then latitude and
/// longitude in 1e-7 degrees), sorted by id, with every 256th id on the heap to narrow each
/// lookup to one 4 KiB page.
///
/// Sorted extracts (osmium's "Sort.Type_then_ID", the norm for downloads) append in id order and
/// are ready at once; an unsorted file is sorted once, on the heap, before the first lookup.
/// Appending ends with ``prepareForLookups()``; after that the store is read-only and safe to
/// read from several threads.
public final class NodeLocationStore: @unchecked Sendable {
    private var file: SpillFile
    private let directory: String
    /// Records not yet handed to the file: id, then the location packed into 64 bits.
    private var buffer: [Int64] = []
    /// The id of every `stride`-th record, for narrowing a lookup before touching the file.
    private var sampledIDs: [Int64] = []
    private var records: UnsafePointer<Int64>?
    private var lastID = Int64.min
    private var sorted = true
    public private(set) var count = 0

    private static let stride = 256
    private static let bufferedRecords = 1 << 16

    /// A store whose file lives (unlinked) in `directory`.
    public init(directory: String) throws {
        self.directory = directory
        file = try SpillFile(directory: directory)
        buffer.reserveCapacity(2 * Self.bufferedRecords)
    }

    /// Bytes the store occupies on disk.
    public var diskBytes: Int { closed ? 0 : file.count }
    private var closed = false

    /// Gives the store's memory and disk back early: resident pages are dropped and the file is
    /// emptied. Lookups find nothing afterwards.
    public func close() {
        guard !closed else { return }
        file.releaseResidentPages()
        records = nil
        sampledIDs = []
        closed = true
        file.truncate()
    }

    /// Adds a node. Later duplicates of an id win.
    public func append(id: Int64, location: OSMLocation) throws {
        precondition(records == nil, "NodeLocationStore: append after prepareForLookups")
        if id <= lastID { sorted = false }
        lastID = id
        if count % Self.stride == 0 { sampledIDs.append(id) }
        count += 1
        buffer.append(id)
        buffer.append(Self.pack(location))
        if buffer.count >= 2 * Self.bufferedRecords { try flushBuffer() }
    }

    /// Ends appending: writes out the buffer, sorts if appends came out of order, maps the file.
    public func prepareForLookups() throws {
        guard records == nil else { return }
        try flushBuffer()
        try file.seal()
        if !sorted { try sortFile() }
        records = file.withBytes { $0.baseAddress?.assumingMemoryBound(to: Int64.self) }
    }

    /// The location of node `id`, or nil if the extract does not have it. Needs ``prepareForLookups()``.
    public func location(of id: Int64) -> OSMLocation? {
        guard let records else { return nil }
        // The last sample at or below `id` starts the only stride that can hold it.
        var low = 0, high = sampledIDs.count
        while low < high {
            let mid = (low + high) >> 1
            if sampledIDs[mid] <= id { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        var first = (low - 1) * Self.stride
        var last = min(first + Self.stride, count)
        while first < last {
            let mid = (first + last) >> 1
            if records[2 * mid] < id { first = mid + 1 } else { last = mid }
        }
        guard first < count, records[2 * first] == id else { return nil }
        return Self.unpack(records[2 * first + 1])
    }

    private func flushBuffer() throws {
        guard !buffer.isEmpty else { return }
        _ = try buffer.withUnsafeBytes { raw in try file.append(raw) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Rewrites the file in id order, keeping the last of duplicate ids, and resamples it.
    private func sortFile() throws {
        var pairs: [(id: Int64, location: Int64)] = file.withBytes { raw in
            let values = raw.bindMemory(to: Int64.self)
            return (0..<count).map { (values[2 * $0], values[2 * $0 + 1]) }
        }
        // A stable sort keeps duplicates in append order, so the last one is the later append.
        pairs = pairs.enumerated().sorted { $0.element.id != $1.element.id ? $0.element.id < $1.element.id : $0.offset < $1.offset }.map(\.element)
        var sortedFile = try SpillFile(directory: directory)
        sampledIDs = []
        var written = 0
        var index = 0
        while index < pairs.count {
            var next = index + 1
            while next < pairs.count && pairs[next].id == pairs[index].id { next += 1 }
            let kept = pairs[next - 1]
            if written % Self.stride == 0 { sampledIDs.append(kept.id) }
            try sortedFile.append(value: kept.id)
            try sortedFile.append(value: kept.location)
            written += 1
            index = next
        }
        try sortedFile.seal()
        file = sortedFile
        count = written
        sorted = true
    }

    @inline(__always) private static func pack(_ location: OSMLocation) -> Int64 {
        Int64(bitPattern: UInt64(UInt32(bitPattern: location.latitudeE7)) << 32 | UInt64(UInt32(bitPattern: location.longitudeE7)))
    }

    @inline(__always) private static func unpack(_ packed: Int64) -> OSMLocation {
        let bits = UInt64(bitPattern: packed)
        return OSMLocation(latitudeE7: Int32(bitPattern: UInt32(truncatingIfNeeded: bits >> 32)),
                           longitudeE7: Int32(bitPattern: UInt32(truncatingIfNeeded: bits)))
    }
}
